"""The 21-question workload: one support ticket (~250 tokens) and 21 multiple-choice questions over it.

Shared by bench/bench_semif_many.py and the model tests, so both measure the same thing.
"""

from __future__ import annotations

STATE = (
    "From: Dana Whitfield <dana@brightkiln.example>\n"
    "Subject: Invoice charged twice and the export still fails\n\n"
    "Hi team, I run a small pottery studio and we moved to your Pro plan last month. "
    "On the 3rd I was charged twice for the same invoice (INV-2291, 49 EUR each time), and "
    "my bank shows both payments as settled. I would like one of them refunded to the card "
    "ending 4417, not as store credit. Separately, the CSV export of our orders has failed "
    "every night since Tuesday with the message 'timeout while building file'; our accountant "
    "needs the November file by Friday for the VAT return, so this is getting urgent. I tried "
    "the export from Chrome and from Firefox, and from the mobile app, with the same result. "
    "I am not angry, but I have written twice already without an answer, and if this is not "
    "sorted this week I will have to look at other tools. Could someone please call me back "
    "on +44 20 7946 0000 in the afternoon, UK time? My colleague Sam also has admin access "
    "and can approve changes if I am in the studio.\n"
    "Thanks, Dana"
)

# (question, [(option id, description), ...])
QUESTIONS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Which team should handle this ticket first?",
     [("billing", "Payments, invoices, refunds."), ("technical", "Bugs, failures, errors."),
      ("sales", "Plans, pricing, upgrades."), ("account", "Logins, users, access.")]),
    ("How urgent is the ticket?",
     [("low", "Can wait a week or more."), ("normal", "Within a few days."),
      ("high", "Needs action this week."), ("critical", "Business is down right now.")]),
    ("Does the customer ask for a refund?", [("yes", "A refund is requested."), ("no", "No refund.")]),
    ("How should a refund be paid, if any?",
     [("card", "Back to the original card."), ("credit", "As store credit."),
      ("none", "No refund is asked for.")]),
    ("What is the customer's mood?",
     [("calm", "Neutral and patient."), ("frustrated", "Annoyed but polite."),
      ("angry", "Hostile or abusive.")]),
    ("Is there a risk that the customer leaves?",
     [("yes", "They mention moving to another tool."), ("no", "No sign of leaving.")]),
    ("Which product area is failing?",
     [("export", "Exports and downloads."), ("checkout", "Checkout and payments page."),
      ("login", "Signing in."), ("mobile", "Only the mobile app."), ("none", "Nothing is failing.")]),
    ("Which plan is the customer on?",
     [("free", "The free plan."), ("starter", "The starter plan."), ("pro", "The Pro plan."),
      ("enterprise", "An enterprise contract.")]),
    ("Has the customer already contacted support about this?",
     [("yes", "They wrote before."), ("no", "This is the first message.")]),
    ("Does the customer want a phone call?", [("yes", "A call back is asked for."), ("no", "No call.")]),
    ("When does the customer prefer to be called?",
     [("morning", "In the morning."), ("afternoon", "In the afternoon."), ("evening", "In the evening."),
      ("unspecified", "No time is given.")]),
    ("Is there a deadline?",
     [("today", "It must be done today."), ("this_week", "By the end of this week."),
      ("this_month", "Within the month."), ("none", "No deadline.")]),
    ("Why does the deadline matter?",
     [("tax", "A tax or VAT filing."), ("payroll", "Paying staff."), ("launch", "A product launch."),
      ("none", "No reason is given.")]),
    ("Is the failure specific to one browser?",
     [("yes", "Only one browser fails."), ("no", "Every browser and the app fail.")]),
    ("What kind of error does the export show?",
     [("timeout", "It times out."), ("permission", "Access is denied."), ("format", "The file is malformed."),
      ("none", "No error is shown.")]),
    ("How many separate problems does the ticket report?",
     [("one", "A single problem."), ("two", "Two problems."), ("three_or_more", "Three or more.")]),
    ("Is the double charge confirmed by the customer's bank?",
     [("yes", "The bank shows both payments."), ("no", "Not confirmed.")]),
    ("Who else can approve changes on the account?",
     [("colleague", "A named colleague with admin access."), ("accountant", "The accountant."),
      ("nobody", "Nobody else.")]),
    ("What kind of business is the customer?",
     [("retail", "A shop or studio selling goods."), ("agency", "A services agency."),
      ("nonprofit", "A charity."), ("unknown", "Not said.")]),
    ("Which language should the reply be written in?",
     [("english", "English."), ("german", "German."), ("french", "French.")]),
    ("Should the ticket be escalated to a team lead?",
     [("yes", "Escalate: repeated contact, deadline and churn risk."), ("no", "Handle normally.")]),
]  # fmt: skip
