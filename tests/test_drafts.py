"""Reading model replies: the brief's text shape, JSON objects, and the ways hosted models dress them up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from skillfiles import BODY, NESTED_FENCE_BODY

from edgar_min.errors import Refused
from edgar_min.layout import Layout
from edgar_min.learning.drafts import (
    BRIEF,
    BRIEF_JSON,
    MAX_REPLY_CHARS,
    PATCH_BRIEF,
    SECTION_FIELDS,
    parse_patch,
    parse_reply,
    patch_schema,
    render_sections,
    skill_schema,
)
from edgar_min.learning.walls import NAME_WORDS, Source, content_problems
from edgar_min.learning.writer import MAX_BODY_CHARS, Draft, Provenance, write_learned
from edgar_min.skills.names import NAME_MAX, name_problem
from edgar_min.skills.sections import BODY_SECTIONS, shape_problems
from edgar_min.skills.validation import DESCRIPTION_MAX, validate_file

REPLIES = Path(__file__).parent / "fixtures" / "replies"
PROMPT = json.loads((REPLIES / "prompts.json").read_text())["default"]
ACCEPTED = sorted((REPLIES / "accepted").glob("*.txt"))
REFUSED = sorted((REPLIES / "refused").glob("*.txt"))

# The sentence each wall-breaking reply must be refused with.
REFUSED_WITH = {
    "absolute-path": "names an absolute or home path ('/home/alice/src/shop')",
    "copied-version": "copies a value from the request ('0.27.2')",
    "filler-name": "starts with 'please'",
    "hex-id": "long hex or base64 id",
    "loop": "over and over",
    "prompt-file": "names a file or path the turn named ('retry.py', 'src/payments/retry.py')",
    "repeated-line": "repeats a line or sentence 3 or more times",
    "restates-request": "section(s) that only restate the request: When to use",
    "task-name": "does not say the job",
    "thin-section": "section(s) with almost no text: Pitfalls",
    "url": "names a URL ('https://docs.example.com/...')",
}


def write(tmp_path, draft, source=None):
    layout = Layout(tmp_path / "proj", tmp_path / "home")
    source = Source(prompt=PROMPT) if source is None else source
    return write_learned(layout, draft, Provenance("s-1", ("long",)), source=source)


def test_every_refused_reply_has_its_sentence():
    assert sorted(p.stem for p in REFUSED) == sorted(REFUSED_WITH)


@pytest.mark.parametrize("path", ACCEPTED, ids=lambda p: p.stem)
@pytest.mark.parametrize("ending", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_replies_in_hosted_model_styles_are_read_and_written(tmp_path, path, ending):
    reply = path.read_text().replace("\n", ending)
    draft = parse_reply(reply)
    assert name_problem(draft.name) is None
    assert draft.description
    assert "\r" not in draft.body
    assert shape_problems(draft.body) == []
    # Only the skill: no preamble, fence, title or sign-off survives into the body.
    assert draft.body.startswith("## When to use\n")
    for outside in ("Sure!", "Here is", "```markdown", "# Skill", "Let me know", "Notes:", "I hope"):
        assert outside not in draft.body
    path = write(tmp_path, draft)
    assert validate_file(path) == []


def test_a_fence_inside_a_section_is_kept_whole():
    draft = parse_reply((REPLIES / "accepted" / "markdown-fence.txt").read_text())
    assert "```bash\nmytool export --dry-run\n```" in draft.body
    assert draft.body.rstrip().endswith("see nothing change.")


def test_a_longer_fence_is_read_whole_and_the_writer_takes_the_body(tmp_path):
    reply = f"name: readme-check-commands\ndescription: Show each check in the README.\n\n{NESTED_FENCE_BODY}"
    draft = parse_reply(reply)
    assert draft.body == NESTED_FENCE_BODY  # `**Verification**` inside the fence is not made a heading
    path = write(tmp_path, draft, Source(prompt="document how to run the checks"))
    assert Path(path).read_text(encoding="utf-8").endswith(NESTED_FENCE_BODY)


def test_json_sections_given_as_lists_become_steps_and_bullets():
    draft = parse_reply((REPLIES / "accepted" / "json-fenced.txt").read_text())
    assert "1. Wrap the one failing call" in draft.body
    assert "3. Add a test that fakes one failure" in draft.body
    assert "- Never retry a call that is not safe to repeat." in draft.body


@pytest.mark.parametrize("path", REFUSED, ids=lambda p: p.stem)
def test_replies_that_break_a_wall_are_refused_with_its_sentence(tmp_path, path):
    draft = parse_reply(path.read_text())
    assert shape_problems(draft.body) == [], "a wall reply must reach the content walls"
    with pytest.raises(Refused) as refused:
        write(tmp_path, draft)
    assert REFUSED_WITH[path.stem] in refused.value.message
    assert not (tmp_path / "proj" / ".edgar" / "proposals").exists()


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ("", "no 'name:' line"),
        ("Sure! Here is a skill.\n\n## When to use\nx\n", "no 'name:' line"),
        ("name: x\n\n## When to use\n", "no 'description:' line"),
        ("name: x\ndescription:\n", "no 'description:' line"),
        ('{"description": "d", "procedure": "p"}', "no 'name:' line"),
        ("x" * (MAX_REPLY_CHARS + 1), "the cap is"),
    ],
)
def test_replies_without_a_name_or_description_are_refused(reply, words):
    with pytest.raises(Refused, match=words):
        parse_reply(reply)


def test_a_json_example_inside_a_text_reply_stays_in_its_section():
    reply = f"name: pin-bump\ndescription: Bump a pin.\n\n{BODY}".replace(
        "3. Run the tests.", '3. Run the tests.\n\n```json\n{"name": "not-the-skill"}\n```'
    )
    draft = parse_reply(reply)
    assert draft.name == "pin-bump"
    assert '{"name": "not-the-skill"}' in draft.body


def test_a_json_object_missing_a_section_is_a_shape_refusal_in_the_writer(tmp_path):
    obj = {"name": "pin-bump", "description": "Bump a pin.", "when_to_use": "When a pin must move along."}
    draft = parse_reply(json.dumps(obj))
    with pytest.raises(Refused, match="missing section"):
        write(tmp_path, draft)


def test_render_drops_a_fields_own_heading_and_nests_others():
    body = render_sections(
        {
            "When to use": "## When to use\nWhen a pin must move along.",
            "Procedure": "# Steps\n1. Change the pin.\n```sh\n# a comment, not a heading\n```",
            "Pitfalls": "- The tests fail at first.",
            "Verification": "Run the declared check.",
        }
    )
    assert body.count("## When to use") == 1
    assert "### Steps" in body
    assert "# a comment, not a heading" in body
    assert shape_problems(body) == []


def test_parse_patch_keeps_the_name_and_the_current_description_when_none_is_given():
    description, body = parse_patch("pin-bump", f"name: other-name\n\n{BODY}", "The current one.")
    assert description == "The current one."
    assert body.startswith("## When to use")
    obj = {SECTION_FIELDS[t]: f"Text for {t} here." for t in BODY_SECTIONS}
    description, body = parse_patch("pin-bump", json.dumps({"description": "New one.", **obj}), "old")
    assert description == "New one."
    assert shape_problems(body) == []


def test_the_schema_is_built_from_the_writers_limits_and_fits_the_token_budget():
    for max_tokens in (256, 1024, 4096, 100_000):
        schema = skill_schema(max_tokens).schema
        props = schema["properties"]
        assert schema["required"] == ["name", "description", *SECTION_FIELDS.values()]
        assert schema["additionalProperties"] is False
        assert props["description"]["maxLength"] <= DESCRIPTION_MAX
        sections = sum(props[f]["maxLength"] for f in SECTION_FIELDS.values())
        assert sections <= MAX_BODY_CHARS
        if max_tokens >= 1024:
            # At one character per token the whole object ends before max_tokens.
            assert NAME_MAX + props["description"]["maxLength"] + sections < max_tokens
    assert skill_schema(100_000).schema["properties"]["description"]["maxLength"] == DESCRIPTION_MAX
    assert "name" not in patch_schema(1024).schema["properties"]


def test_the_name_pattern_takes_exactly_the_names_the_name_rules_take():
    import re

    pattern = re.compile(skill_schema(1024).schema["properties"]["name"]["pattern"])
    for name in ["pin-bump", "x" * 12 + "-" + "y" * 12, "oauth2-token-refresh-expiry"]:
        assert pattern.fullmatch(name)
        assert name_problem(name) is None
        assert content_problems(Draft(name, "Bump a pin.", BODY), Source()) == []
    for name in [
        "a",
        "pin-bump-on-every-release",
        "-pin",
        "pin-",
        "pin--bump",
        "Pin",
        "pin_bump",
        "x" * 13 + "-a",
    ]:
        assert not pattern.fullmatch(name)
    longest = "-".join(["a" * 12] * NAME_WORDS[1])
    assert pattern.fullmatch(longest)
    assert len(longest) <= NAME_MAX


def test_the_briefs_state_the_walls_rules():
    for brief in (BRIEF, BRIEF_JSON):
        assert "not today's file names, paths or values" in brief
        assert "no URLs" in brief
        assert "not 'task-1'" in brief
    assert "not one day's file names" in PATCH_BRIEF
