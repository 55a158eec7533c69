"""A code skill asks several sub-decisions over one state (`ctx.engine.call_many`), charged per question."""

from __future__ import annotations

import shutil
import textwrap

from test_agent_loop import EXAMPLE, decision_rows, make_tree, run_tree

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
