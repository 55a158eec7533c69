"""Builders for real-shaped agent session logs (Claude Code, Codex, Gemini CLI) in tests."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

SESSION = "3f2b8c1e-7d4a-4e59-9a61-0c5d2e8b7a10"

# A model provider that writes the prompt it was given to a file and answers in the BRIEF's shape.
REPLY = """name: pin-bump-with-lockfile
description: Bump a dependency pin and refresh the lock file so the test suite passes.

## When to use
When a dependency pin must move.

## Procedure
1. Change the pin and refresh the lock file.

## Pitfalls
- pytest fails until the lock file is refreshed, and uv lock fails while the pin is stale.

## Verification
Run the declared check (python3 -m pytest) and see it pass.
"""


def recording_model(seen: Path) -> list[str]:
    """A `[model] command` that saves its stdin to `seen` and prints a valid reply."""
    script = (
        "import sys, pathlib; "
        f"pathlib.Path({str(seen)!r}).write_text(sys.stdin.read()); "
        f"sys.stdout.write({REPLY!r})"
    )
    return [sys.executable, "-c", script]


def config_toml(root: Path, text: str, *, trusted: bool = False) -> None:
    """Write the project's `.edgar/config.toml`; `trusted`: and trust it as the person would."""
    path = root / ".edgar" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if trusted:
        trust_config(root)


def trust_config(root: Path, home: Path | None = None) -> None:
    """Trust the project's config as it is now, with `edgar trust` (as a person would); `home`:
    in that user scope's record too, for a test's own `Layout(root, home)`."""
    from edgar_min import trust
    from edgar_min.cli import main
    from edgar_min.layout import Layout

    out, err = io.StringIO(), io.StringIO()
    code = main(["--root", str(root), "trust"], out, err)
    assert code == 0, (code, out.getvalue(), err.getvalue())
    assert "nothing was recorded" not in out.getvalue(), "the config sets no key that needs trust"
    if home is not None:
        trust.record(Layout(root, home), (root / ".edgar" / "config.toml").read_bytes())


def toml_list(items: list[str]) -> str:
    return "[" + ", ".join(json.dumps(i) for i in items) + "]"


REJECTION = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
    "file edit, the new_string was NOT written to the file). "
)
STOP = "STOP what you are doing and wait for the user to tell you how to proceed."
ASKED = "To tell you how to proceed, the user said:\n"


class Claude:
    """Lines of a Claude Code transcript, built the way Claude Code writes them."""

    def __init__(self, session: str = SESSION, sidechain: bool = False, version: str = "2.0.14") -> None:
        self.session = session
        self.sidechain = sidechain
        self.version = version
        self.lines: list[Any] = []
        self.n = 0

    def _base(self, kind: str, **extra: Any) -> dict[str, Any]:
        self.n += 1
        entry = {
            "parentUuid": f"uuid-{self.n - 1}" if self.n > 1 else None,
            "isSidechain": self.sidechain,
            "userType": "external",
            "cwd": "/home/dev/project",
            "sessionId": self.session,
            "version": self.version,
            "gitBranch": "main",
            "type": kind,
            "uuid": f"uuid-{self.n}",
            "timestamp": f"2026-11-30T09:00:{self.n % 60:02d}.000Z",
        }
        entry.update(extra)
        return entry

    def user(self, content: Any, **extra: Any) -> Claude:
        self.lines.append(self._base("user", message={"role": "user", "content": content}, **extra))
        return self

    def assistant(self, *blocks: dict[str, Any], **extra: Any) -> Claude:
        message = {
            "model": "claude-sonnet-4-5",
            "id": f"msg_{self.n}",
            "type": "message",
            "role": "assistant",
            "content": list(blocks),
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }
        self.lines.append(self._base("assistant", message=message, requestId=f"req_{self.n}", **extra))
        return self

    def tool(self, use_id: str, name: str, arguments: dict[str, Any], text: str = "") -> Claude:
        blocks = []
        if text:
            blocks.append({"type": "text", "text": text})
        blocks.append({"type": "tool_use", "id": use_id, "name": name, "input": arguments})
        return self.assistant(*blocks)

    def result(
        self, use_id: str, content: Any, is_error: bool = False, tool_use_result: Any = None
    ) -> Claude:
        block: dict[str, Any] = {"tool_use_id": use_id, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        extra = {} if tool_use_result is None else {"toolUseResult": tool_use_result}
        return self.user([block], **extra)

    def skill(self, use_id: str, name: str, *, older: bool = False) -> Claude:
        """The agent loading a skill with the Skill tool, as Claude Code writes it: the call (input
        `{"skill": NAME}`, or `{"command": NAME}` in older versions), its result "Launching skill: NAME",
        and the meta message with the skill's body (fixtures/transcripts/claude-code-2.1.39-skill-tool.jsonl).
        """
        self.tool(use_id, "Skill", {"command": name} if older else {"skill": name})
        self.result(
            use_id, f"Launching skill: {name}", tool_use_result={"success": True, "commandName": name}
        )
        text = f"Base directory for this skill: /home/dev/.claude/skills/{name}\n\n# {name}\n\nSteps."
        return self.user([{"type": "text", "text": text}], isMeta=True, sourceToolUseID=use_id)

    def reject(self, use_id: str, reason: str | None = None, *, denial_kind: bool = True) -> Claude:
        """A person saying no to a tool call, as Claude Code 2.1 writes it (older: no `toolDenialKind`)."""
        if reason is None:
            text = REJECTION + STOP
            extra: dict[str, Any] = {"toolUseResult": "User rejected tool use"}
        else:
            text = REJECTION + ASKED + reason
            extra = {"toolUseResult": "Error: " + text}
        if denial_kind:
            extra["toolDenialKind"] = "user-rejected"
        block = {"type": "tool_result", "content": text, "is_error": True, "tool_use_id": use_id}
        return self.user([block], **extra)

    def interrupt(self, use_id: str | None = None) -> Claude:
        """Esc: the running call's result (if one runs) and the interruption line."""
        if use_id is not None:
            self.reject(use_id)
            return self.user([{"type": "text", "text": "[Request interrupted by user for tool use]"}])
        return self.user([{"type": "text", "text": "[Request interrupted by user]"}])

    def raw(self, line: Any) -> Claude:
        self.lines.append(line)
        return self

    def write(self, path: Path, tail: str = "") -> Path:
        with path.open("w", encoding="utf-8") as out:
            for line in self.lines:
                out.write(line if isinstance(line, str) else json.dumps(line))
                out.write("\n")
            out.write(tail)
        return path


class Codex:
    """Lines of a Codex CLI rollout (`~/.codex/sessions/.../rollout-*.jsonl`)."""

    def __init__(self, session: str = "0199a3c2-5b7e-7f10-9c3d-2a6e4b8d1f00") -> None:
        self.lines: list[Any] = [
            self._line(
                "session_meta",
                {
                    "id": session,
                    "timestamp": "2026-11-30T09:00:00.000Z",
                    "cwd": "/home/dev/project",
                    "originator": "codex_cli_rs",
                    "cli_version": "0.63.0",
                    "instructions": None,
                    "source": "cli",
                    "model_provider": "openai",
                },
            )
        ]

    @staticmethod
    def _line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": "2026-11-30T09:00:01.000Z", "type": kind, "payload": payload}

    def add(self, kind: str, payload: dict[str, Any]) -> Codex:
        self.lines.append(self._line(kind, payload))
        return self

    def typed(self, text: str) -> Codex:
        self.add(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        )
        return self.add("event_msg", {"type": "user_message", "message": text, "images": []})

    def labelled(self, *parts: tuple[str, str]) -> Codex:
        """A 0.171 user-side message: each part's text with its provenance label (`user`, `harness`,
        `agents_md`, `skills`), as Codex labels them in `content_item_metadata`."""
        meta = {"content_item_metadata": [{"provenance": {"type": label}} for _, label in parts]}
        return self.add(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": text} for text, _ in parts],
                "internal_chat_message_metadata_passthrough": meta,
            },
        )

    def said(self, text: str) -> Codex:
        """A message a person typed, as Codex 0.171 writes it: the labelled response item, then
        the `item_completed` event of its `UserMessage` (no `user_message` event any more)."""
        self.labelled((text, "user"))
        item = {
            "type": "UserMessage",
            "id": "u",
            "content": [{"type": "text", "text": text, "text_elements": []}],
        }
        return self.add(
            "event_msg", {"type": "item_completed", "thread_id": "t", "turn_id": "t", "item": item}
        )

    def named(self, name: str, path: str, body: str = "# Skill\n") -> Codex:
        """The user message Codex adds when the person names a skill (`$NAME`): its file, tagged."""
        text = f"<skill>\n<name>{name}</name>\n<path>{path}</path>\n{body}\n</skill>"
        return self.add(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        )

    def call(self, call_id: str, name: str, arguments: dict[str, Any]) -> Codex:
        return self.add(
            "response_item",
            {"type": "function_call", "name": name, "arguments": json.dumps(arguments), "call_id": call_id},
        )

    def output(self, call_id: str, output: str) -> Codex:
        return self.add(
            "response_item", {"type": "function_call_output", "call_id": call_id, "output": output}
        )

    def write(self, path: Path, tail: str = "") -> Path:
        with path.open("w", encoding="utf-8") as out:
            for line in self.lines:
                out.write(line if isinstance(line, str) else json.dumps(line))
                out.write("\n")
            out.write(tail)
        return path


class Gemini:
    """Records of a Gemini CLI session log (`~/.gemini/tmp/<project>/chats/session-*.jsonl`)."""

    def __init__(self, session: str = "2557d357-ddc6-4c9f-b484-710d4cd97380", kind: str = "main") -> None:
        self.n = 0
        self.lines: list[Any] = [
            {
                "sessionId": session,
                "projectHash": "ab12",
                "startTime": "2026-12-02T05:31:02.513Z",
                "kind": kind,
            },
            {
                "$set": {
                    "messages": [
                        self._message(
                            "user",
                            [{"text": "<session_context>\nThis is the Gemini CLI.\n</session_context>"}],
                        )
                    ]
                }
            },
        ]

    def _message(self, kind: str, content: Any, **extra: Any) -> dict[str, Any]:
        self.n += 1
        return {
            "id": f"m{self.n}",
            "timestamp": "2026-12-02T05:31:03.000Z",
            "type": kind,
            "content": content,
            **extra,
        }

    def user(self, text: str, *, display: str | None = None, hook: str | None = None) -> Gemini:
        """A typed prompt; `hook` is a hook's context, added before it as Gemini CLI adds one."""
        sent = f"<hook_context>{hook}</hook_context>\n\n{text}" if hook else text
        extra = {"displayContent": [{"text": display}]} if display is not None else {}
        self.lines.append(self._message("user", [{"text": sent}], **extra))
        return self

    def call(
        self, name: str, args: dict[str, Any], result: dict[str, Any], status: str = "success"
    ) -> Gemini:
        """A model message that made one call: written bare, then with the call, as Gemini CLI does."""
        message = self._message("gemini", "", model="gemini-3.8-flash")
        self.lines.append(dict(message))
        call_id = f"{name}__{name}_{self.n}"
        response = {"functionResponse": {"id": call_id, "name": name, "response": result}}
        message["toolCalls"] = [
            {
                "id": call_id,
                "name": name,
                "args": args,
                "result": [response],
                "status": status,
                "resultDisplay": "",
            }
        ]
        self.lines.append(message)
        self.lines.append(self._message("user", [response]))
        return self

    def said(self, text: str) -> Gemini:
        self.lines.append(self._message("gemini", text, model="gemini-3.8-flash"))
        return self

    def raw(self, line: Any) -> Gemini:
        self.lines.append(line)
        return self

    def write(self, path: Path) -> Path:
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines), encoding="utf-8")
        return path


def stdin_bytes(monkeypatch, data: bytes) -> None:
    """Give the in-process CLI `data` on stdin (with a `.buffer`, as a real stdin has)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def files_containing(root: Path, needle: str) -> list[str]:
    """Every file under `root` whose bytes contain `needle`."""
    data = needle.encode()
    return [str(p) for p in root.rglob("*") if p.is_file() and data in p.read_bytes()]


def wait_until(predicate, seconds: float = 60.0) -> bool:
    """Whether `predicate()` holds within `seconds` (what the Stop hook left to run after it answered)."""
    import time

    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def recorded_turns(root: Path) -> list[list[str]]:
    """The experience store's turn lines, split into fields (verdict 4, used 5, offered 6, triggers 7)."""
    turns = root / ".edgar" / "experience" / "turns"
    lines = [line for path in sorted(turns.rglob("*.tsv")) for line in path.read_text().splitlines()]
    return [line.split("\t") for line in lines]
