"""The routing catalogue and its cache: used only while every skill file is as it was."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from suggestfiles import write_skills

from edgar_min.errors import BadInput
from edgar_min.layout import Layout
from edgar_min.skills import catalog as catalog_module
from edgar_min.skills.catalog import load_catalog
from edgar_min.skills.discovery import Skill


@pytest.fixture
def layout(tmp_path):
    paths = write_skills(tmp_path / ".claude" / "skills")
    past = time.time() - 60  # settled files: the cache may trust them
    for path in paths.values():
        os.utime(path, (past, past))
    (tmp_path / ".edgar").mkdir()
    return Layout(tmp_path, tmp_path / "home")


def test_a_second_load_reads_no_skill_file(layout, monkeypatch):
    first = load_catalog(layout)
    assert Path(layout.routing_cache).is_file()

    def refuse(_self):
        raise AssertionError("a cached catalogue parsed a SKILL.md")

    monkeypatch.setattr(Skill, "frontmatter", refuse)
    second = load_catalog(layout)
    assert second.entries == first.entries
    assert second.index.search("merge pdfs")[0].name == "pdf"


def test_a_changed_skill_is_read_again(layout):
    load_catalog(layout)
    path = Path(layout.root) / ".claude" / "skills" / "pdf" / "SKILL.md"
    path.write_text("---\nname: pdf\ndescription: Tune the espresso grinder.\n---\n\nBody.\n")
    assert load_catalog(layout).entries["pdf"].card.description == "Tune the espresso grinder."


def test_a_garbage_or_foreign_cache_is_ignored_and_rebuilt(layout):
    load_catalog(layout)
    for junk in (b"\x00\xff garbage", b'{"format": "another 9"}', b"[]"):
        Path(layout.routing_cache).write_bytes(junk)
        assert load_catalog(layout).index.search("merge pdfs")[0].name == "pdf"


def test_a_project_moved_whole_names_its_skills_where_they_are_now(layout, tmp_path):
    # A rename keeps every file's inode, size and mtime: the folders are part of the key.
    load_catalog(layout)
    moved = tmp_path.parent / (tmp_path.name + "-moved")
    os.rename(tmp_path, moved)
    entry = load_catalog(Layout(moved, moved / "home")).entries["pdf"]
    assert entry.path == str(moved / ".claude" / "skills" / "pdf" / "SKILL.md")
    assert entry.body()


def test_each_person_has_a_cache_of_their_own(layout, monkeypatch):
    first = load_catalog(layout)
    other = Layout(layout.root, os.path.join(layout.root, "another-home"))
    assert other.routing_cache != layout.routing_cache
    calls = count_skill_reads(monkeypatch)
    assert load_catalog(other).entries == first.entries
    assert calls  # read afresh: nothing the first person's runs wrote was used
    calls.clear()
    load_catalog(other)
    assert calls == []


def test_files_changed_just_now_are_not_trusted_to_the_cache(tmp_path):
    write_skills(tmp_path / ".claude" / "skills", ["pdf"])
    (tmp_path / ".edgar").mkdir()
    layout = Layout(tmp_path, tmp_path / "home")
    load_catalog(layout)
    assert not Path(layout.routing_cache).exists()


def count_skill_reads(monkeypatch) -> list[str]:
    """The names of the skills whose SKILL.md is parsed from now on."""
    calls = []
    real = Skill.frontmatter

    def counting(self):
        calls.append(self.name)
        return real(self)

    monkeypatch.setattr(Skill, "frontmatter", counting)
    return calls


def test_the_word_rule_is_part_of_the_key(layout, monkeypatch):
    load_catalog(layout)
    monkeypatch.setattr(catalog_module, "rule_key", lambda: "another rule")
    calls = count_skill_reads(monkeypatch)
    load_catalog(layout)
    assert len(calls) == 9


def test_a_new_field_weight_is_part_of_the_key(layout, monkeypatch):
    # The cache keeps each word's weighted count: a new weight makes every one of them stale.
    from edgar_min.skills.routing import index as routing_index

    before = load_catalog(layout).index.cached()["lengths"]
    monkeypatch.setattr(routing_index, "NAME_WEIGHT", routing_index.NAME_WEIGHT + 1.0)
    calls = count_skill_reads(monkeypatch)
    after = load_catalog(layout).index.cached()["lengths"]
    assert len(calls) == 9  # every skill read again
    assert all(a > b for a, b in zip(after, before, strict=True))  # each name's words weigh more


def test_an_entrys_body_is_what_the_frontmatter_reader_reads(layout):
    from edgar_min.skills.frontmatter import read_skill

    path = Path(layout.root) / ".claude" / "skills" / "pdf" / "SKILL.md"
    path.write_bytes(
        b"---\r\nname: pdf\r\ndescription: |\r\n  Two\r\n  lines.\r\n---\r\n\r\n## Steps\r\n\r\nMerge.\r\n"
    )
    entry = load_catalog(layout).entries["pdf"]
    assert entry.body() == read_skill(path).body == "\n## Steps\n\nMerge.\n"


def test_the_cached_index_ranks_as_the_fresh_one(layout):
    # A run-together name ("googlecalendar-automation") is split once, and the cache keeps its parts.
    folder = Path(layout.root) / ".claude" / "skills" / "googlecalendar-automation"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: googlecalendar-automation\ndescription: Automate tasks via Rube MCP.\n---\n\n"
        "Book rooms and invite people.\n"
    )
    past = time.time() - 60
    os.utime(folder / "SKILL.md", (past, past))
    fresh = load_catalog(layout)
    cached = load_catalog(layout)
    assert cached.entries == fresh.entries
    assert cached.entries["googlecalendar-automation"].card.opening == "Book rooms and invite people."
    assert cached.index.name_parts == fresh.index.name_parts
    assert "googlecalendar-automation" in cached.index.name_parts
    for text in ("put lunch on my google calendar", "merge pdfs", "invite people", "thanks!"):
        assert cached.index.search(text) == fresh.index.search(text)


def test_a_when_to_use_heading_inside_a_code_fence_is_not_the_skills(tmp_path):
    # As in obra/superpowers' writing-skills (MIT): a fenced template of a skill holds its own
    # "## When to Use", which says nothing about when to use this skill.
    folder = tmp_path / ".claude" / "skills" / "writing-skills"
    folder.mkdir(parents=True)
    fenced = "```markdown\n## When to Use\nBullet list with SYMPTOMS and use cases\n\n## Core Pattern\n```\n"
    (folder / "SKILL.md").write_text(
        "---\nname: writing-skills\ndescription: Use when creating new skills.\n---\n\n"
        f"# Writing skills\n\n## Template\n\n{fenced}\n## Steps\n\nWrite it.\n"
    )
    layout = Layout(tmp_path, tmp_path / "home")
    assert load_catalog(layout, use_cache=False).entries["writing-skills"].card.when == ""
    # The real section, after the fence, is read.
    (folder / "SKILL.md").write_text(
        "---\nname: writing-skills\ndescription: Use when creating new skills.\n---\n\n"
        f"# Writing skills\n\n## Template\n\n{fenced}\n## When to use\n\nA skill misfires.\n"
    )
    assert load_catalog(layout, use_cache=False).entries["writing-skills"].card.when == "A skill misfires."


@pytest.mark.parametrize(
    "heading", ["## When to Use This Skill", "## When to Apply", "### When this skill applies"]
)
def test_the_when_to_use_section_is_read_under_the_titles_public_skills_give_it(tmp_path, heading):
    # vercel-labs/agent-skills titles it "When to Apply", K-Dense-AI's skills "When to Use This Skill".
    folder = tmp_path / ".claude" / "skills" / "react-best-practices"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: react-best-practices\ndescription: React performance rules.\n---\n\n"
        f"# React\n\n{heading}\n\nReviewing code for rerenders.\n\n## When not to use\n\nVue apps.\n"
    )
    layout = Layout(tmp_path, tmp_path / "home")
    card = load_catalog(layout, use_cache=False).entries["react-best-practices"].card
    assert card.when == "Reviewing code for rerenders."


def test_the_bodys_opening_paragraph_is_read_but_not_its_headings_tables_or_code(tmp_path):
    folder = tmp_path / ".claude" / "skills" / "scanpy"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: scanpy\ndescription: Standard single-cell RNA-seq analysis pipeline.\n---\n\n"
        "# Scanpy\n\n| a | b |\n|---|---|\n\n```python\nimport scanpy\n```\n\n## Overview\n\n"
        "Scanpy is a scalable toolkit for analyzing\nsingle-cell gene expression data.\n\n"
        "Another paragraph about plotting.\n"
    )
    layout = Layout(tmp_path, tmp_path / "home")
    card = load_catalog(layout, use_cache=False).entries["scanpy"].card
    assert card.opening == "Scanpy is a scalable toolkit for analyzing single-cell gene expression data."


def test_a_word_only_the_bodys_opening_uses_still_finds_the_skill(tmp_path):
    # obra/superpowers' systematic-debugging (MIT) says "root cause" only in its body's opening.
    root = tmp_path / ".claude" / "skills"
    for name, description, body in (
        (
            "systematic-debugging",
            "Use when encountering any bug, test failure, or unexpected behavior, before proposing fixes",
            "**Core principle:** ALWAYS find root cause before attempting fixes. Symptom fixes are failure.",
        ),
        ("gh-fix-ci", "Inspect GitHub PR checks with gh, pull failing GitHub Actions logs.", "Steps follow."),
    ):
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n## Overview\n\n{body}\n"
        )
    layout = Layout(tmp_path, tmp_path / "home")
    hits = load_catalog(layout, use_cache=False).index.search("why does this happen, find the root cause")
    assert [h.name for h in hits] == ["systematic-debugging"]


def test_a_cache_whose_index_is_not_one_is_rebuilt_and_a_damaged_posting_never_breaks_routing(layout):
    load_catalog(layout)
    cache = Path(layout.routing_cache)
    whole = cache.read_bytes()
    head, postings, rows = whole.split(b"\n", 2)
    document = json.loads(head)

    def write(header: dict, text: bytes = postings, rest: bytes = rows) -> None:
        cache.write_bytes(json.dumps(header).encode() + b"\n" + text + b"\n" + rest)

    for key, junk in (("names", ["pdf"]), ("lengths", "long"), ("by_name", {"pdf": "pdf"})):
        write({**document, "index": {**document["index"], key: junk}})
        assert load_catalog(layout).index.search("merge pdfs")[0].name == "pdf"
        assert cache.read_bytes() == whole  # rebuilt
    # A word without its postings, text that is not ASCII, no postings line at all.
    for text in (postings + b" orphan", postings.replace(b"pdf", "pdf\u00e9".encode(), 1), b""):
        write(document, text)
        assert load_catalog(layout).index.search("merge pdfs")[0].name == "pdf"
        assert cache.read_bytes() == whole
    cache.write_bytes(head + b"\n")
    assert load_catalog(layout).index.search("merge pdfs")[0].name == "pdf"
    assert cache.read_bytes() == whole
    sizes = document["sizes"]
    for junk in (
        sizes[:-1],
        [*sizes[:-1], sizes[-1] + 1],
        [0, *sizes[1:]],
        "many",
    ):  # lines not where it says
        write({**document, "sizes": junk})
        assert load_catalog(layout).index.search("merge pdfs")[0].name == "pdf"
        assert cache.read_bytes() == whole
    write(document, rest=rows.rsplit(b"\n", 2)[0] + b"\n")  # a skill's line missing
    assert load_catalog(layout).index.search("merge pdfs")[0].name == "pdf"
    words = postings.split(b" ")[::2]
    write(document, b" ".join(word + b" x:y,999:1.0" for word in words))
    hits = load_catalog(layout).index.search("merge pdfs")  # no exception: the words say nothing now
    assert [h.name for h in hits] == ["pdf"]  # found by its name alone


def test_a_damaged_line_of_the_cache_is_a_sentence_and_the_cache_is_rebuilt(layout):
    load_catalog(layout)
    cache = Path(layout.routing_cache)
    whole = cache.read_bytes()
    lines = whole.split(b"\n")
    names = json.loads(lines[0])["index"]["names"]
    at = 2 + names.index("pdf")  # after the header and the postings
    line = lines[at]
    # A line of another size than the header gives: the cache is not this one, and is rebuilt.
    lines[at] = b'["half a line'
    cache.write_bytes(b"\n".join(lines))
    assert load_catalog(layout).entries["pdf"].card.description
    assert cache.read_bytes() == whole
    lines[at] = b'["half a line' + b" " * (len(line) - 13)  # the same size, not JSON
    cache.write_bytes(b"\n".join(lines))
    catalog = load_catalog(layout)
    with pytest.raises(BadInput, match="the routing cache's line for pdf is damaged; it was removed"):
        catalog.entries["pdf"]
    assert not cache.exists()
    assert load_catalog(layout).entries["pdf"].card.description


# The examples file (`skills/examples.py`) is part of what the routing cache is keyed by.
CLIP = "turn this clip of the cat into a looping reaction for the team chat"
CLIP_AGAIN = "make a looping reaction of the dog for the team chat"


def settle(path: str) -> None:
    """Move a file's mtime back past SETTLE_NS, as if it had been written a minute ago."""
    past = time.time() - 60
    os.utime(path, (past, past))


def best(catalog, text: str) -> str | None:
    hit = catalog.index.rank(text).best
    return hit.name if hit else None


def refuse_skill_reads(monkeypatch) -> None:
    def refuse(_self):
        raise AssertionError("a cached catalogue parsed a SKILL.md")

    monkeypatch.setattr(Skill, "frontmatter", refuse)


def test_an_example_added_or_forgotten_rebuilds_the_cache_and_an_unchanged_file_is_served_from_it(
    layout, monkeypatch
):
    from edgar_min.skills.examples import add_example, forget_example

    assert best(load_catalog(layout), CLIP_AGAIN) is None
    add_example(layout, "slack-gif-creator", CLIP, "person")
    settle(layout.routing_examples)
    assert best(load_catalog(layout), CLIP_AGAIN) == "slack-gif-creator"
    real = Skill.frontmatter
    refuse_skill_reads(monkeypatch)
    assert best(load_catalog(layout), CLIP_AGAIN) == "slack-gif-creator"  # from the cache
    monkeypatch.setattr(Skill, "frontmatter", real)
    forget_example(layout, CLIP)
    settle(layout.routing_examples)
    assert best(load_catalog(layout), CLIP_AGAIN) is None
    refuse_skill_reads(monkeypatch)
    assert best(load_catalog(layout), CLIP_AGAIN) is None  # and that is cached too


def test_an_example_written_just_now_is_seen_but_not_trusted_to_the_cache(layout):
    from edgar_min.skills.examples import add_example

    load_catalog(layout)
    cached = Path(layout.routing_cache).read_bytes()
    add_example(layout, "slack-gif-creator", CLIP, "person")
    assert best(load_catalog(layout), CLIP_AGAIN) == "slack-gif-creator"
    assert Path(layout.routing_cache).read_bytes() == cached  # not saved over


def test_the_none_card_is_in_no_entry_and_a_cached_catalogue_keeps_it(layout):
    from edgar_min.skills.examples import add_example

    add_example(layout, "none", "thanks, the merged pdf works perfectly", "person")
    settle(layout.routing_examples)
    fresh = load_catalog(layout)
    cached = load_catalog(layout)
    for catalog in (fresh, cached):
        assert "none" not in catalog.entries
        assert "none" in catalog.index.names
        assert best(catalog, "nice, thanks, the merged pdf works perfectly now") is None
        assert best(catalog, "merge these three pdfs and rotate page 2") == "pdf"
    assert cached.entries == fresh.entries


def test_an_example_of_a_skill_no_longer_discovered_is_ignored(layout):

    from edgar_min.skills.examples import add_example

    add_example(layout, "gone-skill", CLIP, "person")
    catalog = load_catalog(layout, use_cache=False)
    assert "gone-skill" not in catalog.index.names
    assert best(catalog, CLIP_AGAIN) is None
    add_example(layout, "slack-gif-creator", CLIP, "person")
    shutil.rmtree(Path(layout.root) / ".claude" / "skills" / "slack-gif-creator")
    catalog = load_catalog(layout, use_cache=False)
    assert best(catalog, CLIP_AGAIN) is None
    assert catalog.warnings == []


@pytest.mark.parametrize("kind", ["folder", "fifo", "unreadable"])
def test_an_examples_file_that_cannot_be_read_is_a_warning_never_a_failure(layout, kind, monkeypatch):
    path = Path(layout.routing_examples)
    path.parent.mkdir(parents=True)
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.write_text(json.dumps({"skill": "slack-gif-creator", "text": CLIP}) + "\n")
        path.chmod(0)
        if os.geteuid() == 0:  # root reads a mode-000 file anyway: the read itself is made to fail
            from edgar_min import logfile

            def denied(name):
                raise PermissionError(13, "Permission denied", str(name))

            monkeypatch.setattr(logfile, "open_plain", denied)
    catalog = load_catalog(layout)
    (warning,) = catalog.warnings
    assert warning.startswith("the routing examples were not read: ")
    assert best(catalog, "merge these three pdfs and rotate page 2") == "pdf"
    assert best(catalog, CLIP_AGAIN) is None


def test_a_skill_named_none_still_cannot_be_suggested_even_with_examples(layout):
    from edgar_min.skills.examples import add_example

    folder = Path(layout.root) / ".claude" / "skills" / "none"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: none\ndescription: Merge pdf files.\n---\n\nMerge.\n")
    add_example(layout, "none", "thanks, the merged pdf works perfectly", "person")
    catalog = load_catalog(layout, use_cache=False)
    assert "none" not in catalog.entries
    assert catalog.index.names.count("none") == 1  # the none card only, not the skill
    assert any("named 'none' cannot be suggested" in w for w in catalog.warnings)
    hits = catalog.index.search("merge pdf files")
    assert "none" not in [h.name for h in hits]


def test_an_examples_file_removed_takes_its_examples_with_it(layout):
    from edgar_min.skills.examples import add_example

    add_example(layout, "slack-gif-creator", CLIP, "person")
    settle(layout.routing_examples)
    assert best(load_catalog(layout), CLIP_AGAIN) == "slack-gif-creator"
    os.unlink(layout.routing_examples)
    assert best(load_catalog(layout), CLIP_AGAIN) is None


# obra/superpowers (MIT): systematic-debugging's body, its first sections shortened.
DEBUGGING_BODY = (
    "# Systematic Debugging\n\n## Overview\n\n"
    "**Core principle:** ALWAYS find root cause before attempting fixes. Symptom fixes are failure.\n\n"
    "## When to Use\n\nUse for ANY technical issue:\n- Test failures\n- Bugs in production\n\n"
    "## The Four Phases\n\nYou MUST complete each phase before proceeding to the next.\n\n"
    "### Phase 1: Root Cause Investigation\n\n1. **Read Error Messages Carefully**\n"
    "   - Read stack traces completely\n\n2. **Reproduce Consistently**\n"
    "   - Can you trigger it reliably?\n\n"
    "   **Example (multi-layer system):**\n   ```bash\n   # Layer 1: Workflow\n"
    '   echo "=== Secrets available in workflow: ==="\n   ```\n'
)


def _debugging_project(tmp_path):
    root = tmp_path / ".claude" / "skills"
    for name, description, body in (
        (
            "systematic-debugging",
            "Use when encountering any bug, test failure, or unexpected behavior, before proposing fixes",
            DEBUGGING_BODY,
        ),
        ("gh-fix-ci", "Inspect GitHub PR checks with gh, pull failing GitHub Actions logs.", "Steps follow."),
    ):
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n\n{body}")
        settle(str(root / name / "SKILL.md"))
    (tmp_path / ".edgar").mkdir()
    return Layout(tmp_path, tmp_path / "home")


def test_a_word_only_the_rest_of_the_body_uses_finds_the_skill_fresh_and_from_the_cache(tmp_path):
    layout = _debugging_project(tmp_path)
    prompt = "got a stack trace i cant reproduce reliably"
    fresh = load_catalog(layout, use_cache=False)
    assert [h.name for h in fresh.index.search(prompt)] == ["systematic-debugging"]
    load_catalog(layout)  # writes the cache
    cached = load_catalog(layout)
    assert cached.index.search(prompt) == fresh.index.search(prompt)
    # The cache keeps the body's words in the index, not its text.
    assert "trigger it reliably" not in Path(layout.routing_cache).read_text()


def test_what_a_code_fence_holds_is_not_the_bodys_prose(tmp_path):
    layout = _debugging_project(tmp_path)
    assert load_catalog(layout, use_cache=False).index.search("secrets available in workflow") == []


# A body is read only from the SKILL.md discovery found: a plain file, inside the project, under the cap.


def pdf_file(layout) -> Path:
    return Path(layout.root) / ".claude" / "skills" / "pdf" / "SKILL.md"


def test_a_body_that_became_a_link_out_of_the_project_is_a_sentence(layout, tmp_path_factory):
    entry = load_catalog(layout).entries["pdf"]
    secret = tmp_path_factory.mktemp("outside") / "id_ed25519"
    secret.write_text("---\nname: pdf\ndescription: x\n---\nPRIVATE KEY\n")
    pdf_file(layout).unlink()
    pdf_file(layout).symlink_to(secret)
    with pytest.raises(
        BadInput, match=rf"^{pdf_file(layout)}: leads out of .* \(to .*id_ed25519\); a project's"
    ):
        entry.body()


def test_a_body_over_the_cap_is_a_sentence_not_its_text(layout):
    from edgar_min.skills.skillfile import MAX_SKILL_BYTES

    entry = load_catalog(layout).entries["pdf"]
    with pdf_file(layout).open("a") as grown:
        grown.write("x" * MAX_SKILL_BYTES)
    with pytest.raises(BadInput, match=rf"larger than {MAX_SKILL_BYTES} bytes"):
        entry.body()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no fifos here")
def test_a_body_that_became_a_fifo_is_a_sentence_at_once(layout):
    import threading

    entry = load_catalog(layout).entries["pdf"]
    path = pdf_file(layout)
    path.unlink()
    os.mkfifo(path)

    def writer() -> None:
        # A reader that blocks on the fifo would wait for ever: this one lets it go after a while.
        time.sleep(3)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass

    threading.Thread(target=writer, daemon=True).start()
    with pytest.raises(BadInput, match=r"is a fifo \(named pipe\), not a plain file"):
        entry.body()


def test_a_cache_naming_a_skill_discovery_did_not_find_is_rebuilt(layout):
    from edgar_min.skills.discovery import discover

    load_catalog(layout)
    shutil.rmtree(pdf_file(layout).parent)
    # The old cache under the key of what is there now: it still names pdf, which is gone.
    digest, _ = catalog_module._digest(discover(layout).skills, None)
    head, rest = Path(layout.routing_cache).read_bytes().split(b"\n", 1)
    header = json.loads(head)
    header["digest"] = digest
    Path(layout.routing_cache).write_bytes(json.dumps(header).encode() + b"\n" + rest)
    catalog = load_catalog(layout)
    assert "pdf" not in catalog.entries
    assert "pdf" not in catalog.index.names


def test_a_project_without_an_edgar_folder_is_cached_too_and_gets_none(tmp_path, monkeypatch):
    paths = write_skills(tmp_path / ".claude" / "skills")
    past = time.time() - 60
    for path in paths.values():
        os.utime(path, (past, past))
    layout = Layout(tmp_path, tmp_path / "home")
    first = load_catalog(layout)
    refuse_skill_reads(monkeypatch)
    assert load_catalog(layout).entries == first.entries
    assert not (tmp_path / ".edgar").exists()


def test_a_skill_linked_out_of_the_project_after_the_cache_was_written_is_still_said(
    layout, tmp_path_factory
):
    load_catalog(layout)
    outside = tmp_path_factory.mktemp("outside") / "notes.md"
    outside.write_text("---\nname: notes\ndescription: Not this project's.\n---\n\nSecret.\n")
    (Path(layout.root) / ".claude" / "skills" / "notes").mkdir()
    (Path(layout.root) / ".claude" / "skills" / "notes" / "SKILL.md").symlink_to(outside)
    catalog = load_catalog(layout)
    assert "notes" not in catalog.entries
    assert any("a symbolic link out of the project" in w for w in catalog.warnings)


def test_what_use_taught_is_kept_in_the_cache(layout, monkeypatch):
    from edgar_min.skills.examples import add_example

    add_example(layout, "slack-gif-creator", CLIP, "person")
    settle(layout.routing_examples)
    text = "team chat: a looping reaction, turn the cat clip into it"
    built = [(h.name, h.taught) for h in load_catalog(layout).index.rank(text).hits]
    refuse_skill_reads(monkeypatch)
    cached = [(h.name, h.taught) for h in load_catalog(layout).index.rank(text).hits]
    assert cached == built
    assert cached[0] == ("slack-gif-creator", True)
