"""The budgeted skill listing: most useful first, shortened then omitted, never a silent drop."""

from __future__ import annotations

import pytest
from skillfiles import write_skill

from edgar_min.errors import BadInput
from edgar_min.layout import Layout
from edgar_min.skills.listing import DescriptionCache, build_index

LONG = "Bump a dependency pin, refresh the lock file and run the whole test suite until it passes again."


def _project(tmp_path, count=6, description=LONG):
    skills = tmp_path / ".edgar" / "skills"
    names = [f"skill-{i:02d}" for i in range(count)]
    for name in names:
        write_skill(skills, name, f"{description} ({name})")
    return Layout(tmp_path, tmp_path / "home"), names


def test_everything_fits_and_the_last_line_says_so(tmp_path):
    layout, names = _project(tmp_path, 3)
    index = build_index(layout, 10_000)
    lines = index.text.splitlines()
    assert lines[:3] == [f"- {n}: {LONG} ({n})" for n in names]
    assert lines[-1] == "(all 3 skills listed in full)"
    assert index.shortened == ()
    assert index.omitted == ()


def test_order_puts_the_most_useful_first_and_the_rest_alphabetically(tmp_path):
    layout, _ = _project(tmp_path, 4)
    index = build_index(layout, 10_000, ["skill-02", "not-there", "skill-03"])
    assert [e.name for e in index.entries] == ["skill-02", "skill-03", "skill-00", "skill-01"]


def test_descriptions_are_shortened_before_any_skill_is_omitted(tmp_path):
    layout, names = _project(tmp_path, 6)
    full = len(build_index(layout, 100_000).text)
    index = build_index(layout, full - 200)
    assert index.omitted == ()
    assert set(index.shortened) == set(names)
    assert all(e.description.endswith("…") for e in index.entries)
    assert len(index.text) <= full - 200
    assert index.text.splitlines()[-1].startswith("(shortened: skill-00, skill-01")


def test_then_the_least_useful_skills_are_omitted_and_named(tmp_path):
    layout, _ = _project(tmp_path, 6)
    order = ["skill-05", "skill-04"]
    index = build_index(layout, 200, order)
    kept = [e.name for e in index.entries]
    assert kept == ["skill-05", "skill-04", "skill-00", "skill-01", "skill-02", "skill-03"][: len(kept)]
    assert index.omitted
    assert (
        list(index.omitted)
        == ["skill-05", "skill-04", "skill-00", "skill-01", "skill-02", "skill-03"][len(kept) :]
    )
    last = index.text.splitlines()[-1]
    assert "omitted" in last
    assert len(index.text) <= 200


@pytest.mark.parametrize("budget", [70, 90, 120, 160, 250, 400, 700, 1000, 2000])
def test_every_budget_is_kept_and_nothing_is_dropped_silently(tmp_path, budget):
    layout, names = _project(tmp_path, 12)
    index = build_index(layout, budget)
    assert len(index.text) <= budget
    assert sorted([e.name for e in index.entries] + list(index.omitted)) == names
    assert set(index.shortened) <= {e.name for e in index.entries}
    last = index.text.splitlines()[-1]
    assert last.startswith("(")
    if index.omitted:
        assert "omitted" in last
    if index.shortened:
        assert "shortened" in last


def test_a_budget_smaller_than_one_line_is_a_clear_error(tmp_path, edgar):
    layout, _ = _project(tmp_path, 3)
    with pytest.raises(BadInput) as err:
        build_index(layout, 20)
    assert "smaller than one line" in err.value.message
    result = edgar("--root", str(tmp_path), "skills", "index", "--budget-chars", "10")
    assert result.code == 2
    assert "a budget of 10 characters is smaller than one line" in result.err


def test_no_skills_says_so(tmp_path, edgar):
    result = edgar("--root", str(tmp_path), "skills", "index")
    assert result.code == 0
    assert result.out == "(no skills found)\n"


def test_the_cli_prints_the_listing_and_json_gives_the_lists(tmp_path, edgar):
    _project(tmp_path, 6)
    result = edgar("--root", str(tmp_path), "skills", "index", "--budget-chars", "300", "--order", "skill-03")
    assert result.code == 0, result
    assert result.out.startswith("- skill-03: ")
    assert len(result.out.rstrip("\n")) <= 300
    doc = edgar("--root", str(tmp_path), "--json", "skills", "index", "--budget-chars", "300").json()
    assert set(doc) >= {"entries", "shortened", "omitted", "text", "budget_chars"}
    assert doc["entries"][0]["name"] == "skill-00"
    assert {"name", "description", "shortened", "warning"} == set(doc["entries"][0])
    assert len(doc["entries"]) + len(doc["omitted"]) == 6


def test_an_unreadable_skill_is_listed_without_a_description(tmp_path):
    folder = tmp_path / ".edgar" / "skills" / "broken"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("no frontmatter here\n")
    index = build_index(Layout(tmp_path, tmp_path / "home"), 1000)
    assert index.text.splitlines()[0] == "- broken: (no description)"


def test_the_cache_rereads_a_changed_file(tmp_path):
    layout, _ = _project(tmp_path, 1, "First.")
    cache = DescriptionCache()
    assert "First." in build_index(layout, 1000, cache=cache).text
    write_skill(tmp_path / ".edgar" / "skills", "skill-00", "Second, and longer.")
    assert "Second, and longer." in build_index(layout, 1000, cache=cache).text


def test_the_cli_index_puts_the_skill_that_helps_first(edgar, tmp_path):
    from edgar_min.layout import Layout
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.turn import parse_turn

    for name in ("aardvark-tips", "zebra-helper"):
        path = tmp_path / ".edgar" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: Does {name} things.\n---\n\nProse.\n")
    store = ExperienceStore(Layout(tmp_path, tmp_path / "home").experience, host="h")
    base = {"prompt": "x", "tools": ["shell"]}
    for i in range(30):
        store.record(parse_turn({**base, "verification": "passed", "skills": ["zebra-helper"]}), f"a{i}")
        store.record(parse_turn({**base, "verification": "failed"}), f"b{i}")
    listed = edgar("--root", str(tmp_path), "--json", "skills", "index").json()
    assert [e["name"] for e in listed["entries"]] == ["zebra-helper", "aardvark-tips"]
    # An explicit order still wins.
    listed = edgar("--root", str(tmp_path), "--json", "skills", "index", "--order", "aardvark-tips").json()
    assert listed["entries"][0]["name"] == "aardvark-tips"


@pytest.mark.parametrize("budget", [160, 250, 400, 1000, 10_000])
def test_a_skill_with_a_problem_is_counted_in_the_last_line_at_every_budget(tmp_path, budget):
    layout, names = _project(tmp_path, 8)
    broken = tmp_path / ".edgar" / "skills" / "skill-03" / "SKILL.md"
    broken.write_text("---\nname: skill-03\ndescription: Still listed.\nlicense: [a, &b c]\n---\n")
    index = build_index(layout, budget)
    assert len(index.text) <= budget
    last = index.text.splitlines()[-1]
    assert "1 with a frontmatter problem" in last
    assert "in full" not in last
    assert dict(index.warnings)["skill-03"].endswith(
        "SKILL.md:4: anchors/aliases/tags are outside the supported subset"
    )
    assert sorted([e.name for e in index.entries] + list(index.omitted)) == names
    shown = {e.name: e for e in index.entries}
    if "skill-03" in shown:
        assert shown["skill-03"].description.startswith("Still")
        assert shown["skill-03"].warning
