"""Text from outside is made safe before anything is stored, shown or sent: secrets and control characters.

Secrets are replaced with `[REDACTED]`. The shapes follow public secret-scanner
rule sets (gitleaks' `config/gitleaks.toml`, Yelp's detect-secrets plugins): a
value assigned to a name that says it is secret (`DB_PASSWORD=…`, `DB_PASS=…`,
`AWS_CREDS=…`, `"auth": "…"`, `STRIPE_KEY=…`, `--token …`), the password in a URL
(`scheme://user:pass@host`, `redis://:pass@host`), an `Authorization` header of
any scheme, `curl -u user:pass`, the password of `.netrc`, `mysql -pPASS`,
`sshpass -p` and `docker login -p`, cookies, signatures in a query string,
private key blocks (PEM, OpenSSH, PGP), vendors' token prefixes, and long hex or
base64 runs. A false positive costs a word of a prompt; a miss puts a credential
into a skill that every future prompt loads.

Control characters (C0, DEL and C1) other than line feed and tab never pass: an
escape sequence a terminal would obey (`ESC[31m`, `ESC]0;title BEL`, `ESC[2J`,
the one-character CSI U+009B) is removed whole, as a terminal would have consumed
it without showing it; a carriage return is a line break; any other control
character becomes U+FFFD, so a reader sees that something stood there.
"""

from __future__ import annotations

from edgar_min.regex import lazy

__all__ = ["MARK", "redact", "without_controls"]

MARK = "[REDACTED]"

# A name that says its value is secret; a prefix or a `_`/`-`/`.` suffix may surround it,
# so `DB_PASSWORD`, `SLACK_BOT_TOKEN`, `client_secret`, `AWS_CREDS` and `token_file` all count.
_SENSITIVE_NAME = (
    r"(?:passw(?:or)?d|passphrase|pwd|secret|token|cred(?:ential)?s?|keypass|"
    r"(?:api|access|account|auth|client|private|priv|secret|signing|encryption|master|service|app|"
    r"application|db|database)[_-]?key|apikey)"
)
# Short names count only as the last part of a name (`DB_PASS`, `MYSQL_PW`, `NPM_AUTH`): inside
# a word they are other words (`bypass`, `oauth`). Alone, they count quoted (`"auth": …`), before
# `=`, or as a key that starts a line (YAML's `auth: …`), never before a colon in prose (`pass: run it`).
_SHORT_NAME = r"(?:pass|pw|auth)"
# An environment variable's `_KEY` (`STRIPE_KEY`, `APP_KEY`); written in capitals, as such names are.
_ENV_KEY = r"(?-i:(?:[A-Z0-9]+_)+KEY)"
_NAME = (
    rf"(?:[\w.-]{{0,60}}?{_SENSITIVE_NAME}(?:[_.-][\w.-]{{0,40}})?"
    rf"|[\w.-]{{0,60}}?[_.-]{_SHORT_NAME}|{_ENV_KEY})"
)
_BARE_NAME = (
    rf"(?:(?<![\w./\\-])[\"']{_SHORT_NAME}[\"']\s{{0,5}}(?::=|=>|[:=])"
    rf"|(?<![\w./\\-]){_SHORT_NAME}\s{{0,5}}(?::=|=>|=)"
    rf"|(?<![^\n])[ \t]*(?:-[ \t]+)?{_SHORT_NAME}[ \t]{{0,5}}:)"
)
# Every name above contains one of these (in lower case).
_SENSITIVE_KEYS = ("pass", "pw", "secret", "token", "cred", "key", "auth")
# Vendors' token prefixes (gitleaks' rules): the prefix, then a run of token characters with a digit in it.
_PREFIXES = (
    "glc_", "glsa_", "hvs.", "hvb.", "lin_api_", "PMAK-", "NRAK-", "NRJS-", "NRII-", "pscale_tkn_",
    "pscale_pw_", "pscale_oauth_", "sntrys_", "sntryu_", "dp.pt.", "rubygems_", "pplx-", "xkeysib-",
    "ntn_", "pnu_", "rdme_", "shippo_live_", "shippo_test_", "sq0atp-", "sq0csp-", "EAAA", "EAAC",
    "EAAM", "ops_eyJ", "LTAI", "AKCp", "ABSK", "HRKU-AA", "fo1_", "fm1a_", "fm1r_", "fm2_", "tk-us-",
    "sha256~", "dt0c01.", "FLWSECK_TEST-", "duffel_live_", "duffel_test_", "EZAK", "EZTK", "api_org_",
    "sm_aat_", "sm_pat_", "sm_sat_", "fio-u-", "tfp_", "sgp_", "ico-", "CLOJARS_", "xoxe-", "xoxe.xox",
    "p8e-", "AVNS_", "gsk_", "dckr_pat_",
)  # fmt: skip
_VALUE = r"(?:\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|`[^`\n]*`|[^\s,;\"'`]+)"

# Each rule: (pattern, replacement, keys, run, token). Every match of the pattern contains one
# of the `keys` (in lower case), or is a run of at least `run` characters with no space in it;
# with `token`, every match lies inside one run of at least `_TOKEN` characters with no space,
# so its keys are looked for only in such runs (a long prompt has few). So a rule that cannot
# match is passed over without being compiled, as secret scanners do with their keywords:
# compiling every pattern costs more than the rest of a turn.
_TOKEN = 16
_RULES: tuple[tuple[str, str, tuple[str, ...], int, bool], ...] = (
    # Private key blocks, PEM, OpenSSH and PGP alike; a block cut short is cut to the end.
    (
        (
            r"-----BEGIN [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)?-----.*?"
            r"(?:-----END [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)?-----|\Z)"
        ),
        MARK,
        ("-----begin ",),
        0,
        False,
    ),
    # The password of a URL: keep scheme, user and host. The user may be empty (`redis://:pw@host`)
    # or an address (`me@example.com`); the password runs to the last `@` before the host.
    (
        r"(?i)\b([a-z][a-z0-9+.-]{1,30}://[^\s:/?#\"'`]{0,256}:)[^\s/?#\"'`]{1,256}(@)",
        rf"\1{MARK}\2",
        ("://",),
        0,
        False,
    ),
    # An Authorization header of any scheme (`Token …`, `Basic …`, `Digest …`, or none): keep the scheme.
    (
        (
            r"(?i)\b((?:proxy-)?authorization[\"']?[ \t]{0,5}:[ \t]{0,5}[\"']?"
            r"(?:[a-z][\w.-]{0,30}[ \t]+)?)[^\s\"'`,;]+"
        ),
        rf"\1{MARK}",
        ("authorization",),
        0,
        False,
    ),
    # A cookie header's `name=value` pairs.
    (
        (
            r"(?i)\b((?:set-)?cookie[\"']?[ \t]{0,5}:[ \t]{0,5}[\"']?)"
            r"[\w.%-]+=[^;\s\"'`]*(?:;[ \t]*[\w.%-]+=[^;\s\"'`]*)*"
        ),
        rf"\1{MARK}",
        ("cookie",),
        0,
        False,
    ),
    # `curl -u user:pass`, `--user user:pass`, `--proxy-user`, `-U`: keep the user (a uid:gid stays).
    (
        (
            r"(?<![\w-])((?:-u|-U|--user|--proxy-user)(?:[ \t]+|=)?[\"']?[^\s:\"']*:)"
            r"(?![0-9]+(?:[\s\"']|$))[^\s\"']+"
        ),
        rf"\1{MARK}",
        ("-u",),
        0,
        False,
    ),
    # The password of a `.netrc` entry: `machine HOST login USER password PASS`.
    (r"(?i)\b(login\s+\S+\s+password\s+)\S+", rf"\1{MARK}", ("password",), 0, False),
    # `mysql -pPASS` (the password glued to `-p`), `sshpass -p PASS`, `docker login -p PASS`, `htpasswd -b`.
    (
        r"\b((?:mysql|mariadb)[\w-]*\b[^\n]{0,200}?[ \t]-p)(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+)",
        rf"\1{MARK}",
        ("mysql", "mariadb"),
        0,
        False,
    ),
    (
        r"\b(sshpass\b[^\n]{0,200}?[ \t]-p[ \t]*)(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+)",
        rf"\1{MARK}",
        ("sshpass",),
        0,
        False,
    ),
    (
        (
            r"\b((?:docker|podman|nerdctl|buildah|skopeo|helm)\b[^\n]{0,200}?\blogin\b[^\n]{0,200}?"
            r"[ \t]-p[ \t]+)[^\s\"']+"
        ),
        rf"\1{MARK}",
        ("login",),
        0,
        False,
    ),
    (
        r"\b(htpasswd[ \t]+-[a-zA-Z]*b[a-zA-Z]*[ \t]+\S+[ \t]+\S+[ \t]+)\S+",
        rf"\1{MARK}",
        ("htpasswd",),
        0,
        False,
    ),
    # A signature, key, code or session in a URL's query string (`?sig=…`, `&X-Amz-Signature=…`).
    (
        r"(?i)([?&](?:[\w.-]{0,40}[_.-])?(?:sig|signature|key|code|session)=)[^&\s#\"'`]+",
        rf"\1{MARK}",
        ("sig=", "signature=", "key=", "code=", "session="),
        0,
        False,
    ),
    # A NuGet config's password: `<add key="ClearTextPassword" value="…" />`.
    (
        r"(?i)(<add\s+key=[\"'][^\"']{0,100}?(?:password|token|secret|apikey)[^\"']{0,100}[\"']\s+value=[\"'])[^\"']*",
        rf"\1{MARK}",
        ("<add",),
        0,
        False,
    ),
    # NAME=value, NAME: value, NAME := value, NAME => value, "NAME": "value", --NAME=value.
    (
        rf"(?i)(?<![\w./\\-])({_NAME}[\"']?\s{{0,5}}(?::=|=>|[:=])\s{{0,5}}){_VALUE}",
        rf"\1{MARK}",
        _SENSITIVE_KEYS,
        0,
        False,
    ),
    (rf"(?i)({_BARE_NAME}\s{{0,5}}){_VALUE}", rf"\1{MARK}", ("pass", "pw", "auth"), 0, False),
    # --password VALUE, --db-token VALUE, --auth VALUE (a flag and its value, as typed on a command line).
    (
        rf"(?i)(?<![\w-])(--?(?:[\w-]{{0,40}}?{_SENSITIVE_NAME}|(?:[\w-]{{0,40}}?-)?{_SHORT_NAME})\s+)(?!-){_VALUE}",
        rf"\1{MARK}",
        _SENSITIVE_KEYS,
        0,
        False,
    ),
    # An Authorization header's credentials (a digit or base64 padding tells them from prose).
    (
        r"(?i)\b(bearer|basic)\s+(?=[A-Za-z._~+/=-]*[0-9+/=])[A-Za-z0-9._~+/=-]{8,}",
        rf"\1 {MARK}",
        ("bearer", "basic"),
        0,
        False,
    ),
    # Vendors' token shapes.
    (
        r"\b(?:"
        + "|".join(p.replace(".", r"\.") for p in _PREFIXES)
        + r")(?=[\w=+/.~-]{0,300}?[0-9])[\w=+/.~-]{16,}",
        MARK,
        tuple(p.lower() for p in _PREFIXES),
        0,
        True,
    ),
    (
        r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b",
        MARK,
        ("a3-",),
        0,
        True,
    ),
    (r"(?<![\w~.])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}", MARK, ("q~",), 0, True),
    (
        r"(?i)((?:discord(?:app)?\.com/api/webhooks|\.webhook\.office\.com/webhookb2)/)[^\s\"'`]+",
        rf"\1{MARK}",
        ("/api/webhooks/", "/webhookb2/"),
        0,
        True,
    ),
    (r"\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}", MARK, ("sk-",), 0, True),
    (
        r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
        MARK,
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        0,
        True,
    ),
    (
        r"\bgl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct|sa)-[A-Za-z0-9_.-]{20,}",
        MARK,
        tuple(
            f"gl{kind}-"
            for kind in ("pat", "dt", "ft", "soat", "rt", "cbt", "imt", "ptt", "agent", "oas", "ffct", "sa")
        ),
        0,
        True,
    ),
    (r"\bGR1348941[A-Za-z0-9_-]{20,}", MARK, ("gr1348941",), 0, True),
    (
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
        MARK,
        ("a3t", "akia", "asia", "abia", "acca"),
        0,
        True,
    ),
    # 15 characters may be one: not a token rule.
    (r"\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}", MARK, ("xox", "xapp-"), 0, False),
    (
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}",
        f"hooks.slack.com/{MARK}",
        ("hooks.slack.com/",),
        0,
        True,
    ),
    (r"\bAIza[0-9A-Za-z_-]{30,}", MARK, ("aiza",), 0, True),
    (r"\b(?:sk|rk)_(?:test|live|prod)_[0-9A-Za-z]{10,}", MARK, ("_test_", "_live_", "_prod_"), 0, True),
    (r"\bnpm_[A-Za-z0-9]{36}\b", MARK, ("npm_",), 0, True),
    (r"\bpypi-AgE[A-Za-z0-9_-]{50,}", MARK, ("pypi-age",), 0, True),
    (r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", MARK, ("sg.",), 0, True),
    (r"\b(?:AC|SK)[0-9a-fA-F]{32}\b", MARK, (), 34, True),
    (r"\bhf_[A-Za-z]{34}\b", MARK, ("hf_",), 0, True),
    (r"\bdo[opr]_v1_[a-f0-9]{64}\b", MARK, ("_v1_",), 0, True),
    (r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", MARK, ("shpat_", "shpca_", "shppa_", "shpss_"), 0, True),
    (r"\bdapi[a-f0-9]{32}\b", MARK, ("dapi",), 0, True),
    (r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b", MARK, ("age-secret-key-1",), 0, True),
    (r"\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\b", MARK, (":aa",), 0, True),
    (r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", MARK, ("eyj",), 0, True),
    # Long hex runs (tokens, keys; a pasted 40-hex commit id goes too, on purpose).
    (r"\b[0-9a-fA-F]{32,}\b", MARK, (), 32, True),
    # Long base64-looking runs that mix cases and digits (paths and words do not).
    (
        (
            r"(?<![A-Za-z0-9+/_=-])(?=[A-Za-z0-9+/_-]*[0-9])(?=[A-Za-z0-9+/_-]*[a-z])"
            r"(?=[A-Za-z0-9+/_-]*[A-Z])[A-Za-z0-9+/_-]{32,}={0,2}"
        ),
        MARK,
        (),
        32,
        True,
    ),
)
# `(?s)`: a dot matches a line break too, so a block cut short is cut to the end.
_PATTERNS = tuple(lazy("(?s)" + pattern) for pattern, *_ in _RULES)


def redact(text: str) -> str:
    """`text` without control characters, and with secret-looking values replaced by `[REDACTED]`."""
    text = without_controls(text)
    # The keys are ASCII and lower-cased: for other text, where case-blind matching reaches
    # past ASCII (`K`, the Kelvin sign, matches `k`), every rule runs.
    screen = text.isascii()
    lowered, longest, runs = _screen(text) if screen else ("", 0, "")
    for compiled, (_, replacement, keys, run, token) in zip(_PATTERNS, _RULES, strict=True):
        if screen:
            if token and longest < _TOKEN:
                continue
            within = runs if token else lowered
            if not (run and longest >= run) and not any(key in within for key in keys):
                continue
        changed = compiled.sub(replacement, text)
        if changed != text:
            text = changed
            lowered, longest, runs = _screen(text) if screen else ("", 0, "")
    return text


def _screen(text: str) -> tuple[str, int, str]:
    """The text in lower case, its longest run with no space, and its runs of `_TOKEN` or more."""
    lowered = text.lower()
    words = lowered.split()
    return lowered, max(map(len, words), default=0), " ".join(w for w in words if len(w) >= _TOKEN)


# The C1 controls that open a sequence, and the ESC-letter form of each.
_C1_OPENERS = {"\x9b": "[", "\x9d": "]", "\x90": "P", "\x98": "X", "\x9e": "^", "\x9f": "_"}
_LINE_BREAKS = ("\r", "\u2028", "\u2029")


def _is_control(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F


def without_controls(text: str) -> str:
    """`text` with no C0, DEL or C1 control character but line feed and tab (see the module's note)."""
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        return text  # nearly every text: two passes in C, no loop here
    out: list[str] = []
    at, end = 0, len(text)
    while at < end:
        char = text[at]
        if char in _LINE_BREAKS:
            out.append("\n")
            at += 2 if text.startswith("\r\n", at) else 1
        elif char in "\n\t" or not _is_control(char):
            out.append(char)
            at += 1
        else:
            after = _sequence_end(text, at)
            if after == at:
                out.append("\ufffd")
                after += 1
            at = after
    return "".join(out)


def _sequence_end(text: str, at: int) -> int:
    """Where the escape sequence starting at `at` ends (ECMA-48), or `at` when none starts there."""
    end = len(text)
    if text[at] == "\x1b":
        if at + 1 >= end:
            return at
        kind, rest = text[at + 1], at + 2
    else:
        kind, rest = _C1_OPENERS.get(text[at], ""), at + 1
    if kind == "[":  # CSI: parameters, intermediates, one final byte
        while rest < end and "0" <= text[rest] <= "?":
            rest += 1
        while rest < end and " " <= text[rest] <= "/":
            rest += 1
        return rest + 1 if rest < end and "@" <= text[rest] <= "~" else at
    if kind and kind in "]PX^_":  # a string (a title, a link) up to BEL or ST
        while rest < end:
            char = text[rest]
            if char in "\x07\x9c":
                return rest + 1
            if char == "\x1b":
                return rest + 2 if text.startswith("\\", rest + 1) else at
            if char in "\x18\x1a":  # CAN and SUB cancel it
                return at
            rest += 1
        return at  # never closed: what follows stays, to be seen
    if text[at] != "\x1b":
        return at
    # ESC, intermediates, one final byte: `ESC c` resets the terminal, `ESC ( B` picks a charset.
    rest = at + 1
    while rest < end and " " <= text[rest] <= "/":
        rest += 1
    return rest + 1 if rest < end and "0" <= text[rest] <= "~" else at
