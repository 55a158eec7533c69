"""A code skill asks several sub-decisions over one state (`ctx.engine.call_many`), charged per question."""

from __future__ import annotations

import shutil
import textwrap

from test_agent_loop import EXAMPLE, decision_rows, make_tree, run_tree

from edgar_min.agent.loop import run_request
from edgar_min.config import load_config
from edgar_min.layout import Layout
from edgar_min.semif.lexical import LexicalEngine

ACT = (
    "def act(ctx, request, prediction):\n"
    "    return ActionResult(action_log=prediction.text, new_state='done')\n"
)


def predict_asking(count: int) -> str:
    return textwrap.dedent(
        f"""\
        def predict(ctx, request):
            asked = [
                DecisionRequest(
                    state=request.text, question=f"Part {{i}}?", options=[Option("widget"), Option("none")]
                )
                for i in range({count})
            ]
            results = ctx.engine.call_many(asked)
            return Prediction(
                text=" ".join(r.selected for r in results), decisions=list(zip(asked, results))
            )
        """
    )


def test_call_many_answers_each_question_logs_each_and_charges_each(edgar, tmp_path):
    make_tree(tmp_path, ACT, budget=5, predict=predict_asking(3))
    r, doc = run_tree(edgar, tmp_path)
    assert r.code == 0, r
    assert doc["action_log"] == "widget widget widget"
    assert doc["engine_calls"] == 5  # two navigation steps, three questions; assess is not charged
    rows = decision_rows(tmp_path)
    assert [row["phase"] for row in rows] == [
        "navigate:category",
        "navigate:leaf",
        *["predict"] * 3,
        "assess",
    ]
    assert [row["question"] for row in rows[2:5]] == ["Part 0?", "Part 1?", "Part 2?"]
    assert {row["run_id"] for row in rows} == {doc["run_id"]}


def test_a_batch_past_the_budget_fails_fast(edgar, tmp_path):
    make_tree(tmp_path, ACT, budget=4, predict=predict_asking(3))
    r, doc = run_tree(edgar, tmp_path)
    assert r.code == 1
    assert "tool.run: blown budget: cost budget of 4 engine call(s)" in doc["action_log"]
    assert doc["new_state"] == "run the tool on the widget"
    phases = [row["phase"] for row in decision_rows(tmp_path)]
    assert phases[:2] == ["navigate:category", "navigate:leaf"]
    assert len(phases) <= 4


def test_the_example_calendar_skill_asks_day_and_time_together(edgar, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    r, doc = run_tree(edgar, tmp_path, "schedule a meeting on friday afternoon")
    assert r.code == 0, r
    assert doc["skill"] == "calendar.schedule"
    invite = (tmp_path / "data" / "drafts" / "calendar" / f"{doc['run_id']}.eml").read_text()
    assert "X-WEEKDAY:FRIDAY" in invite
    assert "X-PART-OF-DAY:AFTERNOON" in invite
    predict = [row for row in decision_rows(tmp_path) if row["phase"] == "predict"]
    assert [row["selected"] for row in predict] == ["friday", "afternoon"]
    assert {row["state"] for row in predict} == {"schedule a meeting on friday afternoon"}


class Recording:
    """The lexical engine, noting each request the run loop makes of it."""

    def __init__(self) -> None:
        self.engine = LexicalEngine()
        self.name = self.engine.name
        self.model = self.engine.model
        self.asked: list[tuple[str, int]] = []
        self.states: list[str] = []

    def call(self, decision):
        self.asked.append(("call", 1))
        return self.engine.call(decision)

    def call_many(self, decisions):
        self.asked.append(("call_many", len(decisions)))
        self.states += [d.state for d in decisions]
        return self.engine.call_many(decisions)


def run_recorded(tmp_path, text="run the tool on the widget"):
    layout = Layout(tmp_path, tmp_path / "home")
    engine = Recording()
    return run_request(layout, load_config(layout), text, engine=engine), engine


def test_a_body_batch_reaches_the_engine_as_one_request(tmp_path):
    make_tree(tmp_path, ACT, budget=5, predict=predict_asking(3))
    outcome, engine = run_recorded(tmp_path)
    assert outcome.result.action_log == "widget widget widget"
    # navigation, navigation, the body's three questions at once, then the loop's assessment
    assert engine.asked == [("call", 1), ("call", 1), ("call_many", 3), ("call", 1)]
    rows = [row for row in decision_rows(tmp_path) if row["phase"] == "predict"]
    assert len(rows) == 3
    assert {row["run_id"] for row in rows} == {outcome.request.id}


def test_an_over_budget_batch_asks_the_engine_nothing(tmp_path):
    make_tree(tmp_path, ACT, budget=4, predict=predict_asking(3))
    outcome, engine = run_recorded(tmp_path)
    assert not outcome.acted
    assert "blown budget" in outcome.result.action_log
    assert engine.asked == [("call", 1), ("call", 1)]  # navigation only
    assert [row["phase"] for row in decision_rows(tmp_path)] == ["navigate:category", "navigate:leaf"]


def test_a_batch_is_redacted_before_the_engine_sees_it(tmp_path):
    make_tree(tmp_path, ACT, budget=5, predict=predict_asking(2))
    outcome, engine = run_recorded(tmp_path, "run the tool on the widget password=hunter2secret")
    assert "hunter2secret" in outcome.request.text  # the body sees it; the engine must not
    assert engine.states
    assert all("hunter2secret" not in s for s in engine.states)
    assert all("hunter2secret" not in row["state"] for row in decision_rows(tmp_path))


def test_a_malformed_batch_is_a_sentence_the_body_gets(edgar, tmp_path):
    predict = textwrap.dedent(
        """\
        def predict(ctx, request):
            try:
                ctx.engine.call_many(["not a decision"])
            except TypeError as exc:
                return Prediction(text=str(exc), decisions=[])
            return Prediction(text="accepted", decisions=[])
        """
    )
    make_tree(tmp_path, ACT, budget=5, predict=predict)
    r, doc = run_tree(edgar, tmp_path)
    assert r.code == 0, r
    assert doc["action_log"] == "ctx.engine.call_many takes a list of DecisionRequests"
