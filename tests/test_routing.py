"""The routing index: what a person types finds the skill, and a chat line finds none."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from suggestfiles import KEYWORDS, SKILLS

from edgar_min.semif.types import DecisionRequest, Option
from edgar_min.skills.routing import (
    THRESHOLD,
    Card,
    RoutingEngine,
    RoutingIndex,
    card_terms,
    stem,
    words,
)


@pytest.fixture(scope="module")
def index():
    return RoutingIndex(Card(name, d, w) for name, (d, w) in SKILLS.items())


@pytest.mark.parametrize(
    ("plain", "stemmed"),
    [("tests", "test"), ("testing", "test"), ("tester", "test"), ("debugging", "debug"), ("fuzzing", "fuzz")],
)
def test_word_forms_meet_at_one_stem(plain, stemmed):
    assert stem(plain) == stemmed


def test_function_words_and_pleasantries_are_not_evidence():
    assert words("hey can u pls help me with the thing, thanks!") == []


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("make a gif for slack of a dancing cat", "slack-gif-creator"),
        ("ci is red on my pull request, figure out why", "gh-fix-ci"),
        ("fuzz the rust decoder crate", "cargo-fuzz"),
        ("fuzz my python code with a coverage guided fuzzer", "atheris"),
        ("merge these three pdfs and rotate page 2", "pdf"),
    ],
)
def test_a_task_in_a_persons_words_finds_its_skill(index, text, skill):
    best = index.rank(text).best
    assert best is not None
    assert best.name == skill


def test_one_typo_still_matches(index):
    assert index.search("creat a gif for slak")[0].name == "slack-gif-creator"
    assert index.search("exel spredsheet needs a new column")[0].name == "xlsx"


@pytest.mark.parametrize(
    "text", ["thanks, that worked!", "lol ok", "good morning", "what time is it in tokyo"]
)
def test_a_chat_line_has_no_evidence_for_any_skill(index, text):
    assert index.rank(text).best is None


def test_the_engine_answers_none_when_nothing_applies(index):
    options = (Option("pdf", "pdf files"), Option("xlsx", "spreadsheets"), Option("none", "none of these"))
    chat = RoutingEngine(index).call(DecisionRequest("thanks, that worked", "which skill?", options))
    assert chat.selected == "none"
    task = RoutingEngine(index).call(DecisionRequest("merge two pdfs into one", "which skill?", options))
    assert task.selected == "pdf"
    assert task.extra["calibrated"] is False
    assert abs(sum(task.probabilities) - 1) < 1e-9


def test_a_huge_text_is_cut_before_scoring(index):
    text = "merge these pdfs " + "zzqx " * 200_000
    assert index.search(text)[0].name == "pdf"


# Real descriptions (ComposioHQ/awesome-claude-skills, Apache-2.0; see bench/data/README.md).
CHANGELOG = Card(
    "changelog-generator",
    "Automatically creates user-facing changelogs from git commits by analyzing commit history, "
    "categorizing changes, and transforming technical commits into clear, customer-friendly release "
    "notes. Turns hours of manual changelog writing into minutes of automated generation.",
)
CALENDAR = Card(
    "googlecalendar-automation",
    "Automate Google Calendar tasks via Rube MCP (Composio). Always search tools first for current schemas.",
)
MEET = Card(
    "googlemeet-automation",
    "Automate Google Meet tasks via Rube MCP (Composio): create Meet spaces, schedule video "
    "conferences via Calendar events, manage meeting access. Always search tools first for current schemas.",
)


@pytest.fixture(scope="module")
def wider():
    return RoutingIndex([*(Card(name, d, w) for name, (d, w) in SKILLS.items()), CHANGELOG, CALENDAR, MEET])


@pytest.mark.parametrize("text", ["cool, now commit that", "ok looks good, ship it", "no, the other file"])
def test_one_shared_word_is_not_enough_for_a_skill(wider, text):
    assert wider.rank(text).best is None


def test_the_same_word_with_a_second_one_still_finds_the_skill(wider):
    best = wider.rank("write release notes from the commits since v1.2").best
    assert best is not None
    assert best.name == "changelog-generator"


def test_a_word_that_is_the_skills_whole_name_is_enough_on_its_own(wider):
    best = wider.rank("rotate the pdf").best
    assert best is not None
    assert best.name == "pdf"


def test_a_run_together_name_is_found_by_its_parts():
    # "calendar" and "google" appear only in the name, run together; the project's other skills
    # have them as words of their own, which is how the name is split.
    cards = [
        Card("googlecalendar-automation", "Automate tasks via Rube MCP."),
        Card(
            "meeting-notes", "Write the notes of a Google Meet call, then file them with its calendar event."
        ),
        CHANGELOG,
    ]
    assert {"googl", "calendar"} <= set(RoutingIndex(cards).name_parts["googlecalendar-automation"])
    best = RoutingIndex(cards).rank("put lunch on my google calendar").best
    assert best is not None
    assert best.name == "googlecalendar-automation"


def test_a_compound_typed_apart_finds_the_skill_that_writes_it_whole():
    # "dev container" is the skill's "devcontainer": English writes a compound open or closed.
    cards = [
        Card("devcontainer-setup", "Creates devcontainers with language tooling and persistent volumes."),
        Card("docker-images", "Build, tag and publish container images for a service."),
        CHANGELOG,
    ]
    index = RoutingIndex(cards)
    assert index.search("set up a dev container for this repo")[0].name == "devcontainer-setup"
    # Two words that make no word of the project's skills stay two words.
    typed = {term for term, _ in index.expand("publish the container images")}
    assert typed == {"publish", "contain", "imag"}


# Real descriptions (trailofbits/skills, CC-BY-SA-4.0; see bench/data/README.md).
CONSTANT_TIME = Card(
    "constant-time-analysis",
    "Detects timing side-channel vulnerabilities in cryptographic code. Use when implementing or "
    "reviewing crypto code, encountering division on secrets, secret-dependent branches, or "
    "constant-time programming questions in C, C++, Go, Rust, Swift, Java, Kotlin, C#, PHP, "
    "JavaScript, TypeScript, Python, or Ruby.",
)


def test_a_short_real_word_is_not_taken_for_a_typo(wider):
    # "bill" is one letter from "fill" (PDF forms), but it is a word, not a slip.
    assert all(match != "fill" for _, matches in wider.expand("pay the bill") for match, _ in matches)
    assert wider.rank("pay the electricity bill").best is None


def test_a_python_package_skill_is_named_by_the_package_word():
    cards = [
        Card("pyzotero", "Interact with reference management libraries using a Python client."),
        CHANGELOG,
    ]
    best = RoutingIndex(cards).rank("sync my zotero library").best
    assert best is not None
    assert best.name == "pyzotero"


# Real descriptions (K-Dense-AI/claude-scientific-skills, MIT; see bench/data/README.md).
CIRQ = Card(
    "cirq",
    "Google quantum computing framework. Use when targeting Google Quantum AI hardware, designing "
    "noise-aware circuits, or running quantum characterization experiments. Best for Google hardware, "
    "noise modeling, and low-level circuit design. For IBM hardware use qiskit; for quantum ML with "
    "autodiff use pennylane; for physics simulations use qutip.",
)
QISKIT = Card(
    "qiskit",
    "IBM quantum computing framework. Use when targeting IBM Quantum hardware, working with Qiskit "
    "Runtime for production workloads, or needing IBM optimization tools. Best for IBM hardware "
    "execution, quantum error mitigation, and enterprise quantum computing. For Google hardware use "
    "cirq; for gradient-based quantum ML use pennylane; for open quantum system simulations use qutip.",
)


def test_a_clause_that_sends_the_reader_elsewhere_is_not_evidence_for_the_skill(wider):
    # cirq says "For IBM hardware use qiskit": IBM is qiskit's word, not cirq's.
    assert stem("ibm") not in card_terms(CIRQ)
    assert stem("ibm") in card_terms(QISKIT)
    index = RoutingIndex([*wider.cards.values(), CIRQ, QISKIT])
    assert index.search("run it on ibm quantum hardware")[0].name == "qiskit"
    assert index.search("noise model for a circuit on google's quantum chip")[0].name == "cirq"


# Real descriptions (K-Dense-AI/claude-scientific-skills, MIT; see bench/data/README.md).
LATEX_POSTERS = Card(
    "latex-posters",
    "Create professional research posters in LaTeX using beamerposter, tikzposter, or baposter. Support "
    "for conference presentations, academic posters, and scientific communication. Includes layout "
    "design, color schemes, multi-column formats, figure integration, and poster-specific best practices "
    "for visual communication.",
)
SCIENTIFIC_SLIDES = Card(
    "scientific-slides",
    "Build slide decks and presentations for research talks. Use this for making PowerPoint slides, "
    "conference presentations, seminar talks, research presentations, thesis defense slides, or any "
    "scientific talk. Provides slide structure, design templates, timing guidance, and visual "
    "validation. Works with PowerPoint and LaTeX Beamer.",
)


def test_a_mistyped_skill_name_still_names_the_skill(wider):
    index = RoutingIndex([*wider.cards.values(), CIRQ, QISKIT])
    best = index.rank("run my circuit on qsikit runtime").best
    assert best is not None
    assert best.name == "qiskit"


def test_a_prompt_with_every_word_of_a_skills_name_picks_it_over_a_neighbour(wider):
    # "latex" and "poster" are both words of latex-posters' name, apart in the prompt.
    index = RoutingIndex([*wider.cards.values(), LATEX_POSTERS, SCIENTIFIC_SLIDES])
    hits = index.search("make a research poster for my conference talk in latex")
    assert hits[0].name == "latex-posters"
    assert index.search("slides for my thesis defense talk")[0].name == "scientific-slides"


# Real descriptions (ComposioHQ/awesome-claude-skills, Apache-2.0; K-Dense-AI/claude-scientific-skills,
# MIT; see bench/data/README.md).
DISCORDBOT = Card(
    "discordbot-automation",
    "Automate Discordbot tasks via Rube MCP (Composio). Always search tools first for current schemas.",
)
SLACKBOT = Card(
    "slackbot-automation",
    "Automate Slackbot tasks via Rube MCP (Composio). Always search tools first for current schemas.",
)
PRIMEKG = Card(
    "primekg",
    "Query the Precision Medicine Knowledge Graph (PrimeKG) for multiscale biological data including "
    "genes, drugs, diseases, phenotypes, and more.",
)


def test_the_start_of_a_run_together_name_names_the_skill(wider):
    # "discord" is no word of any description: only the name `discordbot` starts with it.
    index = RoutingIndex([*wider.cards.values(), DISCORDBOT, SLACKBOT, PRIMEKG])
    hits = index.search("say good morning to the team on discord")
    assert hits[0].name == "discordbot-automation"
    # Two letters left unsaid is too little: "prime" is a word, not the start of `primekg`.
    hits = index.search("is 97 a prime number")
    assert not hits or hits[0].name != "primekg"


# Real descriptions (trailofbits/skills, CC-BY-SA-4.0; K-Dense-AI/claude-scientific-skills, MIT;
# see bench/data/README.md).
GIT_CLEANUP = Card(
    "git-cleanup",
    "Safely analyzes and cleans up local git branches and worktrees by categorizing them as merged, "
    "squash-merged, superseded, or active work.",
)
PYSAM = Card(
    "pysam",
    "Genomic file toolkit. Read/write SAM/BAM/CRAM alignments, VCF/BCF variants, FASTA/FASTQ sequences, "
    "extract regions, calculate coverage, for NGS data processing pipelines.",
)


@pytest.mark.parametrize("text", ["what branch am i on", "which commit broke it"])
def test_a_short_question_that_shares_a_skills_words_gets_none(wider, text):
    index = RoutingIndex([*wider.cards.values(), GIT_CLEANUP])
    ranking = index.rank(text)
    assert ranking.hits  # it does share words with a skill...
    assert ranking.best is None  # ...but a question this short needs none of them


def test_a_long_task_spread_over_a_skills_words_gets_the_skill(wider):
    # No one word here is telling, but the task's words keep landing on pysam's.
    index = RoutingIndex([*wider.cards.values(), GIT_CLEANUP, PYSAM])
    text = "take the reads that overlap the egfr region out of my alignments and count them per sample"
    best = index.rank(text).best
    assert best is not None
    assert best.name == "pysam"


@given(st.text(alphabet="aZ09+#- .,?\n\u00e9\u212a\u0130c", max_size=60))
@settings(max_examples=800, deadline=None)
def test_words_are_what_the_word_rules_find(text):
    """Words are split with string operations; the patterns are what they promise."""
    import re

    from edgar_min.semif import lexical
    from edgar_min.skills.routing.words import WORD_RULE, split_words

    assert split_words(text) == re.findall(WORD_RULE, text.lower())
    found = re.findall("[a-z0-9]+", text.lower())
    assert lexical.tokens(text) == tuple(lexical.stem(w) for w in found if w not in lexical._STOP)


# Real descriptions and When-to-use text (obra/superpowers, MIT; trailofbits/skills, CC-BY-SA-4.0;
# anthropics/skills, Apache-2.0; ComposioHQ/awesome-claude-skills, Apache-2.0; see bench/data/README.md).
WORKFLOW = [
    Card(
        "requesting-code-review",
        "Use when completing tasks, implementing major features, or before merging to verify work "
        "meets requirements",
        "",
        "Dispatch a code reviewer subagent to catch issues before they cascade.",
    ),
    Card(
        "git-cleanup",
        "Safely analyzes and cleans up local git branches and worktrees by categorizing them as merged, "
        "squash-merged, superseded, or active work.",
        "- When the user has accumulated many local branches and worktrees - When branches have been "
        "merged but not cleaned up locally",
    ),
    Card(
        "file-organizer",
        "Intelligently organizes your files and folders across your computer by understanding context, "
        "finding duplicates, suggesting better structures, and automating cleanup tasks. Reduces "
        "cognitive load and keeps your digital workspace tidy without manual effort.",
        "- Your Downloads folder is a chaotic mess - You have duplicate files taking up space",
    ),
    Card(
        "frontend-design",
        "Guidance for distinctive, intentional visual design when building new UI or reshaping an "
        "existing one. Helps with aesthetic direction, typography, and making choices that don't read "
        "as templated defaults.",
    ),
    Card(
        "theme-factory",
        "Toolkit for styling artifacts with a theme. These artifacts can be slides, docs, reportings, "
        "HTML landing pages, etc. There are 10 pre-set themes with colors/fonts that you can apply to "
        "any artifact that has been creating, or can generate a new theme on-the-fly.",
    ),
    Card(
        "verification-before-completion",
        "Use when about to claim work is complete, fixed, or passing, before committing or creating PRs "
        "- requires running verification commands and confirming output before making any success "
        "claims; evidence before assertions always",
    ),
]


@pytest.fixture(scope="module")
def workflow():
    return RoutingIndex([*(Card(name, d, w) for name, (d, w) in SKILLS.items()), *WORKFLOW])


CLIP = "turn this clip of the cat into a looping reaction for the team chat"
CLIP_AGAIN = "make a looping reaction of the dog for the team chat"
THANKS = "nice, the pdf merge worked perfectly, thank you so much"
THANKS_AGAIN = "thanks, the merged pdf works perfectly"


def learned(examples: dict[str, list[str]]) -> RoutingIndex:
    return RoutingIndex((Card(name, d, w) for name, (d, w) in SKILLS.items()), examples)


def test_an_everyday_phrasing_finds_its_skill_once_a_similar_message_is_an_example_of_it(index):
    # Not a word of it is in slack-gif-creator's own text.
    assert not set(words(CLIP_AGAIN)) & set(
        card_terms(Card("slack-gif-creator", *SKILLS["slack-gif-creator"]))
    )
    assert index.rank(CLIP_AGAIN).best is None
    best = learned({"slack-gif-creator": [CLIP]}).rank(CLIP_AGAIN).best
    assert best is not None
    assert best.name == "slack-gif-creator"
    # An example leads to its own skill, whichever that is.
    assert learned({"pdf": [CLIP]}).rank(CLIP_AGAIN).best.name == "pdf"


def test_a_chat_line_taught_as_none_gets_none_and_a_real_task_still_gets_its_skill(index):
    assert index.rank(THANKS_AGAIN).best.name == "pdf"  # a thank-you that names the skill's word
    taught = learned({"none": [THANKS]})
    ranking = taught.rank(THANKS_AGAIN)
    assert ranking.none_evidence > 0
    assert ranking.best is None
    assert "none" not in [h.name for h in ranking.hits]  # the none card is never a hit
    assert taught.rank("merge these three pdfs and rotate page 2").best.name == "pdf"
    assert taught.rank("make a gif for slack of a dancing cat").best.name == "slack-gif-creator"


def test_the_routing_engine_says_none_for_a_message_taught_as_none(index):
    taught = learned({"none": [THANKS]})
    options = (Option("pdf", SKILLS["pdf"][0]), Option("none", "none of these"))

    def decide(engine: RoutingEngine) -> str:
        return engine.call(DecisionRequest(THANKS_AGAIN, "which skill?", options)).selected

    assert decide(RoutingEngine(index)) == "pdf"
    assert decide(RoutingEngine(taught)) == "none"


def test_the_ranking_alone_says_whether_a_message_was_taught_as_needing_no_skill(index):
    taught = learned({"none": [THANKS]})
    ranking = taught.rank(THANKS_AGAIN)
    assert ranking.taught_none
    assert RoutingEngine(taught).taught_none(THANKS_AGAIN)
    assert not index.rank(THANKS_AGAIN).taught_none
    assert not taught.rank("merge these three pdfs and rotate page 2").taught_none


def test_the_none_card_is_no_skill_by_name_either():
    taught = learned({"none": ["none of that, never mind"]})
    assert "none" not in taught.by_name.get("none", [])
    assert "none" not in taught.name_parts
    assert "none" not in [h.name for h in taught.search("none of that, never mind")]


def test_no_none_examples_leave_no_none_card(index):
    assert learned({"none": []}).names == index.names
    assert "none" not in learned({"pdf": [CLIP]}).names


def test_a_card_named_none_is_no_skill_and_does_not_say_none():
    cards = [Card("none", "Merge pdf files into one.", ""), Card("pdf", *SKILLS["pdf"])]
    index = RoutingIndex(cards)
    assert index.names == ["pdf"]
    ranking = index.rank("merge these three pdfs into one file")
    assert ranking.none_evidence == 0
    assert ranking.best.name == "pdf"
    # The messages a person said need none are the only `none` there is.
    assert RoutingIndex(cards, {"none": ["thanks, all good"]}).names == ["pdf", "none"]


def test_the_mark_of_a_redacted_secret_is_no_word_of_a_message_or_an_example():
    from edgar_min.redact import MARK
    from edgar_min.skills.routing import REDACTED, taught_terms

    assert REDACTED == MARK
    cards = [
        Card("redaction", "Redact personal data from documents: names, emails, redacted fields"),
        Card("pdf", "Merge, split and rotate PDF files"),
    ]
    index = RoutingIndex(cards)
    assert [term for term, _ in index.expand(f"deploy {MARK} to the lagoon")] == ["deploy", "lagoon"]
    assert "redact" not in taught_terms([f"merge these pdfs, key {MARK}"])
    assert index.search(f"token {MARK} please") == []


PHOTOS = Card(
    "googlephotos-automation",
    "Automate Google Photos tasks via Rube MCP (Composio): upload media, manage albums, search photos.",
    body="Upload a photo to an album. Check the error the tool returns and retry when the app times out.",
)
DEBUGGING = Card(
    "systematic-debugging",
    "Use when encountering any bug, test failure, or unexpected behavior, before proposing fixes",
    body="Read error messages carefully. Reproduce consistently. The app closes without a stack trace.",
)


def test_a_word_only_the_body_has_counts_for_less_than_a_description_word():
    index = RoutingIndex([PHOTOS, DEBUGGING])
    hits = {h.name: h for h in index.search("upload my album photos")}
    assert hits["googlephotos-automation"].evidence > 0
    assert "systematic-debugging" not in hits
    # "reproduce" only in a body: it scores less than a description's word would.
    body_only = index.search("reproduce")[0]
    described = RoutingIndex([PHOTOS, DEBUGGING, Card("repro", "reproduce it")]).search("reproduce")[0]
    assert body_only.name == "systematic-debugging"
    assert described.name == "repro"


def test_a_body_word_counts_a_quarter_toward_coverage():
    plain = RoutingIndex([Card("a", "reproduce the crash"), Card("b", "other words", body="reproduce crash")])
    hits = {h.name: h for h in plain.search("reproduce crash")}
    assert hits["a"].coverage == pytest.approx(1.0)
    assert hits["b"].coverage == pytest.approx(0.25)
    assert hits["a"].evidence > hits["b"].evidence


def test_only_a_word_as_typed_reaches_a_word_only_a_body_has():
    # A correction or an alias is a guess; a body's word is weak evidence: the two together are noise.
    index = RoutingIndex([Card("talks", "Rehearse a talk with a timer", body="Open the presentation first.")])
    assert [h.name for h in index.search("the presentation")] == ["talks"]
    assert index.search("the slides") == []  # "slides" is an alias of "presentation"
    assert index.search("the presentaton") == []  # a typo is corrected to a field's word only


STUFFED = Card(
    "team-notes",
    f"Format the team's weekly notes. Use for: {' '.join(KEYWORDS)}"[:1024],
    f"Use for any task about {' '.join(KEYWORDS)}"[:1000],
)


BUMP = Card("bump-httpx-pin", "Move the httpx pin in pyproject.toml to a new release and run the tests.")
TAUGHT = "update the dependency version in the lock"


def test_a_taught_message_teaches_its_words_and_the_hit_says_use_taught_it_for_those_words():
    cards = [BUMP, Card("pdf", "Merge, split and rotate PDF files"), CHANGELOG]
    assert RoutingIndex(cards).rank(TAUGHT).best is None
    taught = RoutingIndex(cards, {"bump-httpx-pin": [TAUGHT]})
    for text in (TAUGHT, "lock file: old dependency version, update it"):
        best = taught.rank(text).best
        assert best is not None
        assert best.name == "bump-httpx-pin"  # none of these words is the skill's own
    # The hit says use taught it only for the taught message's own words, in any order.
    assert taught.rank(TAUGHT).hits[0].taught
    assert not taught.rank("lock file: old dependency version, update it").hits[0].taught
    own = taught.rank("bump the httpx pin in pyproject").best
    assert own is not None
    assert own.name == "bump-httpx-pin"
    assert not own.taught


def test_one_ordinary_shared_word_gives_no_confidence_and_two_reach_the_threshold():
    index = RoutingIndex([Card(f"skill-{i}", f"word{i} other{i} thing{i} more{i}") for i in range(9)])
    assert index.unit > 0
    assert index.confidence(index.unit) == 0.0
    assert index.confidence(2 * index.unit) == pytest.approx(THRESHOLD)
    assert index.confidence(3 * index.unit) > index.confidence(2 * index.unit)


def test_the_cached_index_ranks_as_the_built_one_with_what_use_taught():
    cards = [
        BUMP,
        Card("pdf", "Merge, split and rotate PDF files", body="pages outline bookmarks"),
        CHANGELOG,
    ]
    built = RoutingIndex(cards, {"bump-httpx-pin": [TAUGHT], "none": ["thanks, all good"]})
    document = json.loads(json.dumps(built.cached()))
    cached = RoutingIndex.from_cached(document, built.postings_text())
    assert cached is not None
    for text in (TAUGHT, "pdf bookmarks", "thanks, all good", "write the release notes"):
        assert built.rank(text) == cached.rank(text)


def test_a_skill_past_the_fence_of_the_projects_own_breadth_has_each_match_count_less():
    plain = [Card(f"skill-{i}", " ".join(f"w{i}x{j}" for j in range(10))) for i in range(8)]
    broad = Card("everything", " ".join(f"word{j}" for j in range(200)) + " deploy")
    narrow = Card("deploy", "deploy")
    index = RoutingIndex([*plain, broad, narrow])
    assert set(index.reach) == {"everything"}
    assert 0 < index.reach["everything"] < 0.2
    assert index.search("deploy")[0].name == "deploy"


def test_words_taught_for_two_skills_say_neither_was_taught():
    cards = [BUMP, Card("pdf", "Merge, split and rotate PDF files"), CHANGELOG]
    both = RoutingIndex(
        cards, {"bump-httpx-pin": [TAUGHT], "pdf": ["in the lock, update the dependency version"]}
    )
    assert not any(hit.taught for hit in both.rank(TAUGHT).hits)
    one = RoutingIndex(cards, {"bump-httpx-pin": [TAUGHT]})
    assert [hit.name for hit in one.rank(TAUGHT).hits if hit.taught] == ["bump-httpx-pin"]
