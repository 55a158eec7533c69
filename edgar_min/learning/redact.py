"""Secrets a person typed are replaced with `[REDACTED]` before anything is stored, shown or sent.

The shapes follow public secret-scanner rule sets (gitleaks' `config/gitleaks.toml`,
Yelp's detect-secrets plugins): a value assigned to a name that says it is secret
(`DB_PASSWORD=…`, `"password": "…"`, `--token …`), the password in a URL
(`scheme://user:pass@host`), private key blocks (PEM, OpenSSH, PGP), vendors'
token prefixes, and long hex or base64 runs. A false positive costs a word of a
prompt; a miss puts a credential into a skill that every future prompt loads.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["MARK", "redact"]

MARK = "[REDACTED]"

# A name that says its value is secret; a prefix or a `_`/`-`/`.` suffix may surround it,
# so `DB_PASSWORD`, `SLACK_BOT_TOKEN`, `client_secret` and `token_file` all count.
_SENSITIVE_NAME = (
    r"(?:passw(?:or)?d|passphrase|pwd|secret|token|credentials?|"
    r"(?:api|access|account|auth|client|private|secret|signing|encryption|master|service)[_-]?key|apikey)"
)
# Every name above contains one of these.
_SENSITIVE_KEYS = ("passw", "passphrase", "pwd", "secret", "token", "credential", "key")
_VALUE = r"(?:\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|`[^`\n]*`|[^\s,;\"'`]+)"

# Each rule: (pattern, replacement, keys, run). Every match of the pattern contains one of the
# `keys` (in lower case), or is a run of at least `run` characters with no space in it. So a
# rule that cannot match is passed over without being compiled, as secret scanners do with
# their keywords: compiling every pattern costs more than the rest of a turn.
_RULES: tuple[tuple[str, str, tuple[str, ...], int], ...] = (
    # Private key blocks, PEM, OpenSSH and PGP alike; a block cut short is cut to the end.
    (
        (
            r"-----BEGIN [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)?-----.*?"
            r"(?:-----END [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)?-----|\Z)"
        ),
        MARK,
        ("-----begin ",),
        0,
    ),
    # The password of a URL: keep scheme, user and host.
    (r"(?i)\b([a-z][a-z0-9+.-]{1,30}://[^\s:/@]{1,256}:)[^\s/@]{1,256}(@)", rf"\1{MARK}\2", ("://",), 0),
    # NAME=value, NAME: value, NAME := value, NAME => value, "NAME": "value", --NAME=value.
    (
        (
            rf"(?i)(?<![\w./\\-])([\w.-]{{0,60}}?{_SENSITIVE_NAME}(?:[_.-][\w.-]{{0,40}})?[\"']?\s{{0,5}}"
            rf"(?::=|=>|[:=])\s{{0,5}}){_VALUE}"
        ),
        rf"\1{MARK}",
        _SENSITIVE_KEYS,
        0,
    ),
    # --password VALUE, --db-token VALUE (a flag and its value, as typed on a command line).
    (
        rf"(?i)(?<![\w-])(--?[\w-]{{0,40}}?{_SENSITIVE_NAME}\s+)(?!-){_VALUE}",
        rf"\1{MARK}",
        _SENSITIVE_KEYS,
        0,
    ),
    # An Authorization header's credentials (a digit or base64 padding tells them from prose).
    (
        r"(?i)\b(bearer|basic)\s+(?=[A-Za-z._~+/=-]*[0-9+/=])[A-Za-z0-9._~+/=-]{8,}",
        rf"\1 {MARK}",
        ("bearer", "basic"),
        0,
    ),
    # Vendors' token shapes.
    (r"\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}", MARK, ("sk-",), 0),
    (
        r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
        MARK,
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        0,
    ),
    (
        r"\bgl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct|sa)-[A-Za-z0-9_.-]{20,}",
        MARK,
        tuple(
            f"gl{kind}-"
            for kind in ("pat", "dt", "ft", "soat", "rt", "cbt", "imt", "ptt", "agent", "oas", "ffct", "sa")
        ),
        0,
    ),
    (r"\bGR1348941[A-Za-z0-9_-]{20,}", MARK, ("gr1348941",), 0),
    (
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
        MARK,
        ("a3t", "akia", "asia", "abia", "acca"),
        0,
    ),
    (r"\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}", MARK, ("xox", "xapp-"), 0),
    (
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}",
        f"hooks.slack.com/{MARK}",
        ("hooks.slack.com/",),
        0,
    ),
    (r"\bAIza[0-9A-Za-z_-]{30,}", MARK, ("aiza",), 0),
    (r"\b(?:sk|rk)_(?:test|live|prod)_[0-9A-Za-z]{10,}", MARK, ("_test_", "_live_", "_prod_"), 0),
    (r"\bnpm_[A-Za-z0-9]{36}\b", MARK, ("npm_",), 0),
    (r"\bpypi-AgE[A-Za-z0-9_-]{50,}", MARK, ("pypi-age",), 0),
    (r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", MARK, ("sg.",), 0),
    (r"\b(?:AC|SK)[0-9a-fA-F]{32}\b", MARK, (), 34),
    (r"\bhf_[A-Za-z]{34}\b", MARK, ("hf_",), 0),
    (r"\bdo[opr]_v1_[a-f0-9]{64}\b", MARK, ("_v1_",), 0),
    (r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", MARK, ("shpat_", "shpca_", "shppa_", "shpss_"), 0),
    (r"\bdapi[a-f0-9]{32}\b", MARK, ("dapi",), 0),
    (r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b", MARK, ("age-secret-key-1",), 0),
    (r"\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\b", MARK, (":aa",), 0),
    (r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", MARK, ("eyj",), 0),
    # Long hex runs (tokens, keys; a pasted 40-hex commit id goes too, on purpose).
    (r"\b[0-9a-fA-F]{32,}\b", MARK, (), 32),
    # Long base64-looking runs that mix cases and digits (paths and words do not).
    (
        (
            r"(?<![A-Za-z0-9+/_=-])(?=[A-Za-z0-9+/_-]*[0-9])(?=[A-Za-z0-9+/_-]*[a-z])"
            r"(?=[A-Za-z0-9+/_-]*[A-Z])[A-Za-z0-9+/_-]{32,}={0,2}"
        ),
        MARK,
        (),
        32,
    ),
)
_compiled: dict[int, re.Pattern[str]] = {}


def redact(text: str) -> str:
    """Replace secret-looking values a person typed with `[REDACTED]`."""
    # The keys are ASCII and lower-cased: for other text, where case-blind matching reaches
    # past ASCII (`K`, the Kelvin sign, matches `k`), every rule runs.
    screen = text.isascii()
    lowered, longest = _screen(text) if screen else ("", 0)
    for i, (pattern, replacement, keys, run) in enumerate(_RULES):
        if screen and not (run and longest >= run) and not any(key in lowered for key in keys):
            continue
        compiled = _compiled.get(i)
        if compiled is None:
            import re

            compiled = _compiled[i] = re.compile(pattern, re.DOTALL)
        changed = compiled.sub(replacement, text)
        if changed != text:
            text = changed
            lowered, longest = _screen(text) if screen else ("", 0)
    return text


def _screen(text: str) -> tuple[str, int]:
    return text.lower(), max(map(len, text.split()), default=0)
