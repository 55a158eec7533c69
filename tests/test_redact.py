"""Redaction: each secret shape a person might type is replaced, the words around it are kept.

The shapes come from public secret-scanner rule sets (gitleaks `config/gitleaks.toml`, Yelp
detect-secrets `detect_secrets/plugins/`); the values here are made up in those shapes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.redact import MARK, redact

REPO = str(Path(__file__).resolve().parents[1])

FAKE_PGP = (
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQdGBGVfakeKEY\nmaterialONLYfor\nTESTS0123\n=ab12\n"
    "-----END PGP PRIVATE KEY BLOCK-----"
)

# (what a person typed, the value that must go, what must stay)
SHAPES = [
    ("export DB_PASSWORD=hunter2-prod then rerun", "hunter2-prod", "DB_PASSWORD="),
    ("SLACK_BOT_TOKEN=plainvalue42 in the env", "plainvalue42", "SLACK_BOT_TOKEN="),
    ('set {"password": "pa ss\\"word"} in config.json', 'pa ss\\"word', '"password": '),
    ("the client_secret: 'zq-93-kk' expired", "zq-93-kk", "client_secret: "),
    ("AWS_SECRET_ACCESS_KEY = wJalrXUtnFEMIK7MDENGbPxRfiCY", "wJalrXUtnFEMIK7MDENGbPxRfiCY", "AWS_SECRET"),
    ("//registry.npmjs.org/:_authToken=abc123def", "abc123def", "_authToken="),
    ("run mysql --password hunter2 -u root", "hunter2", "--password "),
    ("connect to postgres://admin:CorrectHorse@db.internal:5432/app", "CorrectHorse", "postgres://admin:"),
    ("pip install -i https://bob:s3cret@pypi.example.com/simple pkg", "s3cret", "@pypi.example.com"),
    ("use glpat-AbCdEfGhIjKlMnOpQrSt12 for the api", "glpat-AbCdEfGhIjKlMnOpQrSt12", "for the api"),
    ("runner glrt-AbCdEfGhIjKlMnOpQrSt12 registered", "glrt-AbCdEfGhIjKlMnOpQrSt12", "registered"),
    (f"here is my key {FAKE_PGP} use it", "materialONLYfor", "use it"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n", "b3BlbnNzaC1rZXktdjEAAAAA", ""),
    ("Authorization: Bearer eyJh.abc.def123xyz", "eyJh.abc.def123xyz", "Bearer "),
    ("token ghp_" + "a1B2" * 9 + " works", "ghp_" + "a1B2" * 9, "works"),
    ("xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "AbCdEfGhIjKlMnOpQrStUvWx", ""),
    (
        "hook https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXX",
        "XXXXXXXXXXXXXXXXXXXX",
        "hook",
    ),
    ("stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc now", "4eC39HqLyjWDarjtT1zdp7dc", "now"),
    ("npm_" + "abcdefghij" * 3 + "abcdef is the npm token", "abcdefghij" * 3, "is the npm"),
    (
        "SendGrid SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
        "SG.abcdefghij",
        "SendGrid",
    ),
    ("twilio SK" + "0123456789abcdef" * 2 + " ok", "0123456789abcdef" * 2, "ok"),
    ("hf_" + "abcdefghijklmnopq" * 2 + " for hub", "hf_abcdefghijklmnopq", "for hub"),
    ("bot 123456789:AA" + "b" * 33 + " replies", "b" * 33, "replies"),
    ("AccountKey=" + "Zm9v" * 22 + ";EndpointSuffix=core", "Zm9v" * 22, "EndpointSuffix"),
    ("AKIAIOSFODNN7EXAMPLE is the id", "AKIAIOSFODNN7EXAMPLE", "is the id"),
    ("sk-ant-api03-" + "x1Y2" * 10 + " anthropic", "x1Y2" * 10, "anthropic"),
]
# Shapes scanners flag that once went through whole: each landed in a proposal, the ledger or a log.
MORE_SHAPES = [
    ("curl -u alice:Pw0rd99x https://api.example.com", "Pw0rd99x", "curl -u alice:"),
    ("curl --user alice:Pw0rd99x https://api.example.com", "Pw0rd99x", "--user alice:"),
    ("curl --user=alice:Pw0rd99x https://x", "Pw0rd99x", "--user=alice:"),
    ("curl -u ':d2LkV78zLx!t' https://localhost:9200", "d2LkV78zLx!t", "curl -u ':"),
    ("curl -H 'Authorization: Token 22cb987851bc' https://x", "22cb987851bc", "Authorization: Token "),
    ("send Authorization: ApiKey qwertyuiopasdf", "qwertyuiopasdf", "Authorization: ApiKey "),
    ("Proxy-Authorization: Basic dXNlcjpwYXNz then", "dXNlcjpwYXNz", "then"),
    ('{"Authorization": "Digest c2VjcmV0cGFzcw"}', "c2VjcmV0cGFzcw", '"Authorization": "Digest '),
    ("export DB_PASS=opensesame then migrate", "opensesame", "DB_PASS="),
    ("AWS_CREDS=opensesame ./deploy.sh", "opensesame", "./deploy.sh"),
    ("GCP_CREDENTIALS=opensesame ./deploy.sh", "opensesame", "./deploy.sh"),
    ("MYSQL_PWD=opensesame mysql", "opensesame", "MYSQL_PWD="),
    ("NPM_AUTH=opensesame npm ci", "opensesame", "npm ci"),
    ("STRIPE_KEY=opensesame node app", "opensesame", "node app"),
    ('docker config has "auth": "YWxpY2U6b3BlbnNlc2FtZQ==" in it', "YWxpY2U6b3BlbnNlc2FtZQ==", '"auth": '),
    ("registry:\n  auth: opensesame\n", "opensesame", "registry:"),
    ("redis://:opensesame@cache.internal:6379/0", "opensesame", "@cache.internal"),
    ("https://me@example.com:opensesame@git.example.com/r", "opensesame", "git.example.com"),
    ("machine api.example.com login me password opensesame", "opensesame", "login me password "),
    ("mysql -u root -popensesame shop", "opensesame", "mysql -u root -p"),
    ("sshpass -p opensesame ssh deploy@host", "opensesame", "ssh deploy@host"),
    ("docker login -u me -p opensesame registry.example.com", "opensesame", "registry.example.com"),
    ("Cookie: sessionid=opensesame; csrftoken=abc", "opensesame", "Cookie: "),
    ("GET https://blob.example.net/c/f?sv=2021&sig=opensesame%3D&se=1", "opensesame", "&se=1"),
    ("use lin_api_" + "x1y2" * 10 + " for linear", "x1y2" * 10, "for linear"),
    ("vault hvs." + "k3j9" * 24 + " ok", "k3j9" * 24, "ok"),
    ("dckr_pat_" + "ab1" * 9 + " pushes", "ab1" * 9, "pushes"),
]
SHAPES += MORE_SHAPES


@pytest.mark.parametrize(("typed", "secret", "kept"), SHAPES, ids=[f"shape{i}" for i in range(len(SHAPES))])
def test_each_shape_is_redacted_and_the_context_kept(typed, secret, kept):
    out = redact(typed)
    assert secret not in out
    assert MARK in out
    assert kept in out


@pytest.mark.parametrize(
    "prose",
    [
        "bump the httpx pin",
        "fix the tokenizer: it breaks on emoji",
        "the password reset flow is broken, add tests",
        "basic authentication fails for users",
        "bearer tokens expire after an hour",
        "edit src/auth/token.py: line 40 is wrong",
        "rename secret_santa.py to gifts.py",
        "see https://github.com/org/repo@main for the fix",
        "Token counts: 5 per line",
        "pass --token-file to the cli",
        "make the tests pass: the fixture is stale",
        "the auth: flow is broken after the bypass=1 change",
        "oauth: google, compass=north, sort_key=name",
        "docker run -u 1000:1000 app and git push -u origin main",
        "mkdir -p build and mysql -u root -p shop",
        "the Authorization header is missing",
    ],
)
def test_ordinary_prompts_pass_through_unchanged(prose):
    assert redact(prose) == prose


RECORDER = textwrap.dedent(
    """
    import sys
    prompt = sys.stdin.read()
    open({log!r}, "a").write(prompt)
    print("name: env-setup")
    print("description: Set up the environment so the tests pass.")
    steps = {{
        "When to use": "When the tests need variables the environment does not set.",
        "Procedure": "1. Export the variables the tests read.\\n2. Run the test suite.",
        "Pitfalls": "- pytest fails when a variable set in one shell is gone in the next.",
        "Verification": "The declared check passes.",
    }}
    for title, text in steps.items():
        print("## " + title)
        print(text)
    """
)


def test_a_typed_secret_reaches_no_file_and_no_model_prompt(edgar, tmp_path):
    """Every shape at once, through `learn` with a recording model: nothing anywhere holds a value."""
    root = tmp_path / "proj"
    root.mkdir()
    log = tmp_path / "model-saw.txt"
    script = tmp_path / "model.py"
    script.write_text(RECORDER.format(log=str(log)))
    secrets = [s for _, s, _ in SHAPES]
    turn = {
        "prompt": " ; ".join(t for t, _, _ in SHAPES[:13]),
        "corrections": [t for t, _, _ in SHAPES[13:]],
        "tools": ["shell", "edit", "shell"],
        "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
        "verification": "passed",
    }
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    command = [
        "--set",
        "model.provider=command",
        "--set",
        f"model.command={json.dumps([sys.executable, str(script)])}",
    ]
    # The offline writer quotes the turn into the proposal; the recording model sees the outline.
    for n, (model, mode) in enumerate([((), "propose"), (command, "propose"), (command, "auto")]):
        args = ["--root", str(root), *model, "--set", f"skills.synthesis={mode}"]
        result = edgar(*args, "learn", str(tmp_path / "turn.json"), "--session", f"s-{n}")
        assert result.code == 0, result
    assert len(list((root / ".edgar" / "proposals").glob("*/SKILL.md"))) >= 1
    assert edgar("--root", str(root), "skills", "accept", "env-setup").code in {0, 1}
    seen = log.read_text()
    assert "corrections a human typed" in seen  # the outline did reach the model
    written = {p: p.read_bytes().decode("utf-8", "replace") for p in root.rglob("*") if p.is_file()}
    assert any("versions" in str(p) for p in written)
    assert any("experience" in str(p) for p in written)
    assert (root / ".edgar" / "ledger.jsonl").is_file()
    for secret in secrets:
        assert secret not in seen, secret
        for path, text in written.items():
            assert secret not in text, (secret, path)


FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures" / "secrets" / "detect-secrets"
# The values detect-secrets' own plugins flag in its test data, by file.
FLAGGED = {
    "each_secret.py.txt": [
        "YW1pYWx3YXlzZ2VuZXJhdGluZ3BheWxvYWRzd2hlbmltaHVuZ3J5b3JhbWlhbHdheXNodW5ncnk",
        "c2VjcmV0IG1lc3NhZ2Ugc28geW91J2xsIG5ldmVyIGd1ZXNzIG15IHBhc3N3b3Jk",
        "8b1118b376c313ed420e5133ba91307817ed52c2",
        "whywouldyouusehttpforpasswords",
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ],
    "config.ini": ["123456789a1234", "23456789a1", "vh987tyw9ehy8ghis7vwyhiwbwitefy7w3ASDGYDGUASDG"],
    "file_with_secrets.py.txt": [
        "c3VwZXIgbG9uZyBzdHJpbmcgc2hvdWxkIGNhdXNlIGVub3VnaCBlbnRyb3B5",
        "f6CGV4aMM9zedoh3OUNbSakBymo7yplB",
    ],
    "private_key": ["somethingSuperRandomAndSecretHereThatShouldNeverBeShared"],
}


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_the_values_a_public_scanner_flags_in_its_test_data_are_redacted(name):
    text = (FIXTURES / name).read_text()
    out = redact(text)
    for value in FLAGGED[name]:
        assert value in text
        assert value not in out, value
    if name == "each_secret.py.txt":
        assert "red_herring = 'DEADBEEF'" in out  # short hex that is not a secret stays
        assert "basic_auth = [REDACTED]" in out  # a name that ends in `_auth` takes its whole value


def _every_rule(text):
    """Redaction with no rule passed over: what `redact` must equal."""
    import re

    from edgar_min.redact import _RULES, without_controls

    text = without_controls(text)
    for pattern, replacement, *_screened in _RULES:
        text = re.compile(pattern, re.DOTALL).sub(replacement, text)
    return text


_FRAGMENTS = [typed for typed, _, _ in SHAPES] + [
    "password",
    "PASSWD",
    "Token",
    "api_key",
    "--secret",
    "bearer",
    "Basic",
    "://",
    "@",
    "=",
    ": ",
    "-----BEGIN RSA PRIVATE KEY-----",
    "sk-",
    "ghp_",
    "AKIA",
    "xoxb-",
    "SG.",
    "hf_",
    ":AA",
    "eyJ",
    "0123456789abcdef",
    "AbCdEfGh12345678",
    "\u212a",  # the Kelvin sign, which case-blind matching takes for k
    "\u017f",  # the long s, taken for s
    "\u0130",  # capital I with a dot
    " ",
    "\n",
    "bump the httpx pin",
    # a word or prefix of every rule, written out here so the test does not lean on the rules' own lists
    "credentials",
    "passphrase",
    "pwd",
    "client_secret",
    "signing-key",
    "glpat-",
    "gldt-",
    "glagent-",
    "GR1348941",
    "A3TX",
    "ASIA",
    "xapp-1-",
    "hooks.slack.com/services/",
    "AIza",
    "sk_test_",
    "rk_live_",
    "npm_",
    "pypi-AgE",
    "dop_v1_",
    "shpss_",
    "dapi",
    "AGE-SECRET-KEY-1",
    "github_pat_",
    "0123456789",
]


@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=12)), max_size=12))
@settings(max_examples=400, deadline=None)
def test_passing_over_rules_that_cannot_match_changes_nothing(parts):
    for joiner in ("", " "):
        text = joiner.join(parts)
        assert redact(text) == _every_rule(text)


def test_a_prompt_with_no_secret_shape_compiles_no_pattern():
    script = textwrap.dedent(
        """
        import sys
        from edgar_min.redact import redact
        assert redact("list the files in src and fix the failing test") == (
            "list the files in src and fix the failing test"
        )
        print("re" in sys.modules)
        """
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", f"import sys; sys.path.insert(0, {REPO!r})\n" + script],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "False\n"), done.stderr


# One secret in each rule's shape (made up), in a short ASCII prompt: the screen that passes
# over rules must never pass over the one that matches.
EVERY_RULE = [
    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIfakefakefake\n-----END EC PRIVATE KEY-----",
    "clone https://me:pa55word@git.example.com/repo",
    "set credentials=opensesame99 now",
    "run it with --passphrase opensesame99",
    "curl -H 'Authorization: Bearer abc.def/1234567'",
    "sk-proj-" + "a1" * 10,
    "github_pat_" + "Abcd" * 6,  # no digit: the base64 rule would take it too
    "glagent-" + "x1" * 11,
    "GR1348941" + "q1" * 11,
    "ASIA" + "ABCDEFGH12345678",
    "xapp-1-" + "A1" * 6,
    "post to hooks.slack.com/workflows/" + "T0" * 11,
    "AIza" + "Syabcdefghijklmnopqrstuvwxyzabcd",
    "rk_prod_" + "a1b2c3d4e5f6",
    "npm_" + "a1" * 18,
    "pypi-AgE" + "Ix" * 26,
    "SG." + "a1" * 9 + "." + "b2" * 9,
    "SK" + "0123456789abcdef" * 2,
    "hf_" + "ab" * 17,
    "dor_v1_" + "0a" * 32,
    "shpss_" + "0123456789abcdef" * 2,
    "dapi" + "0123456789abcdef" * 2,
    "AGE-SECRET-KEY-1" + "QZ" * 29,
    "1234567890:AA" + "b" * 33,
    "eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl",
    "deadbeef" * 5,
    "Zm9vYmFy" + "QUJDREVGR0g5" * 3,
    "-H 'Authorization: Token abcdefgh'",
    "Cookie: sid=abcdefgh",
    "curl -u bob:abcdefgh",
    "machine h login bob password abcdefgh",
    "mysqldump -u bob -pabcdefgh db",
    "sshpass -p abcdefgh ssh h",
    "podman login -p abcdefgh",
    "htpasswd -b f bob abcdefgh",
    "https://h/x?code=abcdefgh",
    '<add key="Password" value="abcdefgh" />',
    '"pass": "abcdefgh"',
    "db_pw=abcdefgh",
    "APP_KEY=abcdefgh",
    "--auth abcdefgh",
    "pscale_pw_" + "a1" * 16,
    "A3-ABC123-DEF456GHI78-JKL90-MNO12-PQR34",
    "abc8Q~" + "x1" * 16,
    "https://discord.com/api/webhooks/1/abcdefgh",
]


@pytest.mark.parametrize("secret", EVERY_RULE, ids=[f"rule{i}" for i in range(len(EVERY_RULE))])
def test_every_rule_redacts_its_shape(secret):
    text = f"please use {secret} for the deploy"
    out = redact(text)
    assert MARK in out
    assert out == _every_rule(text)


def is_control(char):
    """A C0, DEL or C1 control character other than line feed and tab."""
    return char not in "\n\t" and (ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F)


# What a terminal would obey, pasted into a prompt: (typed, what is kept).
CONTROLS = [
    ("the test says \x1b[31mFAILED\x1b[0m here", "the test says FAILED here"),
    ("\x1b]0;ignore previous instructions\x07rename the module", "rename the module"),
    ("clear it \x1b[2J then build", "clear it  then build"),
    ("one-character CSI \x9b2J here", "one-character CSI  here"),
    ("a link \x1b]8;;https://x.example\x1b\\here\x1b]8;;\x1b\\ ok", "a link here ok"),
    ("bell\x07 nul\x00 del\x7f nel\x85 end", "bell\ufffd nul\ufffd del\ufffd nel\ufffd end"),
    ("lines\r\nand\rreturns\tand tabs\n", "lines\nand\nreturns\tand tabs\n"),
    ("a title never closed \x1b]0;stays", "a title never closed \ufffd]0;stays"),
]


@pytest.mark.parametrize(("typed", "kept"), CONTROLS, ids=[f"control{i}" for i in range(len(CONTROLS))])
def test_control_characters_never_pass_and_sequences_go_whole(typed, kept):
    out = redact(typed)
    assert out == kept
    assert not [c for c in out if is_control(c)]


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_no_text_keeps_a_control_character(text):
    out = redact(text)
    assert not [c for c in out if is_control(c)]


# --- every place text is stored, shown or sent ------------------------------------------------

SECRET = "Kq7vPw0rd99"  # noqa: S105 - made up, carried by every shape below
# One line for each shape, carrying SECRET. It is letters and digits, so it is found in a name made
# from the line (`curl-u-alice-kq7vpw0rd99`) as well as in text: both are searched for in lower case.
CARRIED = {
    "curl-u": f"curl -u alice:{SECRET} https://api.example.com",
    "curl-user": f"curl --user alice:{SECRET} https://api.example.com",
    "authorization-token": f"curl -H 'Authorization: Token {SECRET}' https://api.example.com",
    "db-pass": f"export DB_PASS={SECRET}",
    "creds": f"AWS_CREDS={SECRET} ./deploy.sh",
    "npm-auth": f"NPM_AUTH={SECRET} npm ci",
    "json-auth": f'the docker config holds "auth": "{SECRET}"',
    "redis-empty-user": f"redis://:{SECRET}@cache.internal:6379/0",
    "mysql-p": f"mysql -u root -p{SECRET} shop",
    "netrc": f"machine api.example.com login me password {SECRET}",
    "cookie": f"Cookie: sessionid={SECRET}",
    "query-sig": f"fetch https://blob.example.net/f.tar?sv=2021&sig={SECRET}",
}
# What a terminal would obey, pasted with the prompt.
CONTROL_LINE = "the build prints \x1b[31mFAILED\x1b[0m \x1b]0;pwned\x07 then \x1b[2J and \x9b2J"
HAND_SKILL = """---
name: deploy-service
description: Deploy the service to the staging server and check that it answers.
---

## When to use
When the service must be deployed to the staging server.

## Procedure
1. Build the release.
2. Deploy it and check the health endpoint.

## Pitfalls
- A stale build deploys the old code.

## Verification
The health endpoint answers.
"""
# A model that keeps what it was sent and answers with a skill that echoes it (a reply the walls
# refuse, so that the refusal, the kept reply and the rejection log are searched too).
ECHO_MODEL = textwrap.dedent(
    """
    import sys
    sent = sys.stdin.read()
    open({log!r}, "a").write(sent)
    echo = " ".join(sent.split())[:3000]
    print("name: deploy-service-release")
    print("description: Deploy the service release. " + echo[:200])
    for title in ("When to use", "Procedure", "Pitfalls", "Verification"):
        print("## " + title)
        print(echo)
    """
)


class Recorder:
    """A loopback OpenAI-compatible server for SemIf, started when first asked for: it keeps every
    request and answers option A."""

    def __init__(self):
        self.bodies: list[str] = []
        self.server = None

    @property
    def base_url(self):
        if self.server is None:
            self._start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _start(self):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                recorder.bodies.append(raw.decode("utf-8", "replace"))
                top = [{"token": "A", "logprob": -0.1}, {"token": "B", "logprob": -2.5}]
                choice = {"message": {"content": "A"}, "logprobs": {"content": [{"top_logprobs": top}]}}
                data = json.dumps({"choices": [choice]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self):
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


@pytest.fixture
def recorder():
    server = Recorder()
    yield server
    server.close()


def _turn(line):
    return {
        "prompt": f"{line} then deploy the service",
        "corrections": [f"no, first {line}"],
        "tools": ["shell", "edit", "shell"],
        "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
        "verification": "passed",
    }


def _claude(line, path):
    from transcripts import Claude

    t = Claude().user(f"{line} then deploy the service")
    t.skill("s1", "deploy-service")
    t.tool("t1", "Bash", {"command": "pytest -q"}).result("t1", "Exit code 1\n2 failed", is_error=True)
    t.tool("t2", "Bash", {"command": "make deploy"}).reject("t2", f"no, first {line}")
    t.tool("t3", "Bash", {"command": "pytest -q"}).result("t3", "3 passed")
    t.assistant({"type": "text", "text": "Done."})
    return t.write(path)


def _openai_semif(recorder):
    """The flags that send SemIf decisions to `recorder` (flags a person gives are trusted)."""
    base = f"semif.base_url={recorder.base_url}"
    return ("--set", "semif.engine=openai", "--set", base, "--set", "semif.model=m")


def _learn_offline(edgar, root, side, line, **_):
    (side / "turn.json").write_text(json.dumps(_turn(line)))
    shown = [edgar("--root", str(root), "learn", str(side / "turn.json"))]
    proposals = (root / ".edgar" / "proposals").glob("*/SKILL.md")
    return shown + [edgar("--root", str(root), "skills", "accept", p.parent.name) for p in proposals]


def _learn_model(edgar, root, side, line, **_):
    (side / "model.py").write_text(ECHO_MODEL.format(log=str(side / "sent.txt")))
    (side / "turn.json").write_text(json.dumps(_turn(line)))
    model = [
        "--set",
        "model.provider=command",
        "--set",
        f"model.command={json.dumps([sys.executable, str(side / 'model.py')])}",
    ]
    shown = [edgar("--root", str(root), *model, "learn", str(side / "turn.json"))]
    listing = edgar("--root", str(root), "skills", "rejections")
    return [*shown, listing]


def _learn_claude_code(edgar, root, side, line, **_):
    return [
        edgar("--root", str(root), "learn", "--from", "claude-code", str(_claude(line, side / "t.jsonl")))
    ]


def _stop_hook(edgar, root, side, line, monkeypatch, **_):
    from transcripts import SESSION, stdin_bytes

    payload = {
        "session_id": SESSION,
        "transcript_path": str(_claude(line, side / "t.jsonl")),
        "hook_event_name": "Stop",
    }
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    return [edgar("--root", str(root), "hook", "stop")]


def _prompt_hook(edgar, root, side, line, monkeypatch, recorder, **_):
    from transcripts import SESSION, stdin_bytes

    shown = []
    engines = [(), _openai_semif(recorder)]
    for engine in engines:
        payload = {
            "session_id": SESSION,
            "prompt": f"{line} then deploy the service",
            "hook_event_name": "UserPromptSubmit",
        }
        stdin_bytes(monkeypatch, json.dumps(payload).encode())
        shown.append(edgar("--root", str(root), *engine, "hook", "user-prompt-submit"))
    return shown


def _learn_codex(edgar, root, side, line, **_):
    from transcripts import Codex

    rollout = Codex().typed(f"{line} then deploy the service")
    rollout.call("c1", "exec_command", {"cmd": "pytest -q"})
    rollout.output("c1", "Process exited with code 1\nOutput:\n2 failed")
    rollout.call("c2", "exec_command", {"cmd": "pytest -q"}).output(
        "c2", "Process exited with code 0\nOutput:\n3 passed"
    )
    passing = ["--set", f"check.command={json.dumps([sys.executable, '-c', 'pass'])}"]
    path = str(rollout.write(side / "r.jsonl"))
    return [edgar("--root", str(root), *passing, "learn", "--from", "codex", path, "--check")]


def _decide_and_relabel(edgar, root, side, line, recorder, **_):
    shown = []
    engines = [(), _openai_semif(recorder)]
    for engine in engines:
        asked = edgar(
            "--root", str(root), *engine, "--json", "decide", "--state", f"{line} then deploy the service",
            "--question", f"Is this safe? {line}", "--option", f"safe={line}", "--option", "unsafe=No.",
        )  # fmt: skip
        shown.append(asked)
        decision = asked.json()["id"]
        shown.append(
            edgar("--root", str(root), "decisions", "relabel", decision, "--outcome", f"it was {line}")
        )
    return shown


def _teach_and_suggest(edgar, root, side, line, **_):
    return [
        edgar("--root", str(root), "skills", "teach", "deploy-service", f"{line} then deploy the service"),
        edgar("--root", str(root), "skills", "suggest", f"{line} then deploy the service"),
        edgar("--root", str(root), "skills", "examples"),
    ]


# Each path: what it printed. The paths that ask a model are marked so, below.
PATHS = {
    "learn": _learn_offline,
    "learn-model": _learn_model,
    "learn-claude-code": _learn_claude_code,
    "stop-hook": _stop_hook,
    "prompt-hook": _prompt_hook,
    "learn-codex": _learn_codex,
    "decide": _decide_and_relabel,
    "teach-suggest": _teach_and_suggest,
}
ASKS_A_MODEL = {"learn-model", "prompt-hook", "decide"}


def _written(*folders):
    """Every file under `folders`: its path and its text (both searched)."""
    return {
        p: p.read_bytes().decode("utf-8", "replace")
        for f in folders
        for p in Path(f).rglob("*")
        if p.is_file()
    }


def _run_path(path, edgar, tmp_path, monkeypatch, recorder, line):
    root, side = tmp_path / "proj", tmp_path / "side"
    (root / ".edgar" / "skills" / "deploy-service").mkdir(parents=True)
    (root / ".edgar" / "skills" / "deploy-service" / "SKILL.md").write_text(HAND_SKILL)
    side.mkdir()
    shown = PATHS[path](edgar, root, side, line, monkeypatch=monkeypatch, recorder=recorder)
    sent = [*recorder.bodies]
    if (side / "sent.txt").exists():
        sent.append((side / "sent.txt").read_text())
    written = _written(root, os.environ["EDGAR_HOME"])
    return shown, sent, written


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("shape", sorted(CARRIED))
def test_each_shape_reaches_no_file_name_output_or_model_request_by_any_path(
    edgar, tmp_path, monkeypatch, recorder, path, shape
):
    shown, sent, written = _run_path(path, edgar, tmp_path, monkeypatch, recorder, CARRIED[shape])
    assert any("deploy the service" in text for text in written.values()), "the line was kept nowhere"
    assert sent or path not in ASKS_A_MODEL, "no model request was captured"
    needle = SECRET.lower()
    for result in shown:
        assert needle not in (result.out + result.err).lower(), result
    for text in sent:
        assert needle not in text.lower()
    for file, text in written.items():
        assert needle not in str(file).lower(), file
        assert needle not in text.lower(), (file, text[:500])


@pytest.mark.parametrize("path", sorted(PATHS))
def test_no_control_character_reaches_a_file_by_any_path(edgar, tmp_path, monkeypatch, recorder, path):
    _, sent, written = _run_path(path, edgar, tmp_path, monkeypatch, recorder, CONTROL_LINE)
    assert any("FAILED" in text for text in written.values()), "the line was kept nowhere"
    for file, text in written.items():
        assert not [c for c in text if is_control(c)], file
        # Nor escaped in JSON, to come back whole when the file is read.
        for escaped in ("\\u001b", "\\u009b", "\\u0007"):
            assert escaped not in text, (file, escaped)
    for text in sent:
        assert "\\u001b" not in text
        assert not [c for c in text if is_control(c)]
