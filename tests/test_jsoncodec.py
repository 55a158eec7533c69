"""The codec against the standard `json` of the same interpreter: same values, same text, same errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edgar_min import jsoncodec

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
FIXTURES = TESTS / "fixtures"
PYENV = Path.home() / ".pyenv" / "versions"


def outcome(call, *args, **kwargs):
    """What a call gives a user: its value (by repr, which tells nan, -0.0, 1 and True apart) or its error."""
    try:
        value = call(*args, **kwargs)
    except RecursionError:
        # Whether the limit is met in an array or in an object depends on how deep the caller's stack
        # already is, so json's own message changes with the caller: only the exception is the answer.
        return ("raised", RecursionError)
    except Exception as exc:
        return ("raised", type(exc), str(exc), getattr(exc, "__notes__", None))
    return ("value", repr(value))


# Values: every scalar JSON has, strings with lone surrogates and control characters, ints past the
# 4300-digit conversion limit, and the containers dumps takes (tuples are arrays, keys need not be str).
TEXT = st.text(st.characters(exclude_categories=()))
BIG = st.builds(lambda digits, sign: sign * 10**digits, st.integers(4290, 4310), st.sampled_from([1, -1]))
SCALARS = st.none() | st.booleans() | st.integers() | BIG | st.floats() | TEXT
KEYS = TEXT | st.integers() | st.floats() | st.booleans() | st.none()
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(TEXT, inner, max_size=5)
        | st.dictionaries(KEYS, inner, max_size=3)
    ),
    max_leaves=20,
)
# Leaves json cannot encode: only a `default` saves them.
STRANGE = (
    st.sets(st.integers(), max_size=3) | st.binary(max_size=3) | st.complex_numbers() | st.just(object())
)
ODD_VALUES = st.recursive(
    SCALARS | STRANGE,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
# Each option edgar passes, in every combination (indent as a number or a string).
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ensure_ascii": st.booleans(),
        "separators": st.sampled_from([None, (",", ":"), (", ", ": ")]),
        "sort_keys": st.booleans(),
        "indent": st.sampled_from([None, 0, 1, 2, "\t"]),
        "default": st.sampled_from([None, str, repr]),
    },
)
MANY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@MANY
@given(VALUES, OPTIONS)
def test_dumps_gives_the_standard_text_for_any_value_and_options(value, options):
    assert outcome(jsoncodec.dumps, value, **options) == outcome(json.dumps, value, **options)


@MANY
@given(ODD_VALUES, OPTIONS)
def test_dumps_of_values_json_cannot_encode_gives_the_standard_text_or_error(value, options):
    assert outcome(jsoncodec.dumps, value, **options) == outcome(json.dumps, value, **options)


@settings(max_examples=150, deadline=None)
@given(VALUES, OPTIONS)
def test_dump_writes_the_text_json_dump_writes(value, options):
    ours, theirs = io.StringIO(), io.StringIO()
    try:
        json.dump(value, theirs, **options)
    except (TypeError, ValueError):
        with pytest.raises((TypeError, ValueError)):
            jsoncodec.dump(value, ours, **options)
        assert ours.getvalue() == ""
    else:
        jsoncodec.dump(value, ours, **options)
        assert ours.getvalue() == theirs.getvalue()


# Texts: valid documents in every layout json writes, with whitespace around them, then the same
# documents cut short or mutated, and soup from the characters JSON is made of.
WHITESPACE = st.text(" \t\n\r", max_size=3)
DOCUMENTS = st.builds(
    lambda value, indent, ensure_ascii, before, after: (
        before + json.dumps(value, indent=indent, ensure_ascii=ensure_ascii) + after
    ),
    VALUES.filter(lambda v: not _too_big(v)),
    st.sampled_from([None, 2]),
    st.booleans(),
    WHITESPACE,
    WHITESPACE,
)
JSONISH = st.text(
    '{}[]",:0123456789.eE+-truefalsnNaIiy \t\n\r\x00\x1f\x0c\\/u\ud800\ufeff\u00e9', max_size=40
)


def _too_big(value) -> bool:
    try:
        json.dumps(value)
    except ValueError:
        return True
    return False


@st.composite
def mutated(draw):
    text = draw(DOCUMENTS)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["cut", "insert", "delete", "replace"]))
        char = draw(st.sampled_from('{}[]",:0.e-\\ntu\x00\t\n\ufeff\ud800'))
        if how == "cut":
            text = text[:at]
        elif how == "insert":
            text = text[:at] + char + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


TEXTS = DOCUMENTS | mutated() | JSONISH


@MANY
@given(TEXTS, st.booleans())
def test_loads_gives_the_standard_value_or_error_for_any_text(text, strict):
    assert outcome(jsoncodec.loads, text, strict=strict) == outcome(json.loads, text, strict=strict)


ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]


@MANY
@given(TEXTS, st.sampled_from(ENCODINGS), st.booleans())
def test_loads_of_bytes_in_any_encoding_json_detects_gives_the_standard_answer(text, encoding, strict):
    data = text.encode(encoding, "surrogatepass")
    assert outcome(jsoncodec.loads, data, strict=strict) == outcome(json.loads, data, strict=strict)
    assert outcome(jsoncodec.loads, bytearray(data)) == outcome(json.loads, bytearray(data))


# Bytes json reads as UTF-16 or UTF-32 may also be valid UTF-8: with strict=False some are then valid JSON.
@MANY
@given(
    st.binary(max_size=12)
    | st.lists(st.sampled_from([b"\x00", b'"', b"1", b"a", b" "]), max_size=8).map(b"".join)
)
def test_loads_of_any_bytes_gives_the_standard_answer(data):
    for strict in (True, False):
        assert outcome(jsoncodec.loads, data, strict=strict) == outcome(json.loads, data, strict=strict)


# The cases a user meets first, named, so a failure says which.
CASES = [
    "NaN",
    "[NaN, Infinity, -Infinity]",
    "-NaN",
    '{"a": 1, "a": 2}',
    "1" * 4300,
    "1" * 4301,
    "-0",
    "-0.0",
    "1e400",
    "1.5e-400",
    "01",
    "[1,]",
    '{"a":1,}',
    '"\\ud800"',
    '"\\ud83d\\ude00"',
    '"\t"',
    '"\x00"',
    "\ufeff[]",
    " \t\r\n[] \t\r\n",
    "\x0c[]",
    "[]\u00a0",
    "",
    "   ",
    "1 2",
    "[" * 100_000,
    '[{"":' * 50_000 + "\n",
    '{"x": "' + "é" * 10_000 + '"}',
]


@pytest.mark.parametrize("text", CASES, ids=lambda t: repr(t[:20]))
@pytest.mark.parametrize("strict", [True, False])
def test_loads_of_the_well_known_cases_gives_the_standard_answer(text, strict):
    assert outcome(jsoncodec.loads, text, strict=strict) == outcome(json.loads, text, strict=strict)
    data = text.encode("utf-8", "surrogatepass")
    assert outcome(jsoncodec.loads, data, strict=strict) == outcome(json.loads, data, strict=strict)


# Bytes whose encoding json guesses from zero bytes: read as UTF-8 instead, some would be valid JSON.
BYTE_CASES = [
    b'"\x00a"',  # UTF-16-LE for json, so an unterminated string
    b'"\x00\x00\x00"',  # UTF-32-LE for json, and truncated
    b'\x00"a"',
    b"\x00\x00\x00[",
    b"1\x00",
    b"\xef\xbb\xbf[1]",
    b"\xff\xfe[\x001\x00]\x00",
    b"\xfe\xff\x00[\x001\x00]",
    b"\x00\x00\xfe\xff\x00\x00\x00[\x00\x00\x00]",
    b'"\xed\xa0\x80"',  # a lone surrogate in UTF-8, which json reads with surrogatepass
    b'"\xff"',
]


@pytest.mark.parametrize("data", BYTE_CASES, ids=repr)
@pytest.mark.parametrize("strict", [True, False])
def test_loads_of_bytes_json_may_not_read_as_utf8_gives_the_standard_answer(data, strict):
    assert outcome(jsoncodec.loads, data, strict=strict) == outcome(json.loads, data, strict=strict)


def _suite():
    path = FIXTURES / "jsontestsuite" / "test_parsing.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [(row["file"], row["latin1"].encode("latin-1")) for row in rows]


SUITE = _suite()


@pytest.mark.parametrize(("name", "data"), SUITE, ids=[name for name, _ in SUITE])
def test_every_file_of_the_json_test_suite_reads_as_the_standard_module_reads_it(name, data):
    assert outcome(jsoncodec.loads, data) == outcome(json.loads, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    assert outcome(jsoncodec.loads, text) == outcome(json.loads, text)


def test_the_json_test_suite_accepts_what_it_must_and_refuses_what_it_must():
    """A codec that refused everything would agree with the standard on every n_ file: not this one."""
    read = {name: outcome(jsoncodec.loads, data)[0] for name, data in SUITE}
    assert {name for name, how in read.items() if name.startswith("y_") and how != "value"} == set()
    refused = {name for name, how in read.items() if name.startswith("n_") and how == "value"}
    # The standard module's own extensions of JSON, the ones it documents: NaN and Infinity.
    assert refused <= {"n_number_NaN.json", "n_number_infinity.json", "n_number_minus_infinity.json"}


def _real_json():
    """Every line of the real agent logs and hook payloads kept in the fixtures."""
    found = []
    for path in sorted([*FIXTURES.glob("transcripts/*.jsonl"), *FIXTURES.glob("hooks/*.json")]):
        data = path.read_bytes()
        lines = data.splitlines() if path.suffix == ".jsonl" else [data]
        found += [(f"{path.name}:{n}", line) for n, line in enumerate(lines, 1) if line.strip()]
    return found


REAL = _real_json()


def test_the_real_material_is_there():
    assert len(REAL) >= 60


@pytest.mark.parametrize(("where", "line"), REAL, ids=[where for where, _ in REAL])
def test_real_agent_logs_read_and_write_as_with_the_standard_module(where, line):
    assert outcome(jsoncodec.loads, line) == outcome(json.loads, line)
    value = json.loads(line)
    for options in (
        {},
        {"ensure_ascii": False},
        {"ensure_ascii": False, "separators": (",", ":"), "default": str},
        {"ensure_ascii": False, "indent": 2},
        {"sort_keys": True, "indent": 1},
    ):
        assert jsoncodec.dumps(value, **options) == json.dumps(value, **options), options


# Errors: the standard exception with the standard sentence.


def test_a_value_dumps_cannot_encode_raises_the_standard_type_error():
    with pytest.raises(TypeError) as raised:
        jsoncodec.dumps({"tools": ["shell"], "seen": {"shell"}}, ensure_ascii=False)
    assert str(raised.value) == "Object of type set is not JSON serializable"
    with pytest.raises(TypeError) as standard:
        json.dumps({"tools": ["shell"], "seen": {"shell"}}, ensure_ascii=False)
    assert getattr(raised.value, "__notes__", None) == getattr(standard.value, "__notes__", None)
    # With default=str, as the logs write their rows, the same value is text.
    assert jsoncodec.dumps({"seen": {"shell"}}, default=str) == '{"seen": "{\'shell\'}"}'


def test_a_circular_value_raises_the_standard_value_error():
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match=r"^Circular reference detected$"):
        jsoncodec.dumps({"a": loop})


def test_an_invalid_document_raises_the_standard_decode_error_with_its_position():
    with pytest.raises(json.JSONDecodeError) as raised:
        jsoncodec.loads('{"prompt": "bump the pin",\n "tools": [shell]}')
    assert str(raised.value) == "Expecting value: line 2 column 12 (char 38)"
    assert (raised.value.lineno, raised.value.colno, raised.value.msg) == (2, 12, "Expecting value")
    with pytest.raises(TypeError, match=r"^the JSON object must be str, bytes or bytearray, not int$"):
        jsoncodec.loads(3)  # type: ignore[arg-type]


def test_loads_of_a_thing_that_only_looks_like_bytes_raises_the_standard_type_error():
    class Lookalike:
        def __getitem__(self, at):
            return b"[1]"[at]

        def decode(self, *args):
            return "[1]"

    with pytest.raises(TypeError, match=r"^the JSON object must be str, bytes or bytearray, not Lookalike$"):
        jsoncodec.loads(Lookalike())  # type: ignore[arg-type]


def test_load_reads_text_and_binary_files(tmp_path):
    path = tmp_path / "turn.json"
    path.write_bytes('{"prompt": "résumé", "tools": ["shell"]}'.encode("utf-16"))
    with path.open("rb") as handle:
        assert jsoncodec.load(handle) == {"prompt": "résumé", "tools": ["shell"]}
    path.write_text('\n{"prompt": "list the files"}\n', encoding="utf-8")
    with path.open(encoding="utf-8") as handle:
        assert jsoncodec.load(handle) == {"prompt": "list the files"}


def test_dump_writes_nothing_when_the_value_cannot_be_encoded():
    out = io.StringIO()
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        jsoncodec.dump({"first": "a" * 100, "then": object()}, out, ensure_ascii=False)
    assert out.getvalue() == ""


# Start-up: what importing the codec costs a fresh interpreter.

PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from edgar_min import jsoncodec as codec

def loaded():
    return sorted(m for m in sys.modules if m in ("json", "re", "enum") or m.startswith(("json.", "re.")))

value = codec.loads(' {"prompt": "résumé", "n": [1, 2.5, NaN, 10000000000000000000000]} '.encode())
lax = codec.loads('"a\\tb"', strict=False)
texts = [
    codec.dumps(value),
    codec.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str, sort_keys=True),
    codec.dump(value, sys.stdout, ensure_ascii=False),
]
try:
    codec.loads('{"a": 1}')
except codec.JSONDecodeError:
    pass
print()
print("after use:", loaded())
try:
    codec.loads("[1,")
except codec.JSONDecodeError as exc:
    import json
    same = type(exc) is json.JSONDecodeError, codec.JSONDecodeError is json.JSONDecodeError
    print("decode error:", *same, exc)
try:
    codec.nothing
except AttributeError as exc:
    print("unknown:", exc)
"""


def _interpreters():
    """This Python, and every other CPython 3.11+ pyenv has here (the pyz runs on whichever a box has)."""
    found = {sys.executable}
    for version in ("3.11", "3.12", "3.13", "3.14"):
        found.update(str(p) for p in sorted(PYENV.glob(f"{version}*/bin/python3")))
    return sorted(found)


@pytest.mark.parametrize("python", _interpreters())
def test_importing_and_using_the_codec_imports_neither_json_nor_re(python):
    done = subprocess.run(
        [python, "-I", "-S", "-c", PROBE, str(REPO)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == '{"prompt": "résumé", "n": [1, 2.5, NaN, 10000000000000000000000]}'
    assert "after use: []" in lines
    assert "decode error: True True Expecting value: line 1 column 4 (char 3)" in lines
    assert "unknown: module 'edgar_min.jsoncodec' has no attribute 'nothing'" in lines


# The same comparison on the other interpreters, with a fixed corpus: their json is their oracle.
CROSS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from edgar_min import jsoncodec

def outcome(call, *args, **kwargs):
    try:
        return ("value", repr(call(*args, **kwargs)))
    except Exception as exc:
        return ("raised", type(exc).__name__, str(exc))

texts = json.loads(sys.stdin.read())
options = [{}, {"ensure_ascii": False}, {"ensure_ascii": False, "separators": (",", ":"), "default": str},
           {"ensure_ascii": False, "indent": 2}, {"indent": "\\t", "sort_keys": True}, {"indent": 0}]
differ = compared = 0
for text in texts:
    for strict in (True, False):
        compared += 1
        differ += outcome(jsoncodec.loads, text, strict=strict) != outcome(json.loads, text, strict=strict)
    try:
        value = json.loads(text)
    except ValueError:
        continue
    for o in options:
        compared += 1
        differ += outcome(jsoncodec.dumps, value, **o) != outcome(json.dumps, value, **o)
print(compared, differ)
"""


@pytest.mark.parametrize("python", [p for p in _interpreters() if p != sys.executable])
def test_on_other_pythons_the_codec_agrees_with_their_own_json(python):
    corpus = [text for text in CASES if len(text) < 5000]
    corpus += [line.decode("utf-8") for _, line in REAL]
    corpus += [data.decode("latin-1") for _, data in SUITE]
    done = subprocess.run(
        [python, "-I", "-S", "-c", CROSS, str(REPO)],
        input=json.dumps(corpus), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    compared, differ = map(int, done.stdout.split())
    assert compared > 1000
    assert differ == 0


def test_without_the_accelerator_the_standard_module_answers():
    code = (
        "import sys\n"
        "sys.modules['_json'] = None\n"  # as on a Python without it: importing _json fails
        "sys.path.insert(0, sys.argv[1])\n"
        "from edgar_min import jsoncodec\n"
        'print(jsoncodec.dumps(jsoncodec.loads(\' [1, NaN, {"a": "\\u00e9"}] \'), ensure_ascii=False))\n'
        "print('the standard module answered:', 'json' in sys.modules)\n"
        "try:\n"
        "    jsoncodec.loads('[1,')\n"
        "except jsoncodec.JSONDecodeError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(REPO)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        '[1, NaN, {"a": "é"}]',
        "the standard module answered: True",
        "Expecting value: line 1 column 4 (char 3)",
    ]


# The per-turn commands of the built pyz, run as a harness runs them, import no json module.


def _json_modules(
    pyz: Path, root: Path, *args: str, stdin: str = ""
) -> tuple[subprocess.CompletedProcess, list]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-X", "importtime", str(pyz), "--root", str(root), *args],
        cwd=root, input=stdin, capture_output=True, text=True, timeout=60, env=dict(os.environ),
    )  # fmt: skip
    names = [
        line.rpartition("|")[2].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    ]
    assert "edgar_min.jsoncodec" in names, done.stderr[-2000:]  # the command read or wrote JSON through it
    return done, sorted(n for n in names if n == "json" or n.startswith("json."))


def test_the_per_turn_commands_of_the_pyz_import_no_json_module(pyz, tmp_path):
    skill = tmp_path / ".edgar" / "skills" / "pin-bump" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: pin-bump\ndescription: Bump a dependency pin and its lock file.\n---\nProse.\n"
    )
    (tmp_path / "turn.json").write_text(
        '{"prompt": "list the files", "tools": ["shell"], "verification": "passed"}'
    )
    transcript = FIXTURES / "transcripts" / "claude-code-2.1.39-compaction-task-notification.jsonl"
    stop = json.dumps({"session_id": "s-1", "transcript_path": str(transcript), "hook_event_name": "Stop"})
    prompt = json.dumps({"session_id": "s-1", "prompt": "bump the httpx pin", "cwd": str(tmp_path)})

    learned, modules = _json_modules(pyz, tmp_path, "learn", "turn.json", "--session", "s-1")
    assert (learned.returncode, modules) == (0, []), learned.stderr[-2000:]
    assert "nothing to learn" in learned.stdout
    # A turn as an agent runs it: the prompt hook hands over a skill and records it, the Stop hook reads that.
    told, modules = _json_modules(pyz, tmp_path, "hook", "user-prompt-submit", stdin=prompt)
    assert (told.returncode, modules) == (0, [])
    assert "- `pin-bump` (" in json.loads(told.stdout)["hookSpecificOutput"]["additionalContext"]
    hooked, modules = _json_modules(pyz, tmp_path, "learn", "--from", "claude-code", "--hook", stdin=stop)
    assert (hooked.returncode, modules) == (0, []), hooked.stderr[-2000:]
    assert hooked.stdout.startswith("edgar: ")
    for command in (["skills", "list"], ["doctor"]):
        done, modules = _json_modules(pyz, tmp_path, *command)
        assert (done.returncode, modules) == (0, []), (command, done.stderr[-2000:])
