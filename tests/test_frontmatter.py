"""The SKILL.md frontmatter parser: same answers as PyYAML inside the subset, a sentence outside it."""

from __future__ import annotations

import datetime as dt
import os
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from edgar_min.errors import BadInput
from edgar_min.skills import frontmatter
from edgar_min.skills.frontmatter import Frontmatter, FrontmatterError, parse_skill, read_skill

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "skills"


def oracle(block: str) -> dict:
    """What a full YAML parser reads from the frontmatter lines (no keys reads as {} here)."""
    loaded = yaml.safe_load(block)
    return {} if loaded is None else loaded


def data_of(block: str) -> dict:
    parsed = parse_skill(f"---\n{block}---\nbody\n", "SKILL.md")
    assert parsed.warnings == (), parsed.warnings
    return parsed.data


def same(ours: object, theirs: object) -> bool:
    """Equal as PyYAML reads it; a date is equal to the text the file holds when that text reads as it.

    repr compares the rest, so key order counts and True is not 1, nor 1.0 the same as 1.
    """
    if isinstance(theirs, dt.date):
        return isinstance(ours, str) and yaml.safe_load(ours) == theirs
    if isinstance(theirs, dict):
        return (
            isinstance(ours, dict)
            and list(ours) == list(theirs)
            and all(same(ours[k], theirs[k]) for k in theirs)
        )
    if isinstance(theirs, list):
        return isinstance(ours, list) and len(ours) == len(theirs) and all(map(same, ours, theirs))
    return repr(ours) == repr(theirs)


def assert_same(block: str) -> None:
    ours, theirs = data_of(block), oracle(block)
    assert same(ours, theirs), f"{ours!r} != {theirs!r}"


# --- inside the subset: exactly what PyYAML reads -----------------------------------------------

INSIDE = [
    # the design document's example
    (
        'name: pin-bump-with-lockfile\ndescription: Bump a pin.\nmetadata:\n  learned: "true"\n'
        '  session: "s-20261130-1"\n  trigger: "recovered"\n  created: "2026-11-30T09:00:00Z"\n'
    ),
    # plain scalars
    "name: x\ndescription: Use when the user asks (politely) for it, e.g. 'please'.\n",
    "description: It's a #hashtag, not a comment; a:b and http://x/y are text\n",
    "description: ends with spaces   \nname: x\n",
    "a: -x\nb: ?x\nc: :x\nd: x-y\ne: x?\nf: .\ng: +\nh: 1.5.3\ni: v1.0\n",
    "a: foo # a comment\nb: bar#baz\n",
    "a: text with [brackets], {braces} and, commas\n",
    "a: \u00e9t\u00e9 \u4e2d\u6587 \U0001f600 \xa0nbsp\n",
    # multi-line plain scalars
    "description: one\n  two\n  three\nname: x\n",
    "description: one\n\n  two\n\n\n  three\n",
    "description: one\n  - two\n  [three] &four !five *six ? seven\n",
    "description: one\n  two # comment ends it\nname: x\n",
    "description: one\n  # a comment line ends it too\nname: x\n",
    "a:\n  value on the next line\n  and the one after\n",
    "a:\n  # comment first\n  value\n",
    "metadata:\n  note: one\n    two\n  other: x\n",
    # core-schema plain scalars both YAML versions agree on
    "a: null\nb: Null\nc: NULL\nd: ~\ne:\nf: true\ng: False\nh: TRUE\n",
    "a: 0\nb: 42\nc: -7\nd: +3\ne: 00\nf: -0\ng: 0x1F\nh: 0x1f\n",
    "a: 1.5\nb: -0.25\nc: 1.\nd: 0.\ne: .5\nf: 1.0e+3\ng: 1.e-5\nh: 1E+3x\n",
    "a: .inf\nb: -.Inf\nc: +.INF\nd: .nan\ne: .NaN\nf: +.nan\ng: 1:60\nh: 2002-1-4\n",
    "a: y\nb: n\nc: Yes please\nd: nope\ne: onward\nf: truely\ng: nulls\nh: 0X1F\n",
    # single-quoted
    "a: 'it''s'\nb: ''\nc: ''''\nd: ' lead and trail '\ne: '# not a comment'\n",
    "a: 'one\n  two'\nb: 'one\n\n  two  \n  three  '\n",
    "a: 'one   \n  \t two'\n",
    "a: 'one\n \t \n  two'\nb: \"one\n  \t  \n two\"\n",  # blank lines of spaces and tabs
    "a: 'x' # comment\n",
    # double-quoted and every escape
    'a: "x\\ty\\n\\\\ \\" \\/ \\0 \\a \\b \\e \\f \\v \\r \\N \\_ \\L \\P"\n',
    'a: "\\x41\\u263A\\U0001F600\\ \\\t"\n',
    'a: "one\n  two"\nb: "one\\\n   two"\nc: "one\\\n\n   two"\n',
    'a: "one \\t \n  two"\nb: "one\\ \n two"\nc: "one\n\n\n  two"\n',
    'a: "tab\there" # comment\n',
    'a: ""\nb: "say \\"hi\\""\n',
    # block scalars
    "a: |\n  line one\n  line two\n\n  after blank\nb: x\n",
    "a: >\n  folded\n  lines\n\n  paragraph\n   more indented\n  back\nb: x\n",
    "a: |-\n  strip\n\n\nb: |+\n  keep\n\n\nc: |\n  clip\n\n\n",
    "a: >-\n  x\nb: >+\n  y\n\nc: >\n  z\n",
    "a: |2\n    two extra\n  base\nb: >1-\n  one extra\n",
    "a: |-2\n   x\nb: |2-\n   y\nc: |+1\n  z\n",
    "a: |\n  x\n     \nb: >\n  x\n     \n",
    "a: |\n\n  after a blank\nb: >\n \n  x\n",
    "a: |\n  # not a comment\n  x: not a key\n# a comment\nb: 1\n",
    "a: | # header comment\n  x\nb: >-  # another\n  y\n",
    "a: |\n  tab\tinside\n  \tleading tab\n",
    "a: |\nb: >\nc: |+\n\n\nd: 1\n",
    "a:\n  |\n   on the next line\n",
    "a: |\n  last line of the frontmatter\n",
    # flow lists on one line
    "a: [Bash, Read, 'Web Fetch', \"x, y\"]\nb: []\nc: [ ]\nd: [a, b,]\n",
    "a: [1, -2, 3.5, true, null, ~, .inf]\nb: [a b  c, a:b, http://x, a#b, -a]\n",
    "a: [a] # comment\nb: ['it''s', \"\\u263A\"]\n",
    # block lists
    "allowed-tools:\n  - Bash\n  - Read\n  - 'Web Fetch'\nname: x\n",
    "allowed-tools:\n- Bash\n- Read\nname: x\n",
    "a:\n  - one\n    continued\n  -\n  - # null\n  - |\n    block\n",
    'a:\n  - >-\n    folded\n  - "quoted\n    across"\n',
    "a:\n- one\n continued\n-  two\nb: x\n",
    "a:\n  -\n    value below the dash\n",
    "a:\n  - x\n\n  # comment between items\n  - y\n",
    # nested mappings
    "metadata:\n  author: me\n  version: '1.0'\n  tags: [a, b]\n  more:\n    - x\n    - y\n",
    "metadata:\n  level:\n  - z\n  empty:\nname: x\n",
    "metadata:\n    deeper: indent\n    also: fine\nother:\n - a\n",
    "metadata:\n  \"quoted key\": x\n  'single key': y\n  plain key: z\n",
    "metadata:\n  a: |\n    block\n  b: >\n    folded\n    text\n",
    # deeper nesting, as Hermes-style skills write `metadata: hermes: tags:`
    (
        "metadata:\n  hermes:\n    tags: [pdf, forms]\n    related_skills:\n    - docx\n"
        "    version: 1.0.0\nlicense: MIT\n"
    ),
    (
        'prerequisites:\n  commands: [himalaya]\n  env:\n    KINDLE_EMAIL: "x@kindle.com"\n'
        "metadata:\n  hermes:\n    tags: [a]\n"
    ),
    "a:\n  b:\n      c:\n        - x\n        - y\n      d: |\n        block\n  e: f\ng: h\n",
    "a:\n b:\n  c:\n   d:\n    e:\n     f:\n      g:\n       h:\n        i: eight levels below the top\n",
    # keys
    '"name": x\n\'description\': y\n"with: colon": z\n',
    "a : spaced\nb  : more\nallowed-tools: x\nuser-invocable: false\nargument-hint: '[name]'\n",
    "a[0]: x\na#b: y\n-x: 1\n?x: 2\n:x: 3\nx.y: 4\n",
    # comments and blank lines everywhere
    "# leading comment\n\nname: x  # trailing\n   # indented comment\n\ndescription: y\n\n",
    "# only comments\n\n",
    "",
    # flow mappings, nested, on one line and over several (OpenClaw-style metadata)
    'metadata: {"openclaw": {"emoji": "x", "requires": {"bins": ["gh"], "env": []}}}\n',
    "a: {b: 1, c: [d, e], f: {g: null}}\nb: {}\nc: { }\nd: {x: 1,}\n",
    'a: {"k":1, \'j\':"v"}\nb: {x:1}\nc: {a, b}\nd: {a: , b:}\n',
    (
        'metadata:\n  {\n    "openclaw":\n      {\n        "emoji": "x",\n'
        '        "requires": { "bins": ["gh"] },\n      },\n  }\nname: x\n'
    ),
    'a: {\n"k": "v\nw"\n}\nb: [\nc\n]\n',
    "a: [a # comment\n , b]\nc: {x: long\n  text, y: 2}\nd: [x\n\n y]\n",
    # lists of mappings
    "install:\n  - kind: pip\n    package: foo\n  - kind: brew\n    formula: bar\nname: x\n",
    "a:\n- k: v\n  j:\n  - x\n- y\n- {z: 1}\n-\n  m: n\n  o: |\n    block\n",
    "a:\n  - k: v\n    nested:\n      deeper: [1, 2]\n    more: 'q'\n  - k: 2\n",
    # flow collections nested in flow lists, and in block lists
    "a: [a, {b: [c, d]}, [e, [f]]]\nb: [x: 1, 'y': 2, z:]\nc:\n  - [a]\n  - {b: c}\n-x: [-a, -]\n",
    # dates and times: the text the file holds (PyYAML: a date or datetime)
    "updated: 2026-02-06\ncreated: 2026-11-30T09:00:00Z\nat: 2001-12-14 21:59:43.10 -5\n",
    "a: [2026-01-01, x]\nb: {c: 2026-01-01}\nc:\n  - 2026-01-01\n",
    # quoted values whose next lines are not indented, as PyYAML reads them
    "description: \"one\ntwo\"\nb: 'x\n\ty'\n",
    # a top-level mapping indented as a whole
    " name: x\n description: y\n tools:\n   - a\n",
]


@pytest.mark.parametrize("block", INSIDE)
def test_inside_the_subset_reads_as_pyyaml_does(block):
    assert_same(block)


def test_frontmatter_without_keys_is_an_empty_map():
    assert parse_skill("---\n---\n").data == {}
    assert parse_skill("---\n# nothing\n\n---\nbody").data == {}


def test_the_design_example_reads_as_expected():
    parsed = parse_skill(f"---\n{INSIDE[0]}---\n\n## When to use\n", "SKILL.md")
    assert parsed.data["metadata"] == {
        "learned": "true",
        "session": "s-20261130-1",
        "trigger": "recovered",
        "created": "2026-11-30T09:00:00Z",
    }
    assert list(parsed.data) == ["name", "description", "metadata"]


# --- real SKILL.md files -------------------------------------------------------------------------

REAL = sorted(FIXTURES.glob("*/SKILL.md"))


def test_the_real_fixtures_are_there():
    assert {p.parent.name for p in REAL} >= {
        "mcp-builder",
        "hf-cli",
        "huggingface-trackio",
        "prowler-changelog",
        "ai-sdk-5",
        "nano-pdf",
        "ipinfo",
        "fal-api",
        "home-assistant",
        "chart-image",
        "chaos-lab",
    }


def test_real_openclaw_metadata_lists_of_mappings_and_dates_read_as_written():
    fal = read_skill(FIXTURES / "fal-api" / "SKILL.md").data
    assert fal["metadata"] == {"openclaw": {"requires": {"env": ["FAL_KEY"]}, "primaryEnv": "FAL_KEY"}}
    hass = read_skill(FIXTURES / "home-assistant" / "SKILL.md").data["metadata"]["clawdbot"]
    assert hass["install"][0]["formula"] == "homeassistant-cli"
    assert hass["install"][0]["bins"] == ["hass-cli"]
    chart = read_skill(FIXTURES / "chart-image" / "SKILL.md").data
    assert chart["provides"] == [
        {"capability": "chart-generation", "methods": ["lineChart", "barChart", "areaChart"]}
    ]
    chaos = read_skill(FIXTURES / "chaos-lab" / "SKILL.md").data
    assert chaos["created"] == "2026-01-25"  # the text the file holds; PyYAML gives date(2026, 1, 25)
    assert yaml.safe_load("created: 2026-01-25")["created"] == dt.date(2026, 1, 25)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.parent.name)
def test_real_skill_files_read_as_pyyaml_reads_them(path):
    text = path.read_text(encoding="utf-8")
    block = text.split("\n---\n", 1)[0].removeprefix("---\n") + "\n"
    parsed = read_skill(path)
    assert parsed.warnings == ()
    assert same(parsed.data, oracle(block)), parsed.data
    assert parsed.data["name"] == path.parent.name
    assert parsed.body_line == block.count("\n") + 3
    lines = text.split("\n")
    assert "\n".join(lines[parsed.body_line - 1 :]) == parsed.body


def test_a_real_prowler_skill_keeps_its_lists_under_metadata():
    parsed = read_skill(FIXTURES / "prowler-changelog" / "SKILL.md")
    assert parsed.data["metadata"]["scope"] == ["root", "ui", "api", "sdk", "mcp_server"]
    assert len(parsed.data["metadata"]["auto_invoke"]) == 4
    assert parsed.data["description"].startswith("Manages changelog entries for Prowler")
    assert parsed.data["description"].endswith("or prowler/.\n")


def test_a_real_hermes_skill_keeps_its_metadata_nested_two_deep():
    parsed = read_skill(FIXTURES / "nano-pdf" / "SKILL.md")
    hermes = parsed.data["metadata"]["hermes"]
    assert hermes["tags"] == ["PDF", "Documents", "Editing", "NLP", "Productivity"]
    assert hermes["homepage"] == "https://pypi.org/project/nano-pdf/"
    assert parsed.data["platforms"] == ["linux", "macos", "windows"]


# --- delimiters and body -------------------------------------------------------------------------


def test_body_and_body_line():
    parsed = parse_skill("---\nname: x\n---\nfirst\n---\nsecond\n---\n")
    assert parsed == Frontmatter(data={"name": "x"}, body="first\n---\nsecond\n---\n", body_line=4)


def test_delimiters_may_carry_trailing_blanks():
    parsed = parse_skill("---  \nname: x\n--- \t\nbody")
    assert parsed.data == {"name": "x"}
    assert parsed.body == "body"


def test_a_longer_dash_line_does_not_close():
    parsed = parse_skill("---\nname: x\n----\n---\nbody\n", "SKILL.md")
    assert parsed.warnings[0].startswith("SKILL.md:3: expected 'key: value'")
    assert parsed.body == "body\n"


def test_only_the_first_closing_line_counts_even_inside_a_block_scalar():
    parsed = parse_skill("---\na: |\n  x\n---\n  y\n")
    assert parsed.data == {"a": "x\n"}
    assert parsed.body == "  y\n"


def test_empty_frontmatter_and_no_body():
    assert parse_skill("---\n---") == Frontmatter(data={}, body="", body_line=3)
    assert parse_skill("---\n---\n") == Frontmatter(data={}, body="", body_line=3)


def test_crlf_reads_as_lf():
    text = "---\r\nname: x\r\ndescription: |\r\n  a\r\n  b\r\n---\r\nbody\r\nmore\r\n"
    parsed = parse_skill(text)
    assert parsed.data == {"name": "x", "description": "a\nb\n"}
    assert parsed.body == "body\nmore\n"
    assert parsed.body_line == 7


def test_the_document_end_marker_does_not_close_the_frontmatter():
    with pytest.raises(FrontmatterError, match=r"^SKILL\.md:1: frontmatter is never closed"):
        parse_skill("---\nname: x\n...\nbody\n", "SKILL.md")


def test_frontmatter_error_is_bad_input_with_exit_code_2():
    assert issubclass(FrontmatterError, BadInput)
    with pytest.raises(FrontmatterError) as info:
        parse_skill("no frontmatter")
    assert info.value.exit_code == 2
    assert str(info.value) == "<string>:1: no frontmatter: the file must start with a '---' line"


def test_public_surface():
    assert set(frontmatter.__all__) == {
        "Frontmatter",
        "FrontmatterError",
        "parse_skill",
        "read_skill",
        "render_scalar",
    }
    with pytest.raises(AttributeError):
        parse_skill("---\n---\n").data = {}  # type: ignore[misc]


# --- outside the subset, or broken: a sentence with the file and the line -----------------------

ERRORS = [
    # (file text, line, words the sentence must contain)
    ("\ufeff---\nname: x\n---\n", 1, "byte-order mark (BOM)"),
    ("name: x\n", 1, "no frontmatter: the file must start with a '---' line"),
    ("", 1, "no frontmatter"),
    ("--- x\nname: y\n---\n", 1, "no frontmatter"),
    ("---\nname: x\n", 1, "frontmatter is never closed with a '---' line"),
    ("---", 1, "never closed"),
    ("---\nname: x\n...\n---\n", 3, "'...' document end marker is outside the supported subset"),
    ("---\nname: x\n--- second\n---\n", 3, "second YAML document"),
    ("---\nmetadata:\n\tauthor: me\n---\n", 3, "tab characters are not allowed for indentation"),
    ("---\nname: x\n\t\ndescription: y\n---\n", 3, "tab characters are not allowed for indentation"),
    ("---\nname: x\ndescription:\tfoo\n---\n", 3, "tab characters are not allowed after 'description:'"),
    ("---\nname: x\ndescription: a\tb\n---\n", 3, "tab characters are not allowed in a plain value"),
    ("---\nname: x\nd: 'a'\t\n---\n", 3, "tab"),
    ('---\nname: x\ndescription: "foo\n---\n', 3, "unclosed double quote"),
    ("---\nname: x\ndescription: 'foo\n  bar\nlicense: y\n---\n", 3, "unclosed single quote"),
    ("---\ndescription: 'It's fine'\n---\n", 2, "write ' as ''"),
    ("---\nname: x\nallowed-tools: [Bash, Read\n---\n", 3, "unclosed '['"),
    ("---\nname: x\njust some words\n---\n", 3, "no ':' after a key"),
    ("---\nname: x\nname:x\n---\n", 3, "no ':' after a key"),
    ("---\nname: a\ndescription: b\nname: c\n---\n", 4, "duplicate key 'name'"),
    ("---\nmetadata:\n  a: 1\n  a: 2\n---\n", 4, "duplicate key 'a'"),
    ("---\n  name: x\nb: y\n---\n", 3, "unexpected indentation"),
    ("---\nmetadata:\n  a: 1\n b: 2\n---\n", 4, "unexpected indentation"),
    ("---\nmetadata:\n  a: 1\n    b: 2\n---\n", 4, "': ' inside a plain value"),
    ("---\nname: x\n  description: y\n---\n", 3, "': ' inside a plain value"),
    ("---\ndescription: Use when: the user asks\n---\n", 2, "quote the value"),
    ("---\ntools:\n  - a\n  b\n---\n", 4, "expected a list item"),
    ("---\nname: &n x\n---\n", 2, "anchors/aliases/tags are outside the supported subset"),
    ("---\nname: *n\n---\n", 2, "anchors/aliases/tags are outside the supported subset"),
    ("---\nname: !!str x\n---\n", 2, "anchors/aliases/tags are outside the supported subset"),
    ("---\ntools: [a, &b c]\n---\n", 2, "anchors/aliases/tags"),
    ("---\n? name\n: x\n---\n", 2, "complex keys ('? ') are outside the supported subset"),
    ("---\n%YAML 1.2\nname: x\n---\n", 2, "directives ('%') are outside the supported subset"),
    (
        "---\n" + "".join(" " * i + f"k{i}:\n" for i in range(9)) + " " * 9 + "k9: v\n---\n",
        11,
        "collections nested more than 8 levels deep are outside",
    ),
    ("---\nmetadata:\n    a:\n      b: c\n  x: y\n---\n", 5, "unexpected indentation"),
    ("---\ntools:\n- - a\n---\n", 3, "block lists inside block lists are outside the supported subset"),
    ("---\ntools:\n  -\n    - a\n---\n", 4, "block lists inside block lists"),
    ("---\ntools: [a] b\n---\n", 2, "unexpected text after the flow collection"),
    ("---\ntools: [a]# c\n---\n", 2, "a comment needs a space before its '#'"),
    ("---\nname: x\ndescription: - a\n---\n", 3, "list item ('- ') cannot start here"),
    ("---\nname: 'x' y\n---\n", 2, "unexpected text after the closing quote"),
    ('---\nname: "x" y\n---\n', 2, "unexpected text after the closing quote"),
    ('---\nname: "\\q"\n---\n', 2, "invalid escape '\\\\q'"),
    ('---\nname: "\\x4"\n---\n', 2, "invalid escape"),
    ('---\nname: "\\uD800"\n---\n', 2, "is not a Unicode character"),
    ("---\nname: |x\n  y\n---\n", 2, "invalid block scalar header '|x'"),
    ("---\nname: |0\n  y\n---\n", 2, "invalid block scalar header"),
    ("---\nname: >++\n  y\n---\n", 2, "invalid block scalar header"),
    ("---\nname: | text\n  y\n---\n", 2, "unexpected text after the block scalar header"),
    ("---\na: |\n    \n  x\n---\n", 4, "blank line before this block scalar's text is indented more"),
    ("---\nname: x\ndescription: a\x07b\n---\n", 3, "character U+0007 is not allowed"),
    ("---\nname: x\ndescription: a\rb\n---\n", 3, "carriage return without a line feed"),
    ("---\nname: x\ndescription: a\u2028b\n---\n", 3, "U+2028 is a line break in YAML 1.1"),
    ("---\nname: x\ndescription: a\x85b\n---\n", 3, "U+0085"),
    ("---\nname: x\ndescription: a\ufeffb\n---\n", 3, "byte-order mark (U+FEFF) inside"),
    ("---\nname: x\nlearned: yes\n---\n", 3, "ambiguous plain scalar 'yes' (YAML 1.1 reads a boolean"),
    ("---\nname: x\nenabled: Off\n---\n", 3, "ambiguous plain scalar 'Off'"),
    ("---\nmode: 0777\n---\n", 2, "ambiguous plain scalar '0777' (YAML 1.1 reads the number 511"),
    ("---\ncount: 1_000\n---\n", 2, "ambiguous plain scalar '1_000'"),
    ("---\ntime: 1:20\n---\n", 2, "ambiguous plain scalar '1:20'"),
    ("---\nsize: 1e3\n---\n", 2, "ambiguous plain scalar '1e3'"),
    ("---\nsize: -.5\n---\n", 2, "ambiguous plain scalar '-.5'"),
    ("---\nmode: 0o17\n---\n", 2, "ambiguous plain scalar '0o17'"),
    ("---\nmode: +0x1F\n---\n", 2, "ambiguous plain scalar '+0x1F'"),
    ("---\nflags: 0b101\n---\n", 2, "ambiguous plain scalar '0b101'"),
    ("---\nsize: -_4\n---\n", 2, "ambiguous plain scalar '-_4' (some YAML readers take it as a number)"),
    ("---\ntools: [Bash, yes]\n---\n", 2, "ambiguous plain scalar 'yes'"),
    ("---\non: push\n---\n", 2, "ambiguous plain scalar 'on'"),
    ("---\n1: x\n---\n", 2, "key '1' does not read as text"),
    ("---\nnull: x\n---\n", 2, "key 'null' does not read as text"),
    ("---\n<<: x\n---\n", 2, "special meaning in YAML 1.1"),
    ("---\n[a]: b\n---\n", 2, "'[' cannot start a key"),
    ("---\n- a\n---\n", 2, "expected 'key: value', found a list item ('- ')"),
    ("---\nname: x\n: y\n---\n", 3, "expected a key before ':'"),
    ('---\n"name":x\n---\n', 2, "expected a space after ':'"),
    ('---\n"name" x\n---\n', 2, "expected ':' after the quoted key"),
    ("---\nname: @x\n---\n", 2, "'@' cannot start a value"),
    ("---\nname: %x\n---\n", 2, "'%' cannot start a plain value"),
    # flow collections
    ("---\ntools: [a, ? b]\n---\n", 2, "complex keys ('?')"),
    ("---\nm: {[a]: b}\n---\n", 2, "a collection used as a key"),
    ("---\nm: [[a]: b]\n---\n", 2, "a collection used as a key"),
    ("---\nm: {a: 1, a: 2}\n---\n", 2, "duplicate key 'a'"),
    ("---\nm: {a: 1\n---\n", 2, "unclosed '{': the flow collection never closes"),
    ("---\nm: {a: 1\nn: 2\n---\n", 3, "expected ',' or '}' in the flow mapping"),
    ("---\nm: {a: !x b}\n---\n", 2, "anchors/aliases/tags"),
    ("---\nm: [a, |]\n---\n", 2, "block scalars ('|') inside a flow collection"),
    ("---\nm: [a, - b]\n---\n", 2, "a block list item ('- ') inside a flow collection"),
    ("---\nm: {1: a}\n---\n", 2, "does not read as text (YAML reads int)"),
    ("---\nm: {2026-01-01: a}\n---\n", 2, "YAML 1.1 reads a date"),
    ("---\nm: [a,, b]\n---\n", 2, "',' cannot start a value inside a flow collection"),
    ("---\nm: {a b\n  c: d}\n---\n", 2, "a key inside a flow collection must fit on one line"),
    ("---\nm: [a\tb]\n---\n", 2, "tab characters are not allowed inside a flow collection"),
    ("---\nm: [a,#c\n b]\n---\n", 2, "a comment needs a space before its '#'"),
    ("---\nm: [a, b]]\n---\n", 2, "unexpected text after the flow collection"),
    ("---\nm: " + "[" * 9 + "]" * 9 + "\n---\n", 2, "collections nested more than 8 levels deep"),
    # dates
    ("---\nupdated: 2026-02-30\n---\n", 2, "looks like a date or time but is not a valid one"),
    ("---\n2026-01-01: x\n---\n", 2, "key '2026-01-01' does not read as text (YAML 1.1 reads a date)"),
    ('---\nd: "x\n...\ny"\n---\n', 3, "a '...' line inside a double-quoted value ends the document"),
]


def problem_of(text: str) -> str:
    """The sentence a person gets: the refusal, or the warning of the entry left out."""
    try:
        parsed = parse_skill(text, "SKILL.md")
    except FrontmatterError as exc:
        return str(exc)
    assert parsed.warnings, parsed
    return parsed.warnings[0]


@pytest.mark.parametrize(("text", "line", "words"), ERRORS)
def test_refusals_name_the_file_the_line_and_the_reason(text, line, words):
    message = problem_of(text)
    assert message.startswith(f"SKILL.md:{line}: "), message
    assert words in message, message


# --- a problem in one entry is a warning, unless it is in name or description -------------------


def test_a_problem_in_another_key_leaves_that_key_out_and_says_why():
    text = (
        "---\nname: demo\nmetadata: {a: &x 1}\ndescription: Kept.\nlicense: yes\n"
        "tags:\n  - a\n  b\nversion: '1'\n---\nbody\n"
    )
    parsed = parse_skill(text, "SKILL.md")
    assert parsed.data == {"name": "demo", "description": "Kept.", "version": "1"}
    assert parsed.warnings == (
        "SKILL.md:3: anchors/aliases/tags are outside the supported subset",
        "SKILL.md:5: ambiguous plain scalar 'yes' (YAML 1.1 reads a boolean, YAML 1.2 text): quote it",
        "SKILL.md:8: expected a list item ('- ') at this indentation",
    )
    assert parsed.body == "body\n"


def test_many_broken_entries_are_each_read_once():
    text = "---\nname: x\n" + "".join(f"k{i}: &a x\n" for i in range(3000)) + "description: d\n---\n"
    parsed = parse_skill(text, "SKILL.md")
    assert parsed.data == {"name": "x", "description": "d"}
    assert len(parsed.warnings) == 3000


def test_a_repeated_key_other_than_name_is_left_out_whole():
    parsed = parse_skill("---\nname: x\nversion: 1\nversion: 2\nversion: 3\nb: y\n---\n", "SKILL.md")
    assert parsed.data == {"name": "x", "b": "y"}  # no value wins
    assert parsed.warnings == ("SKILL.md:4: duplicate key 'version'", "SKILL.md:5: duplicate key 'version'")


def test_a_bad_character_in_another_key_is_a_warning():
    parsed = parse_skill("---\nname: x\nnote: a\x07b\ndescription: d\n---\n", "SKILL.md")
    assert parsed.data == {"name": "x", "description": "d"}
    assert parsed.warnings == ("SKILL.md:3: character U+0007 is not allowed in the frontmatter",)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("---\nname: yes\ndescription: d\n---\n", 2),
        ("---\nname: x\ndescription: {a: &b c}\n---\n", 3),
        ("---\nname: x\ndescription: a\n  b: c\n---\n", 4),
        ("---\nname: x\nname: y\n---\n", 3),
        ("---\nname: x\ndescription: a\x07b\n---\n", 3),
        ("---\nlicense: MIT\nname: [a, {b]\n---\n", 3),
        ("---\nname:\tx\ndescription: d\n---\n", 2),
        ("---\nname: x\ndescription:\tDoes a thing.\n---\n", 3),
        ('---\n"name":\tx\ndescription: d\n---\n', 2),
        ("---\nname\t: x\ndescription: d\n---\n", 2),
    ],
)
def test_a_problem_in_name_or_description_refuses_the_file(text, line):
    with pytest.raises(FrontmatterError, match=rf"^SKILL\.md:{line}: "):
        parse_skill(text, "SKILL.md")


@pytest.mark.parametrize("key", ["name", "description", "license", "compatibility"])
def test_a_tab_after_a_key_is_refused_as_pyyaml_refuses_it_with_the_file_and_line(key):
    values = {"name": "demo", "description": "Does a thing.", "license": "MIT", "compatibility": "any"}
    lines = [f"{k}:{chr(9) if k == key else ' '}{v}" for k, v in values.items()]
    text = "---\n" + "\n".join(lines) + "\n---\nbody\n"
    with pytest.raises(yaml.YAMLError, match="found character '\\\\t' that cannot start any token"):
        yaml.safe_load(text.split("---\n")[1])
    line = 2 + list(values).index(key)
    sentence = f"SKILL.md:{line}: tab characters are not allowed after '{key}:'; use a space"
    if key in {"name", "description"}:
        # A skill without its name or description is not one: never read as if the key were absent.
        with pytest.raises(FrontmatterError) as err:
            parse_skill(text, "SKILL.md")
        assert str(err.value) == sentence
    else:
        parsed = parse_skill(text, "SKILL.md")
        assert key not in parsed.data
        assert parsed.warnings == (sentence,)


def test_a_leading_byte_order_mark_is_read_past_with_a_warning():
    parsed = parse_skill("\ufeff---\nname: x\n---\nbody", "SKILL.md")
    assert parsed.data == {"name": "x"}
    assert parsed.warnings == (
        "SKILL.md:1: the file starts with a byte-order mark (BOM); save it as UTF-8 without one",
    )


def test_read_skill_reads_utf8_and_names_the_path(tmp_path):
    path = tmp_path / "demo" / "SKILL.md"
    path.parent.mkdir()
    path.write_bytes("---\nname: demo\ndescription: caf\u00e9\n---\n# Body\n".encode())
    parsed = read_skill(path)
    assert parsed.data == {"name": "demo", "description": "caf\u00e9"}
    assert parsed.body == "# Body\n"
    path.write_text("---\nname: demo\nname: again\n---\n", encoding="utf-8")
    with pytest.raises(FrontmatterError, match=rf"^{path}:3: duplicate key 'name'$"):
        read_skill(path)


def test_read_skill_refuses_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"---\nname: x\ndescription: caf\xe9\n---\n")
    with pytest.raises(FrontmatterError, match=rf"^{path}:3: the file is not valid UTF-8 \(byte 0xe9\)"):
        read_skill(path)


def test_read_skill_reads_past_a_bom_and_says_so(tmp_path):
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"\xef\xbb\xbf---\nname: x\n---\n")
    parsed = read_skill(path)
    assert parsed.data == {"name": "x"}
    assert parsed.warnings[0].startswith(f"{path}:1: the file starts with a byte-order mark")


def test_read_skill_refuses_what_it_cannot_read(tmp_path):
    path = tmp_path / "SKILL.md"
    with pytest.raises(FrontmatterError, match=rf"^{path}: cannot read the file \("):
        read_skill(path)


def _fifo(path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no fifos here")
    os.mkfifo(path)


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (lambda p: p.mkdir(), "a folder"),
        (_fifo, r"a fifo \(named pipe\)"),
        (lambda p: p.symlink_to("/dev/zero"), "a device"),
    ],
    ids=["folder", "fifo", "link-to-dev-zero"],
)
def test_read_skill_reads_only_a_plain_file_and_says_what_else_it_found(tmp_path, make, what):
    # A fifo would block the read and /dev/zero would never end: both are refused at once.
    path = tmp_path / "SKILL.md"
    make(path)
    with pytest.raises(FrontmatterError, match=rf"^{path}: is {what}, not a plain file"):
        read_skill(path)


def test_read_skill_follows_a_link_to_a_plain_file(tmp_path):
    real = tmp_path / "shared" / "deploy.md"
    real.parent.mkdir()
    real.write_text("---\nname: deploy\ndescription: Ship it.\n---\nSteps.\n")
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "SKILL.md").symlink_to(real)
    assert read_skill(tmp_path / "deploy" / "SKILL.md").data["name"] == "deploy"


def test_read_skill_refuses_a_file_larger_than_the_cap(tmp_path):
    from edgar_min.skills.skillfile import MAX_SKILL_BYTES

    path = tmp_path / "SKILL.md"
    path.write_bytes(b"---\nname: x\ndescription: y\n---\n" + b"a" * MAX_SKILL_BYTES)
    with pytest.raises(FrontmatterError, match=rf"^{path}: larger than {MAX_SKILL_BYTES} bytes"):
        read_skill(path)


# --- properties ----------------------------------------------------------------------------------

# Plain scalars the generator writes bare: they start with a letter and avoid every word that
# YAML 1.1 or 1.2 reads as something other than text (the parser refuses or converts those).
SPECIAL_WORDS = {"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"}
SPECIAL_WORDS |= {"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"}
PLAIN_TAIL = (
    string.ascii_letters + string.digits + " .,/()'\"#:!?&*%@-_=+<>[]{}|`~^$;" + "\u00e9\u4e2d\U0001f600"
)
FLOW_TAIL = string.ascii_letters + string.digits + " ./()'\"!&*%@-_=+<>|`~^$;" + "\u00e9"
SAFE_NUMBERS = ["0", "42", "-7", "+3", "3.25", "-0.5", "1.0e+3", "1.", ".5", ".inf", "-.inf", ".nan", "1:60"]
SAFE_WORDS = ["true", "False", "TRUE", "null", "Null", "~"]
# Text for quoted scalars: anything printable, tabs included.
QUOTED_TEXT = st.text(
    st.characters(
        blacklist_categories=("Cs", "Cc", "Cn", "Zl", "Zp"),
        blacklist_characters="\ufeff\x85",
    )
    | st.sampled_from("\t '\"\\#:-[]{},"),
    max_size=12,
)


def plain_word(tail: str) -> st.SearchStrategy[str]:
    word = st.builds(
        lambda first, rest: (first + rest).rstrip(" "),
        st.sampled_from(string.ascii_letters),
        st.text(st.sampled_from(tail), max_size=14),
    )
    return word.filter(lambda w: w not in SPECIAL_WORDS and ": " not in w and " #" not in w and w[-1] != ":")


KEYS = st.from_regex(r"[a-z][a-z0-9_-]{0,10}", fullmatch=True).filter(lambda k: k not in SPECIAL_WORDS)


# Dates and times: the reader gives the text, PyYAML a date; `same` holds them equal.
DATES = ["2026-02-06", "2026-11-30T09:00:00Z", "2001-12-14t21:59:43.10-05:00", "2002-12-14 21:59:43.10 -5"]


@st.composite
def plain_scalar(draw, parent: int) -> list[str]:
    """A plain scalar as lines (the first goes after 'key: '), maybe continued below."""
    if draw(st.integers(0, 4)) == 0:
        return [draw(st.sampled_from(SAFE_NUMBERS + SAFE_WORDS + DATES))]
    lines = [draw(plain_word(PLAIN_TAIL))]
    for _ in range(draw(st.integers(0, 2))):
        lines += [" " * draw(st.integers(0, 3))] * draw(st.integers(0, 2))  # blank lines fold to \n
        more = draw(plain_word(PLAIN_TAIL + "#").filter(lambda w: w[0] != "#"))
        lines.append(" " * (parent + draw(st.integers(1, 3))) + more)
    return lines


def quote_single(text: str) -> str:
    return text.replace("'", "''")


@st.composite
def quote_double(draw, text: str) -> str:
    out = []
    for char in text:
        if char in '"\\' or draw(st.integers(0, 5)) == 0:
            named = {"\t": "\\t", "\n": "\\n", '"': '\\"', "\\": "\\\\", "/": "\\/", " ": "\\ "}
            forms = [f"\\x{ord(char):02x}"] if ord(char) < 0x100 else []
            forms += [f"\\u{ord(char):04x}"] if ord(char) < 0x10000 else []
            forms += [f"\\U{ord(char):08x}"] + ([named[char]] if char in named else [])
            out.append(draw(st.sampled_from(forms)))
        else:
            out.append(char)
    out.extend(
        draw(st.lists(st.sampled_from(["\\0", "\\a", "\\e", "\\N", "\\_", "\\L", "\\P", "\\r"]), max_size=2))
    )
    return "".join(out)


@st.composite
def quoted_scalar(draw, parent: int) -> list[str]:
    double = draw(st.booleans())
    segments = draw(st.lists(QUOTED_TEXT, min_size=1, max_size=3))
    rendered = [draw(quote_double(s)) if double else quote_single(s) for s in segments]
    quote = '"' if double else "'"
    lines = [quote + rendered[0]]
    for segment in rendered[1:]:
        if double and draw(st.booleans()):
            lines[-1] += "\\"  # an escaped line break joins without a space
        lines += [draw(st.sampled_from(["", " ", "  ", "\t", " \t ", "\t  "]))] * draw(st.integers(0, 2))
        lines.append(" " * (parent + draw(st.integers(1, 3))) + segment)
    lines[-1] += quote
    return lines


@st.composite
def block_scalar(draw, parent: int) -> list[str]:
    style = draw(st.sampled_from("|>"))
    chomp = draw(st.sampled_from(["", "-", "+"]))
    explicit = draw(st.booleans())
    step = draw(st.integers(1, 3))
    indent = parent + step
    header = style + (
        f"{step}{chomp}" if explicit and draw(st.booleans()) else chomp + (str(step) if explicit else "")
    )
    texts = draw(
        st.lists(st.text(st.sampled_from(PLAIN_TAIL + "\t"), min_size=1, max_size=12), min_size=0, max_size=4)
    )
    lines = [header]
    for number, drawn in enumerate(texts):
        text = drawn if drawn.strip(" ") else "x" + drawn
        extra = " " * draw(st.integers(0, 2))
        if number == 0 and not explicit:
            # Auto-detected indentation comes from the first line: no extra spaces there.
            extra = ""
            text = text.lstrip(" \t") or "x"
        lines += [" " * draw(st.integers(0, indent))] * draw(st.integers(0, 2))
        lines.append(" " * indent + extra + text)
    lines += [" " * draw(st.integers(0, indent))] * draw(st.integers(0, 2))
    return lines


FLOW_SCALARS = st.one_of(
    plain_word(FLOW_TAIL),
    st.sampled_from(SAFE_NUMBERS[:-1] + SAFE_WORDS + DATES[:3]),
    QUOTED_TEXT.map(lambda t: "'" + quote_single(t) + "'"),
    QUOTED_TEXT.flatmap(quote_double).map(lambda t: f'"{t}"'),
)
FLOW_KEYS = st.one_of(KEYS, KEYS.map(lambda k: f'"{k}"'), KEYS.map(lambda k: f"'{k}'"))


@st.composite
def flow_collection(draw, depth: int) -> str:
    """A flow list or mapping, its items maybe flow collections again, maybe over several lines."""

    def node() -> str:
        if depth > 0 and draw(st.integers(0, 2)) == 0:
            return draw(flow_collection(depth - 1))
        return draw(FLOW_SCALARS)

    gap = draw(st.sampled_from([", ", ",", " , ", ",\n  ", "\n  , ", ",\n"]))
    if draw(st.booleans()):
        items = [node() for _ in range(draw(st.integers(0, 4)))]
        trailing = "," if items and draw(st.booleans()) else ""
        return "[" + gap.join(items) + trailing + "]"
    keys = draw(st.lists(FLOW_KEYS, max_size=4, unique_by=lambda k: k.strip("'\"")))
    pairs = []
    for key in keys:
        if draw(st.integers(0, 5)) == 0:
            pairs.append(key)  # a key with no value reads as null
        else:
            colon = ":" if key[0] in "'\"" and draw(st.booleans()) else ": "
            pairs.append(key + colon + node())
    trailing = "," if pairs and draw(st.booleans()) else ""
    opener = draw(st.sampled_from(["{", "{ ", "{\n  "]))
    return opener + gap.join(pairs) + trailing + "}"


@st.composite
def flow_list(draw) -> list[str]:
    return draw(flow_collection(2)).split("\n")


@st.composite
def scalar(draw, parent: int) -> list[str]:
    kind = draw(st.sampled_from(["plain", "quoted", "block"]))
    if kind == "plain":
        return draw(plain_scalar(parent))
    if kind == "quoted":
        return draw(quoted_scalar(parent))
    return draw(block_scalar(parent))


def with_comment(draw, lines: list[str]) -> list[str]:
    """Maybe add a trailing comment to a value's first line (only where one may go)."""
    first = lines[0]
    single = len(lines) == 1 or first[:1] in "|>"
    if single and first and draw(st.booleans()):
        return [first + " # note: ignored", *lines[1:]]
    return lines


@st.composite
def entry(draw, key: str, indent: int, depth: int) -> list[str]:
    """The lines of one `key: value` entry at `indent`; its value may nest `depth` more mappings."""
    pad = " " * indent
    kinds = ["scalar", "scalar", "flow", "block list", "empty"] + (["map", "list of maps"] * (depth > 0))
    kind = draw(st.sampled_from(kinds))
    if kind == "empty":
        return [pad + key + ":"]
    if kind == "scalar":
        lines = draw(scalar(indent))
        if lines[0][:1] not in "|>" and draw(st.integers(0, 4)) == 0:
            # The value starts on the line below its key.
            below = " " * (indent + draw(st.integers(1, 3)))
            return [pad + key + ":", below + lines[0], *lines[1:]]
        lines = with_comment(draw, lines)
        return [f"{pad}{key}: {lines[0]}", *lines[1:]]
    if kind == "flow":
        lines = with_comment(draw, draw(flow_list()))
        return [f"{pad}{key}: {lines[0]}", *lines[1:]]
    if kind == "list of maps":
        dash = indent + draw(st.integers(0, 2))
        out = [pad + key + ":"]
        for _ in range(draw(st.integers(1, 3))):
            item: list[str] = []
            for item_key in draw(st.lists(KEYS, min_size=1, max_size=3, unique=True)):
                item += draw(entry(item_key, dash + 2, depth - 1))
            out += [" " * dash + "- " + item[0][dash + 2 :], *item[1:]]
        return out
    if kind == "block list":
        dash = indent + draw(st.integers(0, 2))
        out = [pad + key + ":"]
        for _ in range(draw(st.integers(1, 3))):
            item = draw(scalar(dash))
            out += [f"{' ' * dash}- {item[0]}", *item[1:]]
        return out
    nested_indent = indent + draw(st.integers(1, 4))
    out = [pad + key + ":"]
    for nested_key in draw(st.lists(KEYS, min_size=1, max_size=4, unique=True)):
        out += draw(entry(nested_key, nested_indent, depth - 1))
    return out


@st.composite
def documents(draw) -> str:
    lines = []
    for key in draw(st.lists(KEYS, max_size=6, unique=True)):
        if draw(st.integers(0, 5)) == 0:
            lines.append("# a comment line")
        lines += draw(entry(key, 0, depth=3))
    return "".join(line + "\n" for line in lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_generated_documents_read_as_pyyaml_reads_them(block):
    assert_same(block)


FRAGMENTS = [
    "- [a]",
    "  - [b, c]",
    "-",
    "  -",
    "- 'q'",
    '- "r',
    "  x: [y]",
    "a: 1",
    "b:",
    "  - x",
    "- y",
    "  c: d",
    "    e: f",
    "k: 'x",
    "  y'",
    'k: "x\\',
    '  z"',
    "k: |",
    "k: >-",
    "k: |2+",
    "  text",
    "   more",
    "",
    "  ",
    "# c",
    "  # c",
    "k: [a, b]",
    "k: [a",
    "k: {a: 1}",
    "k: &x 1",
    "k: *x",
    "k: !t x",
    "? k",
    "...",
    "%YAML 1.2",
    "k: yes",
    "k: 0777",
    "k: 1e3",
    "\tk: v",
    "k:\tv",
    "k: v # c",
    "k: v#c",
    "k: a: b",
    "k: -",
    "k: - a",
    "- - a",
    "k: 'a''b'",
    'k: "\\x41"',
    'k: "\\q"',
    "  \tx",
    "k",
    ":",
    "k: ~",
    "k: null",
    "k: .5",
    "k: 12:30",
    "k: 2024-01-01",
    '"k": v',
    "'k' : v",
    "k: [a, [b]]",
    "k: [a: b]",
    "-x: 1",
    "k: x\\",
    "k: \u2028",
    "k: \x85",
    "   x: y",
    "k: >",
    "  #",
    "k:  # c",
    "   - - z",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8))
def test_odd_documents_are_read_right_or_refused(fragments):
    block = "".join(f + "\n" for f in fragments)
    check_right_or_refused(block)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(" \t\n-:#'\"|>[]{},&*!?%@`\\abk01.~"), max_size=40))
def test_arbitrary_text_is_read_right_or_refused(text):
    check_right_or_refused(text + "\n")


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from("0123456789+-._:eExXoObBaAfFinINnNtTyY~ "), min_size=1, max_size=9))
def test_number_like_plain_scalars_are_read_right_or_refused(text):
    text = text.strip(" ") or "0"
    check_right_or_refused(f"a: {text}\nb: [{text}]\n")


def check_right_or_refused(block: str) -> None:
    """Never a wrong answer, never a traceback: refused, or exactly what PyYAML reads."""
    assume(all(line.rstrip(" \t") != "---" for line in block.split("\n")))
    try:
        parsed = parse_skill(f"---\n{block}---\nbody\n", "SKILL.md")
    except FrontmatterError:
        return
    if parsed.warnings:
        # Entries were left out: what was kept must still be what PyYAML reads, when it reads it.
        try:
            expected = oracle(block)
        except yaml.YAMLError:
            return
        if isinstance(expected, dict):
            kept = {k: expected[k] for k in parsed.data if k in expected}
            assert same(parsed.data, kept), f"{parsed.data!r} != {kept!r}"
        return
    expected = oracle(block)  # must not fail where the parser read everything
    assert same(parsed.data, expected), f"{parsed.data!r} != {expected!r}"


# --- render_scalar: what the writer puts in a frontmatter reads back as the same text -----------

WRITER_WORDS = [
    "yes",
    "No",
    "null",
    "true",
    "123",
    "2026",
    "0777",
    "2024-01-31",
    "1e3",
    "~",
    "y",
    "-",
    "a --- b",
]


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.sampled_from(WRITER_WORDS), st.text(max_size=40), st.text(PLAIN_TAIL, max_size=20)))
def test_a_rendered_scalar_reads_back_as_the_same_text_everywhere(text):
    rendered = frontmatter.render_scalar(text)
    assert "---" not in rendered
    assert "\n" not in rendered
    block = f"name: x\ndescription: {rendered}\n"
    try:
        ours = data_of(block)["description"]
    except FrontmatterError:
        # Only text no YAML file can hold (a lone surrogate) may be refused; the writer's
        # read-back then refuses the skill with a sentence.
        assert any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        return
    assert ours == text
    assert yaml.safe_load(block)["description"] == text


@pytest.mark.parametrize("text", WRITER_WORDS)
def test_words_other_readers_take_for_something_else_are_quoted(text):
    assert frontmatter.render_scalar(text).startswith('"')
    strictyaml = pytest.importorskip("strictyaml")  # what the reference validator reads with
    assert strictyaml.load(f"description: {frontmatter.render_scalar(text)}\n").data["description"] == text


def test_a_block_indicator_in_column_one_belongs_to_the_entry_above():
    """YAML reads `a:` then `|` as `a: ''`: a problem there leaves `a` out, not `a: None`."""
    parsed = parse_skill("---\nname: x\nmeta:\n|\nlicense: MIT\n---\nbody\n", "SKILL.md")
    assert parsed.data == {"name": "x", "license": "MIT"}
    assert parsed.warnings == ("SKILL.md:4: '|' cannot start a key; quote it",)
    # What is kept is what PyYAML reads of those keys.
    for block in ("a:\n|\nb: 1\n", "':':\n>\n"):
        kept = parse_skill(f"---\n{block}---\nbody\n", "SKILL.md").data
        expected = oracle(block)
        assert same(kept, {k: expected[k] for k in kept})
        assert list(kept) != list(expected)  # the entry above the indicator is left out


def test_every_character_the_reader_refuses_is_one_isprintable_refuses():
    """`parse_skill` skips the character pattern for printable text: that is sound only if so."""
    from edgar_min.skills._scalars import BAD_CHAR

    every = "".join(map(chr, range(0x110000)))
    refused = BAD_CHAR.findall(every)
    assert len(refused) > 2000  # controls, C1, surrogates, line separators, BOM, non-characters
    assert not [c for c in refused if c.isprintable()]
    assert "\x7f" in refused
    assert "\u2028" in refused


def test_a_duplicate_key_is_left_out_with_every_line_of_its_value():
    """A quoted value may run on over lines that look like keys: none of them becomes one."""
    parsed = parse_skill("---\nk: v\nk: 'x\nname: evil\n  y'\n---\nbody\n", "SKILL.md")
    assert parsed.data == {}
    assert parsed.warnings == ("SKILL.md:3: duplicate key 'k'",)
