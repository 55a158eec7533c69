"""`edgar doctor [--network]`: what edgar would do here, and what needs a person's attention.

It reads and changes nothing, with one exception: a temp file that a killed write
left behind (`.NAME.PID.THREAD.tmp`) anywhere in the project's `.edgar/` and
`data/` or the person's own edgar folder is removed, and named, when that is
safe, meaning the process named in it is no longer running here (or was killed
and not yet reaped), or the file is over an hour old (a write takes
milliseconds), and it is a plain file reached without a link.
Only `--network` reaches out to the configured provider; the configured SemIf
engine is asked one tiny decision when its server is on this machine, and with
`--network` wherever it is. Exit 0 when healthy, 1 when something needs
attention. No key is ever shown: only the name of the variable it is read from,
and whether it is set; a password in a URL, or a secret in the model command, is
shown as `[REDACTED]`.
"""

from __future__ import annotations

import os

from edgar_min.cli.quick import Option, Spec
from edgar_min.invocation import program

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any, Literal

    from edgar_min.cli.context import Context
    from edgar_min.config import Config
    from edgar_min.layout import Layout

    # What walking from the root to one of edgar's places found there.
    Reached = Literal["folder", "file", "missing", "refused"]

__all__ = ["diagnose", "register"]

NETWORK_SYSTEM = "You are a health check. Reply with the single word: ok"


# The doctor reports a broken config itself instead of stopping on it.
DOCTOR = Spec(
    options=(Option("--network", "network", "also send one tiny request to the provider", value=False),),
    defaults=(("needs_config", False),),
)


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("doctor", help="check the setup: mode, provider, config, skills, store")
    DOCTOR.add_to(p, cmd_doctor)


def _model(config: Config, environ: dict[str, str], attention: list[str]) -> tuple[dict[str, Any], Any]:
    from edgar_min.errors import EdgarError
    from edgar_min.models import get_provider
    from edgar_min.redact import redact

    model = config.model
    report: dict[str, Any] = {"provider": model.provider, "name": model.name, "problem": None}
    try:
        provider = get_provider(model, environ)
    except EdgarError as exc:
        report["problem"] = exc.message
        attention.append(f"model: {exc.message}")
        return report, None
    for attr in ("url", "base_url_source", "key_env"):
        if hasattr(provider, attr):
            report[attr] = getattr(provider, attr)
    if "url" in report:
        # A base URL may carry a password (`https://user:pass@host`): shown masked, never as set.
        report["url"] = redact(report["url"])
    if hasattr(provider, "has_key"):
        report["key_set"] = bool(provider.has_key)
    if hasattr(provider, "command"):
        report["command"] = [redact(part) for part in provider.command]
    return report, provider


def _skills(layout: Layout, attention: list[str]) -> dict[str, Any]:
    from edgar_min.skills.discovery import discover
    from edgar_min.skills.validation import validate_file

    index = discover(layout)
    problems = list(index.problems)
    every = list(index.skills.values()) + [loser for loser, _ in index.shadowed]
    for skill in every:
        # Discovery knows where each skill sits: no need to resolve every path again to tell.
        problems += validate_file(skill.path, skill.origin)
    attention.extend(f"skill: {problem}" for problem in problems)
    return {
        "count": len(index.skills),
        "hand": sum(1 for s in index.skills.values() if s.origin == "hand"),
        "learned": sum(1 for s in index.skills.values() if s.origin == "learned"),
        "problems": problems,
        "shadowed": [
            {"name": lo.name, "path": layout.relative(lo.path), "hidden_by": layout.relative(w.path)}
            for lo, w in index.shadowed
        ],
    }


def _histories(layout: Layout, every: int) -> list[dict[str, Any]]:
    from edgar_min.errors import EdgarError
    from edgar_min.learning.observations import read_history
    from edgar_min.skills.names import name_problem

    found = []
    try:
        files = sorted(n for n in os.listdir(layout.history) if n.endswith(".md"))
    except OSError:
        return found
    for file in files:
        name = file[: -len(".md")]
        if name_problem(name):
            continue
        try:
            history = read_history(layout, name)
        except (EdgarError, OSError):
            continue
        count = len(history.lines)
        until = (every - count % every) if every > 0 else None
        found.append(
            {
                "skill": name,
                "lines": count,
                "skipped": history.garbage,
                "until_distill": until,
                "near": until is not None and count > 0 and until <= 1,
            }
        )
    return found


# A temp file this much older than now cannot belong to a write still under way.
TEMP_STALE_S = 3600.0


def _places(layout: Layout, attention: list[str]) -> dict[str, Any]:
    """Links and misplaced files where edgar writes, and temp files killed writes left in its folders."""
    import stat
    import time

    from edgar_min.atomic import remove_tree, temp_file_pid
    from edgar_min.errors import EdgarError

    found: dict[str, list[str]] = {"links": [], "misplaced": [], "temp_removed": [], "temp_kept": []}
    owned = [
        place
        for base, places in ((layout.root, layout.machine_owned), (layout.state, layout.state_owned))
        for place in places
        if _reach(layout, base, place, found) == "folder"
    ]
    # A killed write may have been in any folder edgar writes in: all of the project's `.edgar/`
    # (hand skills and the config too), `data/`, and the person's own edgar folder (its state
    # folders included). A link is reported only inside the places edgar fills on its own: a
    # hand skill may be a link.
    walked: list[str] = []
    now = time.time()
    for folder, root in (
        (layout.edgar, layout.root),
        (os.path.join(layout.root, "data"), layout.root),
        (layout.home, layout.home),
    ):
        if not os.path.isdir(folder) or os.path.islink(folder):
            continue
        real = os.path.realpath(folder)
        if any(real == w or real.startswith(w + os.sep) for w in walked):
            continue  # the person's folder is the project's `.edgar/` when the project is their home
        walked.append(real)
        for top, dirs, files in os.walk(folder):
            for name in sorted(dirs + files):
                path = os.path.join(top, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                if stat.S_ISLNK(st.st_mode):
                    if any(path.startswith(place + os.sep) for place in owned):
                        found["links"].append(_link_line(layout, path))
                    continue
                pid = temp_file_pid(name)
                if pid is None or not stat.S_ISREG(st.st_mode):
                    continue
                shown = layout.relative(path)
                if _leftover(pid, st.st_mtime, now):
                    try:
                        remove_tree(path, root=root)
                    except (OSError, EdgarError):
                        found["temp_kept"].append(shown)
                    else:
                        found["temp_removed"].append(shown)
                else:
                    found["temp_kept"].append(shown)
    attention.extend(
        f"link: {line}; edgar refuses to write through it (replace it with a real folder or file)"
        for line in found["links"]
    )
    attention.extend(f"misplaced: {line}; edgar refuses to write there" for line in found["misplaced"])
    attention.extend(
        f"temp file: {shown} may belong to a write still running; left alone" for shown in found["temp_kept"]
    )
    return found


def _reach(layout: Layout, base: str, place: str, found: dict[str, list[str]]) -> Reached:
    """Walk from `base` (the root, or the state folder) to `place` without following links,
    noting a link or a misplaced file."""
    import stat

    is_file = place.endswith(".jsonl")
    current = base
    parts = os.path.relpath(place, base).split(os.sep)
    for at, part in enumerate(parts, 1):
        current = os.path.join(current, part)
        try:
            st = os.lstat(current)
        except OSError:
            return "missing"
        shown = layout.relative(current)
        if stat.S_ISLNK(st.st_mode):
            line = _link_line(layout, current)
            if line not in found["links"]:
                found["links"].append(line)
            return "refused"
        last = at == len(parts)
        if not last and not stat.S_ISDIR(st.st_mode):
            line = f"{shown} is a file where edgar keeps a folder"
            if line not in found["misplaced"]:
                found["misplaced"].append(line)
            return "refused"
        if last and is_file and not stat.S_ISREG(st.st_mode):
            found["misplaced"].append(f"{shown} is not a plain file where edgar keeps a log")
            return "refused"
        if last and not is_file and not stat.S_ISDIR(st.st_mode):
            found["misplaced"].append(f"{shown} is a file where edgar keeps a folder")
            return "refused"
    return "file" if is_file else "folder"


def _link_line(layout: Layout, path: str) -> str:
    try:
        target = f" (to {os.readlink(path)})"
    except OSError:
        target = ""
    return f"{layout.relative(path)} is a symbolic link{target}"


def _derived(layout: Layout, attention: list[str]) -> dict[str, Any]:
    """Where this person's derived data for the project is, whether only they can read it, and what
    a checkout holds at the places in the tree where it once was (ignored)."""
    import stat

    try:
        mode = stat.S_IMODE(os.stat(layout.state).st_mode)
    except OSError:
        mode = None
    if mode is not None and mode & 0o077:
        attention.append(
            f"derived data: {layout.state} can be read by other users (mode {mode:o}); "
            f"`chmod 700 {layout.state}` makes it yours alone"
        )
    return {
        "state": layout.state,
        "mode": None if mode is None else f"{mode:o}",
        "ignored": [layout.relative(p) for p in layout.former_state if os.path.lexists(p)],
    }


def _leftover(pid: int, mtime: float, now: float) -> bool:
    """True when no running write can own a temp file: its process is gone, or it is stale."""
    if now - mtime > TEMP_STALE_S or pid <= 0:
        return True
    if pid == os.getpid() or os.name != "posix":
        # On Windows os.kill(pid, 0) would end that process, not probe it: age alone decides.
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, OSError):
        return False
    return _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether `pid` was killed and waits only for its parent to read its status (Linux's `/proc`)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    # The state follows the command name, which ends at the last ')' and may hold anything.
    at = stat.rfind(b")")
    return stat[at + 2 : at + 3] == b"Z"


def _count_lines(path: object) -> int:
    from edgar_min.logfile import open_plain

    try:
        handle = open_plain(str(path))
    except OSError:
        return 0
    if handle is None:
        return 0
    with handle:
        return sum(1 for line in handle if line.strip())


def _network(provider: Any) -> dict[str, Any]:
    import time

    from edgar_min.errors import EdgarError

    if provider is None:
        return {"ok": False, "message": "not tried: the provider could not be set up"}
    if provider.name == "offline":
        return {"ok": True, "message": "the offline provider needs no network"}
    started = time.monotonic()
    schema = None
    try:
        if hasattr(provider, "complete_object"):
            # The one request asks under a JSON schema; a server that refuses it is asked in text.
            from edgar_min.models import probe_schema

            supported, schema = probe_schema(provider)
            reply = "" if supported else provider.complete(NETWORK_SYSTEM, "ok?")
        else:
            reply = provider.complete(NETWORK_SYSTEM, "ok?")
    except EdgarError as exc:
        return {"ok": False, "message": exc.message, "seconds": round(time.monotonic() - started, 3)}
    seconds = round(time.monotonic() - started, 3)
    message = f"answered in {seconds:g} s" + (f" ({len(reply)} characters)" if reply else "")
    return {"ok": True, "message": message, "seconds": seconds, "schema": schema}


# What the SemIf check asks: one decision of one token, the same everywhere.
SEMIF_PROBE = (
    "The sky is clear and blue today.",
    "Is the sky blue?",
    (("yes", "It is."), ("no", "It is not.")),
)


def _semif(config: Config, environ: dict[str, str], network: bool, attention: list[str]) -> dict[str, Any]:
    """The configured SemIf engine: where it is, and whether it answers one decision and how it reads it.

    A server on this machine is asked whenever doctor runs; one elsewhere only with `--network`.
    """
    import time

    from edgar_min.errors import EdgarError
    from edgar_min.models.http import shown_url
    from edgar_min.semif import DecisionRequest, get_engine, readout

    semif = config.semif
    found: dict[str, Any] = {
        "engine": semif.engine,
        "model": semif.model or None,
        "url": None,
        "checked": False,
        "ok": None,
        "readout": None,
        "transport": None,
        "seconds": None,
        "problem": None,
    }
    try:
        engine = get_engine(semif, environ)
    except EdgarError as exc:
        found["ok"], found["problem"] = False, exc.message
        attention.append(f"semif: {exc.message}")
        return found
    url = getattr(engine, "url", None) or getattr(engine, "base_url", None)
    found["url"] = shown_url(url) if url else None
    if url and not network and not _on_this_machine(url):
        return found
    started = time.monotonic()
    try:
        result = engine.call(DecisionRequest(*SEMIF_PROBE))
    except EdgarError as exc:
        found.update(checked=True, ok=False, problem=exc.message)
        attention.append(f"semif: {exc.message}")
        return found
    found.update(
        checked=True,
        ok=True,
        readout=readout(result),
        transport=getattr(engine, "transport", None),
        seconds=round(time.monotonic() - started, 3),
    )
    return found


def _on_this_machine(url: str) -> bool:
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    return host == "localhost" or host.startswith("127.") or host == "::1"


def _stop_check(config: Config, attention: list[str]) -> str | None:
    """How the Stop hook has its turns' verdict (delivery/verdict.py), when a check is declared."""
    from edgar_min.delivery.verdict import describe

    line, trouble = describe(config)
    if trouble:
        attention.append(f"check: {line}")
    return line


def diagnose(
    layout: Layout, environ: dict[str, str], overrides: tuple[str, ...], network: bool
) -> dict[str, Any]:
    """The whole report as one JSON-ready document; `attention` lists what needs a person."""
    from edgar_min.config import AUTO_SYNTHESIS, INERT, Config, load_config
    from edgar_min.errors import EdgarError
    from edgar_min.learning.check import describe_check
    from edgar_min.learning.evidence import collect, lifecycle_findings
    from edgar_min.learning.proposals import list_proposals

    attention: list[str] = []
    report: dict[str, Any] = {}
    try:
        config = load_config(layout, environ, overrides)
        report["config"] = {"sources": list(config.sources), "error": None}
    except EdgarError as exc:
        attention.append(f"config: {exc.message}")
        config = Config()
        report["config"] = {"sources": [], "error": exc.message}
    sentence = None
    if config.untrusted:
        from edgar_min.trust import untrusted_sentence

        sentence = untrusted_sentence(layout, config.untrusted)
        attention.append(f"trust: {sentence}")
    report["trust"] = {"untrusted": list(config.untrusted), "sentence": sentence}
    mode = config.skills.synthesis
    report["synthesis"] = {"mode": mode, "warning": AUTO_SYNTHESIS if mode == "auto" else None}
    enabled = config.controller.enabled
    report["controller"] = {"enabled": enabled, "note": None if enabled else INERT}
    report["model"], provider = _model(config, environ, attention)
    report["semif"] = _semif(config, environ, network, attention)
    report["skills"] = _skills(layout, attention)
    report["places"] = _places(layout, attention)
    report["derived"] = _derived(layout, attention)
    report["check"] = describe_check(config.check)
    report["stop_check"] = _stop_check(config, attention)
    # One pass over the store serves both the store's health and the skills' evidence.
    evidence = collect(layout, config)
    health = evidence.scan
    report["store"] = {"records": health.turns, "torn": health.torn, "files": health.files}
    if health.torn:
        attention.append(
            f"store: {health.torn} torn or unreadable line(s) in {layout.relative(layout.experience)} "
            "(skipped when read; a crash mid-write leaves one)"
        )
    report["lifecycle"] = lifecycle_findings(layout, config, evidence)
    attention += [f"skills: {finding}" for finding in report["lifecycle"]]
    proposals = list_proposals(layout)
    report["proposals"] = {"waiting": len(proposals), "names": [p.name for p in proposals]}
    report["histories"] = {
        "distill_after": config.skills.distill_after,
        "files": _histories(layout, config.skills.distill_after),
    }
    from edgar_min.learning.rejected import list_rejected

    report["rejections"] = {
        "logged": _count_lines(layout.rejections),
        "path": layout.relative(layout.rejections),
        "replies_kept": len(list_rejected(layout)),
    }
    report["examples"] = _examples(layout, config, attention)
    report["hook_problems"] = _hook_problems(layout)
    if report["hook_problems"]["logged"]:
        problems = report["hook_problems"]
        attention.append(
            f"hooks: {problems['logged']} problem(s) logged in {problems['path']}, the newest "
            f"({problems['newest_time']}): {problems['newest']} (remove the file once read)"
        )
    report["bytecode"] = _bytecode(attention)
    report["network"] = None
    if network:
        report["network"] = _network(provider)
        if not report["network"]["ok"]:
            attention.append(f"network: {report['network']['message']}")
    report["attention"] = attention
    report["healthy"] = not attention
    return report


def _examples(layout: Layout, config: Config, attention: list[str]) -> dict[str, Any]:
    """What routing learned from use: examples in force, of how many skills, and those now unused."""
    from edgar_min.errors import EdgarError
    from edgar_min.skills.discovery import SkillNames
    from edgar_min.skills.examples import NONE, read_examples

    found = {
        "path": layout.relative(layout.routing_examples),
        "learn_from_use": config.suggest.learn_from_use,
        "skills": 0,
        "examples": 0,
        "none": 0,
        "unused": [],
        "problem": None,
    }
    try:
        held = read_examples(layout)
    except (OSError, EdgarError) as exc:
        found["problem"] = exc.message if isinstance(exc, EdgarError) else str(exc)
        attention.append(f"routing examples: {found['problem']}")
        return found
    names = SkillNames(layout)
    for skill, texts in held.items():
        if skill == NONE:
            found["none"] = len(texts)
        elif skill in names:
            found["skills"] += 1
            found["examples"] += len(texts)
        else:
            found["unused"].append(skill)
    return found


def _bytecode(attention: list[str]) -> dict[str, Any]:
    """Where this run's bytecode came from, run from `edgar.pyz`, and why a copy was refused.

    What the entry point found (`edgar_min.bytecode`), kept by the importer: said here, never
    on every run.
    """
    import edgar_min

    loader = edgar_min.__spec__.loader
    archive, code = getattr(loader, "archive", None), getattr(loader, "code", None)
    refused = getattr(loader, "refused", None)
    if refused:
        attention.append(
            f"bytecode: {refused}, so edgar runs none of it and compiles what it imports from "
            f"{archive} on each run, which is slower (remove it: edgar makes a private one on "
            "its next run; or point XDG_CACHE_HOME at a folder of your own)"
        )
    return {"archive": archive, "copy": code if code != archive else None, "refused": refused}


def _hook_problems(layout: Layout) -> dict[str, Any]:
    """How many problems the hooks logged, and the newest one's sentence and time."""
    from edgar_min.logfile import read_rows

    rows = [r for r in read_rows(layout.hook_problems).rows if isinstance(r.get("problem"), str)]
    newest = rows[-1] if rows else {}
    return {
        "logged": len(rows),
        "path": layout.relative(layout.hook_problems),
        "newest": newest.get("problem"),
        "newest_time": newest.get("time"),
    }


def _describe_model(m: dict[str, Any]) -> str:
    text = m["provider"]
    if m.get("name"):
        text += f', model "{m["name"]}"'
    if m.get("url"):
        text += f" at {m['url']}"
        if m.get("base_url_source") and m["base_url_source"] != "model.base_url":
            text += f" (from {m['base_url_source']})"
    if m.get("command"):
        text += f": runs {' '.join(m['command'])}"
    if m.get("key_env"):
        text += f"; key from {m['key_env']}: {'set' if m.get('key_set') else 'not set'}"
    return text


def _describe_semif(s: dict[str, Any]) -> str:
    text = (
        s["engine"]
        + (f', model "{s["model"]}"' if s["model"] else "")
        + (f" at {s['url']}" if s["url"] else "")
    )
    if s["ok"] is False:
        return f"{text} -- {s['problem']}"
    if not s["checked"]:
        return f"{text}; not asked (a server elsewhere is asked with --network)"
    if s["engine"] == "lexical":
        return f"{text}; readout: lexical offline, no model"
    how = f"answered a one-token decision in {s['seconds']:g} s; readout: {s['readout']}"
    if s["transport"]:
        how += f"; the prompts of a call go as {s['transport']}"
    return f"{text}: {how}"


def cmd_doctor(ctx: Context) -> int:
    report = diagnose(ctx.layout, dict(os.environ), tuple(ctx.ns.set or ()), ctx.ns.network)
    if report["synthesis"]["warning"]:
        ctx.warn(report["synthesis"]["warning"])
    if ctx.json:
        ctx.emit(report)
        return 0 if report["healthy"] else 1
    mode = report["synthesis"]["mode"]
    where = {
        "off": "no model call, nothing written",
        "propose": "skills are proposed in .edgar/proposals/ for a person to review",
        "auto": "skills from passing turns are written into .edgar/skills/learned/ with no review",
    }[mode]
    ctx.out(f"synthesis: {mode} ({where})")
    controller = report["controller"]
    ctx.out("controller: on" if controller["enabled"] else f"controller: off; {controller['note']}")
    model = report["model"]
    ctx.out(f"model: {_describe_model(model)}" + (f" -- {model['problem']}" if model["problem"] else ""))
    ctx.out(f"semif: {_describe_semif(report['semif'])}")
    config = report["config"]
    layers = " -> ".join(config["sources"]) if config["sources"] else "(unreadable)"
    ctx.out(f"config, lowest layer first: {layers}")
    if report["trust"]["sentence"]:
        ctx.out(f"trust: {report['trust']['sentence']}")
    skills = report["skills"]
    ctx.out(
        f"skills: {skills['count']} ({skills['hand']} hand-authored, {skills['learned']} learned), "
        f"{len(skills['problems'])} problem(s)"
    )
    for s in skills["shadowed"]:
        ctx.out(f"  shadowed: {s['name']} at {s['path']} (hidden by {s['hidden_by']})")
    store = report["store"]
    ctx.out(
        f"store: {store['records']} turn record(s) in {store['files']} file(s), {store['torn']} torn line(s)"
    )
    places = report["places"]
    ctx.out(
        f"places edgar writes: {len(places['links'])} link(s), {len(places['misplaced'])} misplaced, "
        f"{len(places['temp_removed'])} leftover temp file(s) removed, {len(places['temp_kept'])} kept"
    )
    for shown in places["temp_removed"]:
        ctx.out(f"  removed {shown} (a write killed before it finished left it)")
    derived = report["derived"]
    ctx.out(
        f"derived data: {derived['state']} (routing cache, routing examples, what each session was "
        "handed, refused replies; yours, outside the project)"
    )
    if derived["ignored"]:
        ctx.out(
            f"  {', '.join(derived['ignored'])}: in the project, where edgar no longer reads derived data; "
            f"ignored (edgar keeps its own in {derived['state']})"
        )
    ctx.out("\n".join(filter(None, (report["check"], report["stop_check"]))))
    ctx.out(f"proposals waiting: {report['proposals']['waiting']}")
    histories = report["histories"]
    every = histories["distill_after"]
    ctx.out(f"watched skills: {len(histories['files'])} with a history (a distill every {every} lines)")
    for h in histories["files"]:
        if h["near"]:
            ctx.out(f"  near a distill: {h['skill']} has {h['lines']} line(s)")
    rejections = report["rejections"]
    ctx.out(
        f"rejections logged: {rejections['logged']} ({rejections['path']}); refused replies kept: "
        f"{rejections['replies_kept']} (`{program()} skills rejections`)"
    )
    examples = report["examples"]
    if examples["problem"] is None:
        unused = f", {len(examples['unused'])} of skills not discovered now" if examples["unused"] else ""
        learning = "" if examples["learn_from_use"] else " (suggest.learn_from_use is off)"
        ctx.out(
            f"routing examples: {examples['examples']} of {examples['skills']} skill(s), "
            f"{examples['none']} of none{unused} ({examples['path']}){learning}"
        )
    hooks = report["hook_problems"]
    ctx.out(f"hook problems logged: {hooks['logged']} ({hooks['path']})")
    if hooks["logged"]:
        ctx.out(f"  newest ({hooks['newest_time']}): {hooks['newest']}")
    network = report["network"]
    if network is None:
        ctx.out("network: not checked (use --network to send one tiny request to the provider)")
    else:
        ctx.out(f"network: {'ok' if network['ok'] else 'failed'}: {network['message']}")
        if network.get("schema"):
            ctx.out(f"structured replies: {network['schema']}")
    if report["healthy"]:
        ctx.out("healthy")
        return 0
    ctx.out(f"needs attention ({len(report['attention'])}):")
    for item in report["attention"]:
        ctx.out(f"- {item}")
    return 1
