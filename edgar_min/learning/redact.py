"""Secrets a person typed are replaced with `[REDACTED]` before anything is stored, shown or sent.

The shapes follow public secret-scanner rule sets (gitleaks' `config/gitleaks.toml`,
Yelp's detect-secrets plugins): a value assigned to a name that says it is secret
(`DB_PASSWORD=…`, `"password": "…"`, `--token …`), the password in a URL
(`scheme://user:pass@host`), private key blocks (PEM, OpenSSH, PGP), vendors'
token prefixes, and long hex or base64 runs. A false positive costs a word of a
prompt; a miss puts a credential into a skill that every future prompt loads.
"""

from __future__ import annotations

import re

__all__ = ["MARK", "redact"]

MARK = "[REDACTED]"

# A name that says its value is secret; a prefix or a `_`/`-`/`.` suffix may surround it,
# so `DB_PASSWORD`, `SLACK_BOT_TOKEN`, `client_secret` and `token_file` all count.
_SENSITIVE_NAME = (
    r"(?:passw(?:or)?d|passphrase|pwd|secret|token|credentials?|"
    r"(?:api|access|account|auth|client|private|secret|signing|encryption|master|service)[_-]?key|apikey)"
)
_VALUE = r"(?:\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|`[^`\n]*`|[^\s,;\"'`]+)"

_RULES: tuple[tuple[str, str], ...] = (
    # Private key blocks, PEM, OpenSSH and PGP alike; a block cut short is cut to the end.
    (
        (
            r"-----BEGIN [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)?-----.*?"
            r"(?:-----END [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)?-----|\Z)"
        ),
        MARK,
    ),
    # The password of a URL: keep scheme, user and host.
    (r"(?i)\b([a-z][a-z0-9+.-]{1,30}://[^\s:/@]{1,256}:)[^\s/@]{1,256}(@)", rf"\1{MARK}\2"),
    # NAME=value, NAME: value, NAME := value, NAME => value, "NAME": "value", --NAME=value.
    (
        (
            rf"(?i)(?<![\w./\\-])([\w.-]{{0,60}}?{_SENSITIVE_NAME}(?:[_.-][\w.-]{{0,40}})?[\"']?\s{{0,5}}"
            rf"(?::=|=>|[:=])\s{{0,5}}){_VALUE}"
        ),
        rf"\1{MARK}",
    ),
    # --password VALUE, --db-token VALUE (a flag and its value, as typed on a command line).
    (
        rf"(?i)(?<![\w-])(--?[\w-]{{0,40}}?{_SENSITIVE_NAME}\s+)(?!-){_VALUE}",
        rf"\1{MARK}",
    ),
    # An Authorization header's credentials (a digit or base64 padding tells them from prose).
    (r"(?i)\b(bearer|basic)\s+(?=[A-Za-z._~+/=-]*[0-9+/=])[A-Za-z0-9._~+/=-]{8,}", rf"\1 {MARK}"),
    # Vendors' token shapes.
    (r"\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}", MARK),
    (r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", MARK),
    (r"\bgl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct|sa)-[A-Za-z0-9_.-]{20,}", MARK),
    (r"\bGR1348941[A-Za-z0-9_-]{20,}", MARK),
    (r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b", MARK),
    (r"\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}", MARK),
    (r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}", f"hooks.slack.com/{MARK}"),
    (r"\bAIza[0-9A-Za-z_-]{30,}", MARK),
    (r"\b(?:sk|rk)_(?:test|live|prod)_[0-9A-Za-z]{10,}", MARK),
    (r"\bnpm_[A-Za-z0-9]{36}\b", MARK),
    (r"\bpypi-AgE[A-Za-z0-9_-]{50,}", MARK),
    (r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", MARK),
    (r"\b(?:AC|SK)[0-9a-fA-F]{32}\b", MARK),
    (r"\bhf_[A-Za-z]{34}\b", MARK),
    (r"\bdo[opr]_v1_[a-f0-9]{64}\b", MARK),
    (r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", MARK),
    (r"\bdapi[a-f0-9]{32}\b", MARK),
    (r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b", MARK),
    (r"\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\b", MARK),
    (r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", MARK),
    # Long hex runs (tokens, keys; a pasted 40-hex commit id goes too, on purpose).
    (r"\b[0-9a-fA-F]{32,}\b", MARK),
    # Long base64-looking runs that mix cases and digits (paths and words do not).
    (
        (
            r"(?<![A-Za-z0-9+/_=-])(?=[A-Za-z0-9+/_-]*[0-9])(?=[A-Za-z0-9+/_-]*[a-z])"
            r"(?=[A-Za-z0-9+/_-]*[A-Z])[A-Za-z0-9+/_-]{32,}={0,2}"
        ),
        MARK,
    ),
)
_compiled: list[tuple[re.Pattern[str], str]] = []


def redact(text: str) -> str:
    """Replace secret-looking values a person typed with `[REDACTED]`."""
    if not _compiled:
        # Compiled on first use: most commands never redact anything.
        _compiled.extend((re.compile(p, re.DOTALL), r) for p, r in _RULES)
    for pattern, replacement in _compiled:
        text = pattern.sub(replacement, text)
    return text
