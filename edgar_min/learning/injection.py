"""Text in a skill aimed at the agent rather than at the task, flagged for the person who reviews it.

A skill is read by an agent as standing advice. A turn's prompt can carry a
sentence meant for the agent ("ignore all previous instructions", "do not tell
the user") or a command that sends the person's files or keys away, and a model
asked for a skill body may copy it in. `aimed_at_agent` finds the shapes in
`SHAPES` and returns one `Flag` for each; the gate never learns a flagged body
on its own (it proposes it, saying why), and `skills proposals`, `skills show
--proposal` and `skills accept` say the flags to the person.

What it can catch: the usual English phrasings of these shapes, whatever their
case, spacing, line breaks, curly quotes or zero-width characters, and the
plain shell forms of sending a file, the environment or a key out (curl or wget
uploads, a pipe into netcat, /dev/tcp). What it cannot: a paraphrase it has no
shape for, another language, text spelled out or encoded (base64, one letter a
line), a command built at run time, or an instruction dressed as an ordinary
step of the task. It is a flag for a person, not a wall against a determined
author: a body it passes is not thereby safe, and a flagged one may be fine.
"""

from __future__ import annotations

from edgar_min.records import dataclass
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Kind = Literal["override", "secrecy", "role", "exfiltration"]

__all__ = ["SAYS", "SHAPES", "Flag", "aimed_at_agent", "describe"]

# What each kind of flag says a text does.
SAYS: dict[str, str] = {
    "override": "tells the agent to set aside its instructions",
    "secrecy": "tells the agent to keep something from the user",
    "role": "tells the agent it is someone else",
    "exfiltration": "sends data off the machine",
}
_PERSON = r"(?:user|human|person|operator|developer|owner|maintainers?)"
_EARLIER = r"(?:previous|prior|above|earlier|preceding|foregoing|original|initial|other|all|any|your)"
_RULES = r"(?:instructions?|rules|directions|guidelines|guidance|context|messages|constraints)"
_SENDER = (
    r"\b(?:curl|wget|nc|ncat|netcat|socat|scp|sftp|rsync|ftp|telnet|invoke-webrequest|invoke-restmethod|"
    r"requests\.(?:post|put)|urlopen)\b"
)
_PRIVATE = (
    r"(?:(?:~|\$home|\$\{home\}|/home/[^/\s]+|/root)/\.(?:ssh|aws|gnupg|netrc|git-credentials|pgpass|npmrc|"
    r"pypirc|docker|kube|config/gh)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|/etc/(?:shadow|passwd)\b|"
    r"/proc/\S*environ\b|\$\(\s*(?:printenv|env)\b|`\s*(?:printenv|env)\b|@\S*\.env\b|"
    # A secret variable sent as data (in a header it is how an API is called, and not flagged).
    r"(?:-d|--data\S*|-f|--form|--post-data)[=\s]+[\"']?[^\s\"']*\$\{?[a-z0-9_]*"
    r"(?:key|token|secret|password|passwd|credentials?)\b)"
)
# Every shape, by kind. The sentence shapes are matched in the text with its whitespace (line breaks
# included) made single spaces, lower-cased; the command shapes line by line.
SHAPES: dict[Kind, tuple[str, ...]] = {
    "override": (
        (
            rf"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?"
            rf"(?:the\s+|your\s+|my\s+)?{_EARLIER}\s+(?:system\s+|safety\s+)?{_RULES}\b"
        ),
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:the\s+|your\s+)?system\s+prompt\b",
        r"\bforget\s+(?:everything|all)\s+(?:above|before|earlier|you\s+(?:were|have\s+been)\s+told)\b",
        r"\bnew\s+(?:system\s+)?instructions\s*:",
        (
            r"\b(?:do\s+not|don't|never)\s+follow\s+(?:the\s+|your\s+)?(?:previous\s+|earlier\s+)?"
            r"(?:instructions|rules|system\s+prompt)\b"
        ),
    ),
    "secrecy": (
        (
            rf"\b(?:do\s+not|don't|never|without)\s+(?:tell|telling|inform|informing|alert|alerting|notify|"
            rf"notifying|mention|mentioning|warn|warning)\s+(?:this\s+to\s+|it\s+to\s+)?"
            rf"(?:the\s+|your\s+)?{_PERSON}\b"
        ),
        (
            rf"\b(?:hide|conceal|keep)\s+(?:this|it|that|these|them)\s+(?:secret\s+|hidden\s+)?from\s+"
            rf"(?:the\s+|your\s+)?{_PERSON}\b"
        ),
        rf"\b(?:the\s+)?{_PERSON}\s+(?:must|should)\s+not\s+(?:know|see|find\s+out|be\s+told)\b",
    ),
    "role": (
        (
            r"\byou\s+are\s+now\s+(?:an?\s+|the\s+|my\s+|no\s+longer\b|free\b|unrestricted\b|unfiltered\b|"
            r"jailbroken\b|dan\b|in\s+(?:developer|god|dan|admin|unrestricted)\s+mode\b|acting\s+as\b)"
        ),
        r"\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall)\b",
        r"\bpretend\s+(?:that\s+)?you\s+are\b",
        r"\b(?:act|behave)\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|different)\b",
        r"\byour\s+new\s+(?:role|task|instructions|goal|purpose)\s+(?:is|are)\b",
    ),
    "exfiltration": (
        # A sender and a secret on one line: `curl -d @~/.ssh/id_rsa`, `scp ~/.aws/credentials host:`.
        rf"{_SENDER}.*{_PRIVATE}",
        # A file uploaded from the home folder or the system: `curl -F f=@~/notes`, `--upload-file /etc/x`.
        (
            r"\b(?:curl|wget)\b.*(?:@|--upload-file\s+|-t\s+|--post-file[=\s]+|--body-file[=\s]+)[\"']?"
            r"(?:~|\$home|\$\{home\}|/home/|/root/|/etc/|/proc/)"
        ),
        # The environment, or anything, piped into a socket.
        r"\b(?:printenv|env|set)\s*\|\s*(?:curl|wget|nc|ncat|netcat|socat|telnet)\b",
        r"\|\s*(?:nc|ncat|netcat|socat|telnet)\s+\S",
        r"/dev/(?:tcp|udp)/",
    ),
}
_LINE_KINDS = frozenset({"exfiltration"})
_PATTERNS = {kind: lazy("|".join(f"(?:{p})" for p in shapes)) for kind, shapes in SHAPES.items()}
# Characters that hide a phrase from a reader without changing what an agent reads.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff"))
_QUOTES = str.maketrans("\u2018\u2019\u201b\u02bc\uff07", "'''''")
EXCERPT_CHARS = 60


@dataclass(frozen=True, slots=True)
class Flag:
    """One place a text speaks to the agent rather than about the task: its kind and the words."""

    kind: Kind
    excerpt: str

    @property
    def sentence(self) -> str:
        return f'{SAYS[self.kind]}: "{self.excerpt}"'


def _plain(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", text).translate(_INVISIBLE).translate(_QUOTES).lower()


def aimed_at_agent(text: str) -> tuple[Flag, ...]:
    """Every shape of `SHAPES` found in `text`, at most one flag per kind, in `SHAPES` order."""
    plain = _plain(text)
    flat = " ".join(plain.split())
    found = []
    for kind, pattern in _PATTERNS.items():
        places = plain.splitlines() if kind in _LINE_KINDS else [flat]
        for place in places:
            match = pattern.search(place)
            if match is not None:
                excerpt = " ".join(place[match.start() : match.start() + EXCERPT_CHARS].split())
                found.append(Flag(kind, excerpt))
                break
    return tuple(found)


def describe(flags: tuple[Flag, ...]) -> str:
    """The flags as one sentence a person reads."""
    return "it holds text aimed at the agent, not the task: " + "; ".join(f.sentence for f in flags)
