#!/usr/bin/env python3
"""How often the Claude Code, Codex and Gemini CLI adapters take exactly what a person typed.

Usage: python3 bench/bench_adapters.py [--quick] [--show] [LOG_DIR_OR_FILE ...]

Every log is cut before each line a person may have typed, so that each earlier
turn is in turn "the last"; the adapter reads each cut. Its prompt is compared
with an independent reading of the same cut that knows no list of wrappers: it
drops every `<tag>…</tag>` block whose tag name holds `-` or `_` (the way every
harness wrapper is spelled, and no markup a person pastes), Codex's IDE preamble
and the file `codex exec` was piped (its trailing `<stdin>` block), and the messages a
harness writes whole. Codex 0.171 states typed text only as an `item_completed` event of a
`UserMessage`; Gemini CLI's typed text is a user message's shown text (`displayContent`,
else `content`). A correction is real when the log marks
its text as a person's: typed after an interruption, queued while the agent
worked (with a human origin), or the reason of a rejection that Claude Code
wrote in place of a tool's result. With no folder given, the committed samples
under tests/fixtures/transcripts are read. `--show` prints every disagreement.
Run it against another checkout's package with PYTHONPATH=that/checkout.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(HERE.parent))

import edgar_min  # noqa: E402 - after the path is set
from edgar_min.adapters.claude_code import read_transcript  # noqa: E402
from edgar_min.adapters.codex import read_session  # noqa: E402
from edgar_min.adapters.common import tool_table  # noqa: E402
from edgar_min.adapters.gemini import read_session as read_gemini  # noqa: E402
from edgar_min.errors import EdgarError  # noqa: E402

SAMPLES = HERE.parent / "tests" / "fixtures" / "transcripts"
TAGGED = re.compile(r"<([a-z][a-z0-9]*[-_][a-z0-9_-]*)(?:\s[^>]*)?>.*?</\1\s*>", re.DOTALL)
COMMAND = re.compile(r"<command-name>\s*(/?[^<\s]+)\s*</command-name>")
ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)
IMAGE = re.compile(r"<image\b[^>]*>.*?</image>|<image\b[^>]*/?>", re.DOTALL)
WHOLE = (
    "<task-notification>",
    "Caveat: ",
    "This session is being continued",
    "Base directory for this skill:",
)
REQUEST = "## My request for Codex:"


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())


def _text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)


def _load(line: str):
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# Claude Code


def _claude_typed(text: str) -> str | None:
    text = text.strip()
    if not text or text.startswith(WHOLE) or text.startswith("[Request interrupted"):
        return None
    command = COMMAND.search(text)
    if command:
        name = command.group(1) if command.group(1).startswith("/") else "/" + command.group(1)
        args = ARGS.search(text)
        return _norm(f"{name} {args.group(1)}" if args else name)
    left = _norm(TAGGED.sub(" ", text))
    return left or None


def _origin(entry: dict) -> str | None:
    for holder in (entry, entry.get("attachment")):
        if isinstance(holder, dict) and isinstance(holder.get("origin"), dict):
            return holder["origin"].get("kind")
    return None


def claude_oracle(entries: list[dict]) -> tuple[str | None, set[str]]:
    """(the prompt a person typed last, every text the log marks as a person's correction)."""
    prompt, marked, interrupted = None, set(), False
    for e in entries:
        if e.get("isSidechain"):
            continue
        if e.get("type") == "attachment":
            a = e.get("attachment") or {}
            if a.get("type") == "queued_command" and _origin(e) == "human":
                typed = _claude_typed(_text(a.get("prompt")))
                if typed:
                    marked.add(typed)
            continue
        if e.get("type") != "user":
            continue
        content = (e.get("message") or {}).get("content")
        results = (
            [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
            if isinstance(content, list)
            else []
        )
        if results:
            if isinstance(e.get("toolUseResult"), str):
                for b in results:
                    said = _text(b.get("content"))
                    if said.startswith("The user doesn't want to proceed") and "the user said:\n" in said:
                        marked.add(_norm(said.split("the user said:\n", 1)[1]))
            continue
        if e.get("isMeta") or e.get("isCompactSummary") or _origin(e) not in (None, "human"):
            continue
        text = _text(content)
        if text.strip().startswith("[Request interrupted"):
            interrupted = True
            continue
        typed = _claude_typed(text)
        if typed is None:
            continue
        if interrupted and prompt is not None:
            marked.add(typed)
        else:
            prompt = typed
        interrupted = False
    return prompt, marked


def claude_cuts(lines: list[str]) -> list[int]:
    cuts = []
    for i, line in enumerate(lines):
        e = _load(line)
        if e is None or e.get("isSidechain"):
            continue
        content = (e.get("message") or {}).get("content")
        is_result = isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content
        )
        if (e.get("type") == "user" and not is_result) or e.get("type") == "attachment":
            cuts.append(i)
    return [*cuts[1:], len(lines)]


# Codex


def _codex_typed(text: str) -> str | None:
    text = text.strip()
    if REQUEST in text:
        text = text.split(REQUEST, 1)[1]
    text = IMAGE.sub(" ", text)
    if not text.strip() or text.lstrip().startswith(("<", "# AGENTS.md")):
        return None
    return _norm(text) or None


def _codex_event(e: dict) -> str | None:
    """The typed text an event states: `user_message`, or 0.171's `item_completed` `UserMessage`."""
    p = e.get("payload") if isinstance(e.get("payload"), dict) else {}
    if e.get("type") != "event_msg":
        return None
    if p.get("type") == "user_message":
        return p.get("message") or ""
    item = p.get("item") if p.get("type") == "item_completed" else None
    if isinstance(item, dict) and item.get("type") == "UserMessage":
        return "\n".join(c.get("text", "") for c in item.get("content") or [] if c.get("type") == "text")
    return None


def _codex_said(text: str) -> str | None:
    """An event's typed text: no `<` rule (0.171 labels it a person's), the piped file dropped."""
    if text.rstrip().endswith("</stdin>") and "\n\n<stdin>\n" in text:
        text = text[: text.rindex("\n\n<stdin>\n")]
    if REQUEST in text:
        text = text.split(REQUEST, 1)[1]
    return _norm(IMAGE.sub(" ", text)) or None


def codex_oracle(entries: list[dict]) -> tuple[str | None, set[str]]:
    events = any(_codex_event(e) is not None for e in entries)
    prompt, marked, aborted = None, set(), False
    for e in entries:
        kind = e.get("type")
        p = e.get("payload") if isinstance(e.get("payload"), dict) else e
        if kind == "event_msg" and p.get("type") == "turn_aborted":
            aborted = True
            continue
        said = _codex_event(e)
        if events and said is not None:
            typed = _codex_said(said) if p.get("type") == "item_completed" else _codex_typed(said)
        elif not events and p.get("type") == "message" and p.get("role") == "user":
            parts = p.get("content") or []
            typed = _codex_typed(
                "\n".join(
                    x.get("text", "") for x in parts if isinstance(x, dict) and x.get("type") == "input_text"
                )
            )
        else:
            continue
        if typed is None:
            continue
        if aborted and prompt is not None:
            marked.add(typed)
        else:
            prompt = typed
        aborted = False
    return prompt, marked


def codex_cuts(lines: list[str]) -> list[int]:
    entries = [_load(line) or {} for line in lines]
    events = any(_codex_event(e) is not None for e in entries)
    cuts = []
    for i, e in enumerate(entries):
        p = e.get("payload") if isinstance(e.get("payload"), dict) else e
        if (events and _codex_event(e) is not None) or (
            not events and p.get("type") == "message" and p.get("role") == "user"
        ):
            cuts.append(i)
    return [*cuts[1:], len(lines)]


# Gemini CLI


def _gemini_typed(message: dict) -> str | None:
    shown = message.get("displayContent", message.get("content"))
    parts = [shown] if isinstance(shown, (str, dict)) else shown if isinstance(shown, list) else []
    text = "".join(
        p if isinstance(p, str) else p.get("text", "") for p in parts if isinstance(p, (str, dict))
    )
    text = TAGGED.sub("", text).strip()
    if not text or text.startswith(("/", "?")):
        return None
    return _norm(text)


def _gemini_messages(entries: list[dict]) -> list[dict]:
    """Every message a person or the model wrote, once, in the order first written."""
    seen: dict[str, dict] = {}
    for e in entries:
        listed = (e.get("$set") or {}).get("messages") if isinstance(e.get("$set"), dict) else None
        for m in listed if isinstance(listed, list) else [e]:
            if isinstance(m, dict) and isinstance(m.get("id"), str) and m.get("type") in ("user", "gemini"):
                seen.setdefault(m["id"], m)
    return list(seen.values())


def gemini_oracle(entries: list[dict]) -> tuple[str | None, set[str]]:
    typed = [t for m in _gemini_messages(entries) if m["type"] == "user" for t in [_gemini_typed(m)] if t]
    return (typed[-1] if typed else None), set()


def gemini_cuts(lines: list[str]) -> list[int]:
    cuts = []
    for i, line in enumerate(lines):
        e = _load(line) or {}
        if e.get("type") == "user" and isinstance(e.get("id"), str) and _gemini_typed(e):
            cuts.append(i)
    return [*cuts[1:], len(lines)]


# The measurement


def agent_of(lines: list[str]) -> str | None:
    for line in lines[:20]:
        e = _load(line)
        if e is None:
            continue
        if "projectHash" in e or "$set" in e:
            return "gemini"
        if (
            e.get("type") in ("session_meta", "response_item", "event_msg", "turn_context")
            or "instructions" in e
        ):
            return "codex"
        if "sessionId" in e or e.get("type") in ("user", "assistant", "summary", "file-history-snapshot"):
            return "claude-code"
    return None


def measure(paths: list[Path], quick: bool, show: bool) -> dict[str, dict[str, int]]:
    table = tool_table(())
    totals: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        cut_path = Path(scratch) / "cut.jsonl"
        for path in paths:
            lines = _lines(path)
            agent = agent_of(lines)
            if agent is None:
                continue
            t = totals.setdefault(
                agent,
                {"logs": 0, "turns": 0, "right": 0, "wrong": 0, "refused": 0, "corrections": 0, "real": 0},
            )
            t["logs"] += 1
            cuts = {"claude-code": claude_cuts, "codex": codex_cuts, "gemini": gemini_cuts}[agent](lines)
            if quick:
                cuts = cuts[-3:]
            for end in cuts:
                cut_path.write_text("".join(lines[:end]), encoding="utf-8")
                entries = [e for e in map(_load, lines[:end]) if e is not None]
                oracle = {"claude-code": claude_oracle, "codex": codex_oracle, "gemini": gemini_oracle}[agent]
                expected, marked = oracle(entries)
                try:
                    if agent == "claude-code":
                        record = read_transcript(cut_path, table).record
                    elif agent == "gemini":
                        record = read_gemini(str(cut_path), table).record
                    else:
                        record = read_session(cut_path, table).record
                except EdgarError:
                    record = None
                if record is None:
                    if expected is None:
                        t["refused"] += 1
                        continue
                    got = None
                else:
                    got = _norm(record["prompt"])
                t["turns"] += 1
                if got == expected:
                    t["right"] += 1
                else:
                    t["wrong"] += 1
                    if show:
                        print(f"  {path.name} line {end}: took {got!r:.160}\n    typed {expected!r:.160}")
                for correction in record["corrections"] if record else []:
                    t["corrections"] += 1
                    if _norm(correction) in marked:
                        t["real"] += 1
                    elif show:
                        print(
                            f"  {path.name} line {end}: correction not marked a person's: {correction!r:.160}"
                        )
    return totals


def main() -> int:
    args = sys.argv[1:]
    quick, show = "--quick" in args, "--show" in args
    given = [Path(a) for a in args if not a.startswith("--")] or [SAMPLES]
    paths = sorted({p for g in given for p in ([g] if g.is_file() else g.rglob("*.jsonl"))})
    started = time.perf_counter()
    totals = measure(paths, quick, show)
    for agent, t in sorted(totals.items()):
        share = 100 * t["right"] / t["turns"] if t["turns"] else 0.0
        print(
            f"{agent}: {t['logs']} logs, {t['turns']} turns cut: prompt exactly what was typed "
            f"{t['right']}/{t['turns']} ({share:.1f}%), wrong {t['wrong']}; "
            f"corrections marked a person's {t['real']}/{t['corrections']}; "
            f"no typed line (refused, as the reading expects) {t['refused']}"
        )
    package = Path(edgar_min.__file__).parent.parent
    print(f"({len(paths)} files in {time.perf_counter() - started:.1f} s; edgar_min from {package})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
