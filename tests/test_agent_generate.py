"""`edgar skills generate`: the contract goes to the model; the reply goes through acceptance and the gate.

The model here is a small program run by the real `command` provider: it
records the prompt it was given and answers with a prepared reply.
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import state_of, tree_snapshot
from transcripts import trust_config

from edgar_min.agent.generate import CONTRACT

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "tree"

BODY = textwrap.dedent(
    """\
    from pathlib import Path

    from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction


    def predict(ctx, request):
        decision = DecisionRequest(
            state=request.text,
            question="Is this a question for a person?",
            options=[Option("yes", "It asks someone something."), Option("no", "It does not.")],
        )
        result = ctx.engine.call(decision)
        return Prediction(text=result.selected, decisions=[(decision, result)])


    def act(ctx, request, prediction):
        folder = Path(ctx.config["drafts"])
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{request.id}.reply.txt"
        target.write_text(f"Re: {request.text}\\n")
        return ActionResult(action_log=f"email.reply: wrote {target}.", new_state="Reply drafted.")
    """
)


def setup(tmp_path: Path, reply: str, mode: str = "propose") -> Path:
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "reply.txt").write_text(reply)
    model = tmp_path / "model.py"
    model.write_text(
        "import sys, pathlib\n"
        f"pathlib.Path({str(tmp_path / 'prompt.txt')!r}).write_text(sys.stdin.read())\n"
        f"print(pathlib.Path({str(tmp_path / 'reply.txt')!r}).read_text())\n"
    )
    config = tmp_path / ".edgar" / "config.toml"
    config.write_text(
        config.read_text()
        + f'\n[model]\nprovider = "command"\ncommand = {json.dumps([sys.executable, str(model)])}\n'
        + f'\n[skills]\nsynthesis = "{mode}"\n'
    )
    trust_config(tmp_path)
    return tmp_path


def generate(edgar, root, name="email.reply", description="Draft a reply to the last email from a contact."):
    return edgar("--root", str(root), "--json", "skills", "generate", name, "--description", description)


def test_offline_provider_says_a_model_is_needed(edgar, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    before = tree_snapshot(tmp_path)
    r = generate(edgar, tmp_path)
    assert r.code == 1
    assert "generating a code skill needs a model" in r.err
    assert tree_snapshot(tmp_path) == before


def test_propose_writes_a_proposal_with_its_manifest_and_the_prompt_carries_the_contract(edgar, tmp_path):
    root = setup(tmp_path, f"Here it is:\n```python\n{BODY}```\n")
    registry_before = (root / "data/categories.json").read_text()
    r = generate(edgar, root)
    assert r.code == 0, r
    assert r.json()["outcome"] == "proposed"
    assert (root / ".edgar/code-proposals/email.reply.py").read_text() == BODY
    entry = json.loads((root / ".edgar/code-proposals/email.reply.json").read_text())
    assert entry == {
        "name": "email.reply",
        "category": "email",
        "description": "Draft a reply to the last email from a contact.",
    }
    assert (root / "data/categories.json").read_text() == registry_before
    assert not (root / "data/skills/email/reply.py").exists()
    prompt = (root / "prompt.txt").read_text()
    assert prompt.startswith(CONTRACT)
    assert "- email.compose: Compose an email draft to one contact" in prompt
    # skills validate checks the proposal as well.
    assert edgar("--root", str(root), "skills", "validate").code == 0


def test_auto_writes_body_and_manifest_entry_and_the_skill_runs(edgar, tmp_path):
    root = setup(tmp_path, f"```python\n{BODY}```", mode="auto")
    r = generate(edgar, root)
    assert r.code == 0, r
    assert r.json()["outcome"] == "written"
    assert (root / "data/skills/email/reply.py").read_text() == BODY
    registry = json.loads((root / "data/categories.json").read_text())
    names = [s["name"] for s in registry["categories"][0]["skills"]]
    assert names == ["email.compose", "email.reply"]
    assert edgar("--root", str(root), "tree").out.count("email.reply") == 1


def test_a_hostile_reply_is_refused_nothing_is_written_and_the_rejection_is_logged(edgar, tmp_path):
    hostile = BODY.replace("from pathlib import Path", "from pathlib import Path\nimport ctypes")
    root = setup(tmp_path, f"```python\n{hostile}```", mode="auto")
    before = {k: v for k, v in tree_snapshot(root).items() if k != "prompt.txt"}
    r = generate(edgar, root)
    assert r.code == 1
    assert "fails acceptance" in r.err
    assert "reply.py:2: imports 'ctypes'" in r.err
    # The refused reply is kept for a person (in their state folder), and the rejection logged;
    # nothing else is written.
    assert list((state_of(root) / "rejected").glob("*.json")) != []
    after = {
        k: v for k, v in tree_snapshot(root).items() if k not in {"prompt.txt", ".edgar/rejections.jsonl"}
    }
    assert after == before
    (row,) = [json.loads(x) for x in (root / ".edgar/rejections.jsonl").read_text().splitlines()]
    assert (row["trigger"], row["skill"]) == ("generate", "email.reply")


@pytest.mark.parametrize(
    ("hostile", "sentence"),
    [
        ("import os\nos.sys.modules.clear()", "reaches for 'sys'"),
        ("import pickle\npickle.loads(b'.')", "imports 'pickle'"),
        (
            "import concurrent.futures\nconcurrent.futures.ThreadPoolExecutor(1)",
            "imports 'concurrent.futures'",
        ),
        ("X = getattr(Path, 'wr' + 'ite_text')", "getattr with a name that is not a constant string"),
        ("X = Path.__dict__", "reaches for '__dict__'"),
    ],
)
def test_in_auto_a_model_reply_that_would_reach_past_the_wall_is_not_installed(
    edgar, tmp_path, hostile, sentence
):
    body = BODY.replace("from pathlib import Path\n", f"from pathlib import Path\n{hostile}\n", 1)
    root = setup(tmp_path, f"```python\n{body}```", mode="auto")
    before = {k: v for k, v in tree_snapshot(root).items() if k != "prompt.txt"}
    r = generate(edgar, root)
    assert r.code == 1, r
    assert "fails acceptance" in r.err
    assert sentence in r.err
    # Only the logged rejection is new in the tree; the reply is kept for a person
    # (`skills rejections`) in their state folder.
    assert list((state_of(root) / "rejected").glob("*.json")) != []
    after = {
        k: v for k, v in tree_snapshot(root).items() if k not in {"prompt.txt", ".edgar/rejections.jsonl"}
    }
    assert after == before


def test_a_near_duplicate_of_an_existing_leaf_is_refused(edgar, tmp_path):
    root = setup(tmp_path, f"```python\n{BODY}```")
    r = generate(edgar, root, "email.write", "Compose an email draft to one contact and save it as a draft.")
    assert r.code == 1
    assert "duplicates the leaf 'email.compose'" in r.err


def test_bad_names_and_unknown_categories(edgar, tmp_path):
    root = setup(tmp_path, "unused")
    r = generate(edgar, root, "Email Reply")
    assert (r.code, "must be category.skill" in r.err) == (2, True)
    r = generate(edgar, root, "billing.pay")
    assert (r.code, "category 'billing' is not in the skill tree" in r.err) == (1, True)
    r = generate(edgar, root, "email.compose")
    assert (r.code, "already a leaf" in r.err) == (1, True)
    assert not (root / ".edgar/code-proposals").exists()


def test_a_key_in_the_description_reaches_neither_the_model_nor_edgars_files(edgar, tmp_path):
    key = "sk-ant-api03-" + "Q" * 40
    root = setup(tmp_path, f"```python\n{BODY}```\n")
    r = generate(edgar, root, description=f"Draft a reply; use ANTHROPIC_API_KEY={key} to send it.")
    assert r.code == 0, r
    prompt = (root / "prompt.txt").read_text()
    assert "Draft a reply; use ANTHROPIC_API_KEY=[REDACTED] to send it." in prompt
    assert key not in prompt
    entry = json.loads((root / ".edgar/code-proposals/email.reply.json").read_text())
    assert "[REDACTED]" in entry["description"]
    assert not [p for p, data in tree_snapshot(root / ".edgar").items() if key.encode() in data]


@pytest.mark.parametrize(("mode", "place", "path"), [
    ("propose", "proposal", ".edgar/code-proposals/email.reply.py"),
    ("auto", "tree", "data/skills/email/reply.py"),
])  # fmt: skip
def test_every_body_written_has_a_ledger_row_with_its_text_kept(edgar, tmp_path, mode, place, path):
    root = setup(tmp_path, f"```python\n{BODY}```", mode=mode)
    assert generate(edgar, root).code == 0
    log = edgar("--root", str(root), "--json", "skills", "log", "email.reply")
    assert log.code == 0, log
    (row,) = log.json()["rows"]
    assert (row["actor"], row["action"], row["place"], row["trigger"]) == ("gate", "write", place, "generate")
    assert row["before"] is None
    assert (root / ".edgar" / "versions" / row["after"]).read_text() == (root / path).read_text()


def test_a_refused_body_has_no_ledger_row(edgar, tmp_path):
    hostile = BODY.replace("from pathlib import Path", "from pathlib import Path\nimport ctypes")
    root = setup(tmp_path, f"```python\n{hostile}```", mode="auto")
    assert generate(edgar, root).code == 1
    assert not (root / ".edgar" / "ledger.jsonl").exists()
