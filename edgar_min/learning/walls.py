"""The brief's content rules as walls: what a model's draft may not say, each refusal a sentence.

The brief asks for the general procedure, not today's specifics; these walls
hold the draft to it whatever the brief said. `RULES` is both: each rule's
sentence is what the brief says (learning/drafts.py builds its briefs from
them), and the fragments are what the walls that keep it say when they refuse
(tests/test_walls.py checks both ways). `content_problems` reports every
problem at once. It needs what the model was shown: the turn's own prompt and
corrections, the failures and the declared check the outline records, and the
outline's lines, passed as a `Source`, never as text to search. A patch's
current body is passed as `kept`: what a skill already says (a person's URL, a
path they wrote) stays allowed in its patch.

What stays allowed, on purpose: relative paths and file names the turn did not
name; conventional file names that belong to no one project (`CONVENTIONAL`);
the few system paths a general procedure uses (`/dev/null`, `/usr/bin/env`);
numbers and versions the turn did not carry; `[REDACTED]`, which holds nothing.
"""

from __future__ import annotations

from edgar_min.records import dataclass
from edgar_min.redact import redact
from edgar_min.regex import lazy
from edgar_min.skills.sections import BODY_SECTIONS, fenced, section

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from edgar_min.learning.outline import Outline
    from edgar_min.learning.turn import ErrorRecord
    from edgar_min.learning.writer import Draft

__all__ = [
    "CONVENTIONAL",
    "FILLER",
    "MIN_SECTION_WORDS",
    "NAME_WORDS",
    "RULES",
    "Rule",
    "Source",
    "content_problems",
    "failure_names",
    "generalize",
]

# File names that name a convention, not a project of the user's: a skill may say them.
CONVENTIONAL = frozenset(
    """
    pyproject.toml setup.py setup.cfg requirements.txt requirements-dev.txt constraints.txt tox.ini
    noxfile.py pytest.ini conftest.py __init__.py __main__.py manage.py poetry.lock uv.lock Pipfile
    Pipfile.lock ruff.toml mypy.ini .python-version package.json package-lock.json yarn.lock
    pnpm-lock.yaml tsconfig.json .npmrc .nvmrc Cargo.toml Cargo.lock go.mod go.sum Gemfile
    Gemfile.lock Makefile CMakeLists.txt Dockerfile docker-compose.yml docker-compose.yaml
    compose.yaml compose.yml .dockerignore .gitignore .gitattributes .editorconfig .env.example
    .pre-commit-config.yaml README.md CHANGELOG.md CONTRIBUTING.md LICENSE AGENTS.md CLAUDE.md
    SKILL.md pom.xml build.gradle build.gradle.kts settings.gradle gradle.properties composer.json
    composer.lock mix.exs Justfile justfile Procfile .github/workflows
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# System paths a general procedure may name.
_SYSTEM_PATHS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/usr/bin/env", "/bin/sh", "/bin/bash"})
# First words that say nothing about the job: the opening of a request, not a name.
FILLER = frozenset(
    """
    please pls plz kindly can could would will you yes yeah yep ok okay hi hey hello thanks thank
    now just so hmm um let lets i we the a an
    """.split()  # noqa: SIM905 - a word list reads best as words
)
# Words that, alone or with numbers, name no job.
_GENERIC = frozenset(
    """
    task tasks skill skills new untitled thing stuff job work misc todo step routine general default
    my
    """.split()  # noqa: SIM905 - a word list reads best as words
)
MIN_SECTION_WORDS = 3
# The fewest and most words (joined by hyphens) a skill's name has.
NAME_WORDS = (2, 4)
_NUMBER_WORDS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# A failure's kind, as a model writes it in prose: `nonzero_exit` is "non-zero exit" or "exit code".
_KIND_WORDS = {
    "nonzero_exit": ("nonzero exit", "non zero exit", "exit code", "exit status"),
    "not_found": ("not found",),
    "timeout": ("timeout", "timed out", "time out"),
    "denied": ("denied",),
    "invalid_input": ("invalid input", "invalid"),
    "crashed": ("crashed", "crash", "crashes"),
}
# A line or sentence of at least this many characters may not appear this many times.
_REPEAT_CHARS = 16
_REPEAT_TIMES = 3
# A body whose lines are more than this share of the outline's own lines is an echo.
_ECHO_SHARE = 0.5
# A section at least this share of whose words are the prompt's, with no more than _OWN_WORDS
# words of its own, only restates the prompt.
_RESTATE_SHARE = 0.65
_OWN_WORDS = 2

_URL = lazy(r"(?i)\b(?:https?|ftp|file|ssh|git)://[^\s)>\]\"'`]+|\bwww\.[a-z0-9-]+\.[a-z]{2,}[^\s)>\]\"'`]*")
# Each path form starts after a space, a quote, a bracket or the start of a line.
_AFTER = r"(?<![^\s`'\"(\[=:,])"
_ABS_PATH = lazy(
    _AFTER + r"(?:(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%)(?:[/\\][^\s`'\")\],;]*)?"
    r"|/(?:home|Users|root|etc|var|tmp|opt|usr|srv|mnt|private|Volumes|proc|sys|dev|bin|sbin|lib|nix|workspace)"
    r"\b[^\s`'\")\],;]*"
    # Anywhere else, a path of folders that ends in a file name; `/api/users/` is a route, not a path.
    r"|/(?:[A-Za-z0-9._@+-]+/)+[A-Za-z0-9_@+-]+\.[A-Za-z][A-Za-z0-9]{0,7}\b)"
    r"|\b[A-Za-z]:\\[^\s`'\")\],;]+"
)
# Candidates only; `_ids` keeps those that mix the kinds of character an id mixes.
_HEX = lazy(r"(?i)\b[0-9a-f]{16,}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_B64 = lazy(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}")
# A file name: a word with an extension of letters, or any word with a slash in it.
_FILE = lazy(
    r"(?<![\w./-])(?:[\w.-]+/){2,}[\w.-]+|(?<![\w./-])(?:[\w.-]+/)+[\w-]*\.[\w.-]+"
    r"|(?<![\w./-])[\w-][\w.-]*\.[a-z][A-Za-z0-9]{0,7}\b"
)
# Words shaped like file names that are not: abbreviations and product names.
_NOT_FILES = lazy(r"(?i)(?:e\.g|i\.e|etc|vs|[A-Z][A-Za-z]*\.js)")
_VERSION = lazy(r"(?i)(?<![\w.])v?\d+(?:\.\d+){1,3}(?:[-+.]?[a-z]+\d*)?(?![\w.])")
_UNIT = lazy(
    r"(?i)(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?|"
    r"[kmgt]i?b|bytes?|%|px|rem|em|pt|mhz|ghz|rpm|x)(?![\w])"
)
_LONG_NUMBER = lazy(r"(?<![\w.])\d{4,}(?![\w.])")
_LOOP = lazy(r"(?s)(.{2,40}?)\1{5,}")
# Patterns the checks below use; flags are written inline, so the module imports no `re` (doctor
# describes the offline model, which imports these walls).
_NUMBER = lazy(r"[\d.]+")
# Where a URL points, without a user or password in it: `scheme://[user[:pass]@]host`, then the rest.
_HOST = lazy(r"^((?:\w+://)?)(?:[^/?#@\s]*@)?([^/?#]*)(.*)$")
_LETTER_OR_DIGIT = lazy(r"[A-Za-z0-9]")
_SENTENCE_END = lazy(r"(?<=[.!?])\s+|\n")
_WORDS = lazy(r"[a-z0-9]+")
_HEADING = lazy(r" {0,3}#{1,6}[ \t]")
_MARKER = lazy(r"^\s*(?:[-*+]|\d+[.)])\s+")
_STOP = frozenset(
    """
    a an and or the to of in on for with by from at as is are be was were it its this that these
    those then than so if when while do does did not no any all each every your you i we our my me
    """.split()  # noqa: SIM905 - a word list reads best as words
)


@dataclass(frozen=True, slots=True)
class Rule:
    """One content rule: the sentence the brief says, and a fragment of each refusal that keeps it."""

    sentence: str
    walls: tuple[str, ...]


RULES = (
    Rule(
        "Write the general procedure, not today's file names, paths or values: no file or path the request "
        "named, no absolute or home paths, no URLs, no ids or hashes, no version numbers or other values "
        "copied from the request.",
        (
            "names a file or path the turn named",
            "names an absolute or home path",
            "names a URL",
            "holds a long hex or base64 id",
            "copies a value from the request",
        ),
    ),
    Rule(
        f"Name the skill for the job it does, in {_NUMBER_WORDS[NAME_WORDS[0]]} to "
        f"{_NUMBER_WORDS[NAME_WORDS[1]]} words (not 'task-1', not 'please-fix').",
        ("a name says the job", "does not say the job", "holds a value", "words joined by hyphens"),
    ),
    Rule(
        f"Give each section at least {_NUMBER_WORDS[MIN_SECTION_WORDS]} words, and more than the request "
        "said again.",
        ("with almost no text", "only restate the request"),
    ),
    Rule(
        "Under Pitfalls, name the failure the outline records and how to get past it.",
        ("Pitfalls does not name the failure the outline records",),
    ),
    Rule(
        "Under Verification, say how to check the work: name the project's declared check.",
        ("Verification does not name the project's declared check",),
    ),
    Rule(
        "Never repeat a line, and never copy the outline's lines back.",
        ("over and over", "repeats a line or sentence", "mostly echoes the outline"),
    ),
)


@dataclass(frozen=True, slots=True)
class Source:
    """What a draft was written from: the turn's prompt and corrections, the failures and the declared
    check the outline records, and the outline's lines."""

    prompt: str = ""
    corrections: tuple[str, ...] = ()
    outline: tuple[str, ...] = ()
    kept: str = ""
    failures: tuple[ErrorRecord, ...] = ()
    check: str = ""  # the declared check's program, when one is configured

    @classmethod
    def of(cls, outline: Outline) -> Source:
        return cls(
            outline.asked,
            outline.corrections,
            tuple(outline.render().splitlines()),
            failures=outline.failures,
            check=outline.check_program,
        )

    @property
    def human(self) -> str:
        return "\n".join([self.prompt, *self.corrections])


def _quoted(items: list[str], limit: int = 3) -> str:
    # A refusal is printed, logged and kept: what it quotes of a draft is redacted first.
    shown = ", ".join(repr(redact(i)[:60]) for i in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _new(found: list[str], kept: str) -> list[str]:
    """Distinct items of `found` that the kept text does not already hold, in order."""
    out: list[str] = []
    for item in found:
        if item not in out and item not in kept:
            out.append(item)
    return out


def _is_hex_id(token: str) -> bool:
    return "-" in token or (any(c.isdigit() for c in token) and any(c.isalpha() for c in token))


def _is_b64_id(token: str) -> bool:
    if token.count("/") >= 2:  # a path (`BASE_URL/api/v2/projects`), not an id
        return False
    return (
        any(c.isdigit() for c in token)
        and any(c.isupper() for c in token)
        and any(c.islower() for c in token)
    )


def _ids(text: str) -> list[str]:
    """Long hex runs with letters and digits, UUIDs, and base64 runs with digits and both cases."""
    found = [m.group(0) for m in _HEX.finditer(text) if _is_hex_id(m.group(0))]
    return found + [
        m.group(0) for m in _B64.finditer(text) if _is_b64_id(m.group(0)) and m.group(0) not in found
    ]


def _files_named(text: str) -> set[str]:
    """Paths and file names in a person's text, each with its last part, conventions left out."""
    names: set[str] = set()
    for match in _FILE.finditer(text):
        token = match.group(0).rstrip(".")
        if _VERSION.fullmatch(token) or _NUMBER.fullmatch(token) or _NOT_FILES.fullmatch(token):
            continue
        for part in (token, token.rsplit("/", 1)[-1]):
            if part and part not in CONVENTIONAL and not _NUMBER.fullmatch(part) and len(part) > 2:
                names.add(part)
    return names


def _values_named(text: str) -> set[str]:
    """Versions, numbers with units and long numbers in a person's text."""
    found = {m.group(0) for m in _VERSION.finditer(text)}
    found |= {" ".join(m.group(0).split()) for m in _UNIT.finditer(text)}
    found |= {m.group(0) for m in _LONG_NUMBER.finditer(text)}
    return found


def _contains(text: str, token: str) -> bool:
    import re  # a pattern made from the token; the module's own are lazy

    return re.search(rf"(?<![\w.-]){re.escape(token)}(?![\w-])", text) is not None


def _where(url: re.Match[str]) -> str:
    scheme, host, rest = url.groups()
    return scheme + host + ("/..." if rest else "")


def _specifics(text: str, source: Source) -> list[str]:
    problems = []
    urls = _new([m.group(0).rstrip(".,;:") for m in _URL.finditer(text)], source.kept)
    if urls:
        # Only where a URL points is shown: its path or query may carry a token.
        hosts = _new([_HOST.sub(_where, url) for url in urls], "")
        problems.append(f"it names a URL ({_quoted(hosts)}); a skill gives the general procedure")
    paths = _new(
        [
            m.group(0).rstrip(".,;:")
            for m in _ABS_PATH.finditer(text)
            if m.group(0).rstrip(".,;:") not in _SYSTEM_PATHS
        ],
        source.kept,
    )
    paths = [p for p in paths if not _URL.search(p) and p not in {"~", "/"}]
    if paths:
        problems.append(
            f"it names an absolute or home path ({_quoted(paths)}); a skill gives the general procedure"
        )
    ids = _new(_ids(text), source.kept)
    if ids:
        # Never quoted: an id may be a key.
        sizes = ", ".join(str(len(i)) for i in ids[:3])
        problems.append(f"it holds a long hex or base64 id ({sizes} characters); a skill holds no ids")
    human = source.human
    named = sorted(n for n in _files_named(human) if _contains(text, n) and n not in source.kept)
    if named:
        problems.append(
            f"it names a file or path the turn named ({_quoted(named)}); write the general procedure, "
            "not today's file names"
        )
    values = sorted(v for v in _values_named(human) if _contains(text, v) and v not in source.kept)
    if values:
        problems.append(
            f"it copies a value from the request ({_quoted(values)}); write the general procedure, "
            "not today's values"
        )
    return problems


def _words(text: str) -> list[str]:
    return [w for w in _WORDS.findall(text.lower()) if w not in _STOP]


def _sections(body: str) -> dict[str, list[str]]:
    """The lines under each of the four headings that the body has (fenced lines count as text)."""
    found = {title: section(body, title) for title in BODY_SECTIONS}
    return {title: text.split("\n") for title, text in found.items() if text is not None}


def _plain(line: str) -> str:
    return " ".join(_MARKER.sub("", line).strip().strip("*_`").split()).casefold()


def _prose(body: str) -> list[str]:
    """The body's lines outside fenced code: code repeats itself (`} catch {`), prose should not."""
    lines = body.split("\n")
    return [line for line, code in zip(lines, fenced(lines), strict=True) if not code]


def _compresses(line: str) -> bool:
    """A line long enough to hold a loop that zlib packs to under half its size."""
    import zlib

    if len(line) < 3 * _REPEAT_CHARS:
        return False
    data = line.encode("utf-8")
    return len(zlib.compress(data)) < len(data) / 2


def _degenerate(description: str, body: str, source: Source) -> list[str]:
    problems = []
    # Only a line that compresses very well can hold a loop; the regex is too slow to run on every line.
    loopy = [line for line in f"{description}\n{body}".split("\n") if _compresses(line)]
    for loop in (m for line in loopy for m in _LOOP.finditer(line)):
        # A run of punctuation is a rule or a table line; a looping model repeats words and numbers.
        long_run = len(loop.group(0)) >= 3 * _REPEAT_CHARS
        if long_run and _LETTER_OR_DIGIT.search(loop.group(1)) and loop.group(0) not in source.kept:
            problems.append(f"it repeats {redact(loop.group(1))[:30]!r} over and over")
            break
    prose = _prose(body)
    # Headings and table rows may recur (a table header per table); prose lines may not.
    prose = [line for line in prose if not _HEADING.match(line) and not line.lstrip().startswith("|")]
    lines = [_plain(line) for line in prose if line.strip()]
    kept_lines = {_plain(line) for line in source.kept.split("\n")}
    counts: dict[str, int] = {}
    for line in lines:
        if len(line) >= _REPEAT_CHARS and line not in kept_lines:
            counts[line] = counts.get(line, 0) + 1
    for text in _SENTENCE_END.split("\n".join(prose)):
        sentence = _plain(text)
        if len(sentence) >= _REPEAT_CHARS and sentence not in lines and sentence not in kept_lines:
            counts[sentence] = counts.get(sentence, 0) + 1
    repeated = [text for text, n in counts.items() if n >= _REPEAT_TIMES]
    if repeated:
        problems.append(
            f"it repeats a line or sentence {_REPEAT_TIMES} or more times ({_quoted(repeated, 1)})"
        )
    sections = _sections(body)
    # A short section a patch keeps as the skill had it is the skill's own, not the model's.
    short = [
        title
        for title, text in sections.items()
        if len(_WORDS.findall(" ".join(text).lower())) < MIN_SECTION_WORDS
        and not ("\n".join(text).strip() and "\n".join(text).strip() in source.kept)
    ]
    if short:
        problems.append(
            f"section(s) with almost no text: {', '.join(short)} (at least {MIN_SECTION_WORDS} words each)"
        )
    asked = set(_words(source.prompt))
    if len(asked) >= MIN_SECTION_WORDS:
        restating = []
        for title, text in sections.items():
            words = _words(" ".join(text))
            own = [w for w in words if w not in asked]
            if words and len(words) - len(own) >= _RESTATE_SHARE * len(words) and len(set(own)) <= _OWN_WORDS:
                restating.append(title)
        if restating:
            problems.append(f"section(s) that only restate the request: {', '.join(restating)}")
    outline = set()
    for line in source.outline:
        value = line.partition(": ")[2]
        outline |= {_plain(line), _plain(value)} - {""}
        outline |= {_plain(v) for v in value.split(", ")} - {""}
    if lines and outline:
        echoed = sum(1 for line in lines if line in outline or line.rstrip(".") in outline)
        if echoed > _ECHO_SHARE * len(lines):
            problems.append(f"it mostly echoes the outline's own lines ({echoed} of {len(lines)} lines)")
    return problems


def _name_problems(name: str, source: Source) -> list[str]:
    words = name.split("-")
    fewest, most = NAME_WORDS
    counted = []
    if not fewest <= len(words) <= most:
        shown = f"the name {name!r} has {len(words)} word(s)"
        counted = [f"{shown}; a name is {fewest} to {most} words joined by hyphens"]
    return counted + _name_words(name, words, source)


def _name_words(name: str, words: list[str], source: Source) -> list[str]:
    """What the name's words say: the job, not the request's first words, nothing generic, no value."""
    if words[0] in FILLER:
        return [
            f"the name {name!r} starts with {words[0]!r}; a name says the job, not the request's first words"
        ]
    if all(w in _GENERIC or w.isdigit() for w in words):
        return [f"the name {name!r} does not say the job (like 'task-1'); name the skill for what it does"]
    numbers = [w for w in words if w.isdigit() and (len(w) >= 4 or _contains(source.human, w))]
    if not numbers and len(words) > 1 and words[-1].isdigit():
        numbers = [words[-1]]  # a counter, as in 'tutorial-1
    if numbers:
        return [f"the name {name!r} holds a value ({numbers[0]!r}); name the skill for what it does"]
    return []


def _mentions(text: str, phrase: str) -> bool:
    """`phrase` as words of `text`, whatever the case, a hyphen or an underscore read as a space."""
    import re  # a pattern made from the phrase; the module's own are lazy

    def plain(s: str) -> str:
        return " ".join(s.casefold().replace("_", " ").replace("-", " ").split())

    return re.search(rf"(?<![\w.]){re.escape(plain(phrase))}(?![\w])", plain(text)) is not None


def failure_names(failure: ErrorRecord) -> tuple[str, ...]:
    """What names a recorded failure: its program when it has one, else its tool or its kind."""
    if failure.program:
        return (failure.program,)
    return (failure.tool, *_KIND_WORDS.get(failure.kind, (failure.kind,)))


def _grounded(body: str, source: Source) -> list[str]:
    """Pitfalls names a failure the outline records; Verification names the declared check."""
    problems = []
    if source.failures:
        pitfalls = section(body, "Pitfalls") or ""
        if not any(_mentions(pitfalls, n) for f in source.failures for n in failure_names(f)):
            named = ", ".join(dict.fromkeys(failure_names(f)[0] for f in source.failures))
            problems.append(
                f"Pitfalls does not name the failure the outline records ({_quoted([named], 1)}); "
                "say what failed and how to get past it"
            )
    if source.check:
        verification = section(body, "Verification") or ""
        if not _mentions(verification, source.check):
            problems.append(
                f"Verification does not name the project's declared check ({_quoted([source.check], 1)}); "
                "say to run it"
            )
    return problems


def content_problems(draft: Draft, source: Source, *, patch: bool = False) -> list[str]:
    """Every way a model's draft breaks the brief's content rules, each a sentence; empty when none.

    A patch keeps its skill's name, so only a new skill's name is the model's to answer for.
    """
    text = f"{draft.description}\n{draft.body}"
    named = [] if patch else _name_problems(draft.name, source)
    return (
        named
        + _specifics(text, source)
        + _degenerate(draft.description, draft.body, source)
        + _grounded(draft.body, source)
    )


def generalize(text: str) -> str:
    """`text` with what the walls refuse replaced by words: for a writer that quotes a request."""
    text = _URL.sub(lambda m: "a URL" + m.group(0)[len(m.group(0).rstrip(".,;:!?")) :], text)
    text = _ABS_PATH.sub(lambda m: m.group(0) if m.group(0) in _SYSTEM_PATHS else "a path", text)
    text = _HEX.sub(lambda m: "an id" if _is_hex_id(m.group(0)) else m.group(0), text)
    text = _B64.sub(lambda m: "an id" if _is_b64_id(m.group(0)) else m.group(0), text)
    text = _FILE.sub(
        lambda m: m.group(0) if m.group(0) in CONVENTIONAL or _NOT_FILES.fullmatch(m.group(0)) else "a file",
        text,
    )
    text = _UNIT.sub("a value", text)
    text = _VERSION.sub("a version", text)
    return _LONG_NUMBER.sub("a number", text)
