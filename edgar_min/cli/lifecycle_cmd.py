"""`edgar skills stats | prune | log | restore`: evidence that a skill helps, and its change ledger."""

from __future__ import annotations

from edgar_min.errors import NotFound
from edgar_min.invocation import program

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context
    from edgar_min.learning.evidence import SkillStats
    from edgar_min.learning.trial import Trial

__all__ = ["register_skills"]


def register_skills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "stats", help="turns each skill was offered in and used in, verdicts, pass rate with vs without it"
    )
    p.add_argument("name", nargs="?")
    p.set_defaults(handler=cmd_stats)

    p = sub.add_parser("prune", help="archive learned skills that are stale or measured as hurting")
    p.add_argument("--dry-run", action="store_true", help="print what would be archived; change nothing")
    p.set_defaults(handler=cmd_prune)

    p = sub.add_parser("log", help="the change ledger: every write, patch, accept, reject, archive, restore")
    p.add_argument("name", nargs="?")
    p.set_defaults(handler=cmd_log)

    p = sub.add_parser(
        "restore", help="bring back an earlier version of a learned skill (through the writer)"
    )
    p.add_argument("name")
    p.add_argument("--to", metavar="SHA", help="the version (a hash from `skills log`, 7+ hex digits)")
    p.set_defaults(handler=cmd_restore)


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _detail(ctx: Context, s: SkillStats, minimum: int, trial: Trial) -> None:
    ctx.out(f"{s.name} ({s.origin})")
    ctx.out(f"  offered in {s.offered} turn(s) (edgar put it before the agent)")
    ctx.out(f"  used in {s.used} turn(s): {s.passed} passed, {s.failed} failed, {s.unverified} unverified")
    ctx.out(f"  {s.sentence(minimum)}")
    ctx.out(f"  holdout: {trial.sentence()}")
    if trial.verdict == "hurts" and s.origin == "learned":
        ctx.out(
            "  proposed for retirement: `edgar skills prune` archives it once you confirm (--dry-run first)"
        )
    ctx.out(f"  last used: {s.last_used or 'never'}")
    ctx.out(f"  history: {s.history_lines} line(s)")
    if s.stale:
        ctx.out(f"  stale: {s.stale}")


def cmd_stats(ctx: Context) -> int:
    from edgar_min.learning.evidence import collect
    from edgar_min.learning.trial import trials

    evidence = collect(ctx.layout, ctx.config)
    found = evidence.scan
    if found.torn:
        ctx.warn(f"edgar: skipped {found.torn} torn or garbage line(s) in the experience store")
    name = ctx.ns.name
    if name is not None:
        if not evidence.known(name):
            msg = f"no skill named {name[:80]!r}, and no recorded turn used or was offered one"
            raise NotFound(msg)
        s = evidence.stats(name)
        trial = trials(ctx.layout, ctx.config, [name])[name]
        ctx.emit(
            {**s.as_json(), "holdout": trial.as_json(), "min_turns": evidence.min_turns, "turns": found.turns}
        )
        _detail(ctx, s, evidence.min_turns, trial)
        return 0
    all_stats = evidence.all_stats()
    held = trials(ctx.layout, ctx.config, [s.name for s in all_stats])
    ctx.emit(
        {
            "turns": found.turns,
            "torn_lines": found.torn,
            "min_turns": evidence.min_turns,
            "skills": [{**s.as_json(), "holdout": held[s.name].as_json()} for s in all_stats],
        }
    )
    if not all_stats:
        ctx.out(f"no skills found and no recorded turn used one ({found.turns} turn(s) recorded)")
        return 0
    width = max(len(s.name) for s in all_stats)
    ctx.out(
        f"{'skill':<{width}}  origin   offered  used  passed  failed  unverif  with  without"
        f"  {'holdout':<14}  evidence"
    )
    for s in all_stats:
        verdict = s.verdict + (", stale" if s.stale else "")
        ctx.out(
            f"{s.name:<{width}}  {s.origin:<7}  {s.offered:>7}  {s.used:>4}  {s.passed:>6}  {s.failed:>6}"
            f"  {s.unverified:>7}  {_rate(s.with_rate):>4}  {_rate(s.without_rate):>7}"
            f"  {held[s.name].verdict:<14}  {verdict}"
        )
    ctx.out(
        f"{found.turns} turn(s) recorded; a verdict needs {evidence.min_turns} decided turns with a skill "
        f"and without it in the same task shapes (`{program()} skills stats NAME` for one skill)"
    )
    return 0


def cmd_prune(ctx: Context) -> int:
    from edgar_min.learning.evidence import collect
    from edgar_min.learning.lifecycle import forget

    evidence = collect(ctx.layout, ctx.config)
    candidates = evidence.prune_candidates()
    done = []
    if not candidates:
        ctx.out("nothing to prune: no learned skill is stale or measured as hurting")
    for name, reason in candidates:
        if ctx.ns.dry_run:
            ctx.out(f"would archive {name}: {reason}")
            done.append({"name": name, "reason": reason, "archived_to": None})
            continue
        target = forget(ctx.layout, name, evidence.index)
        ctx.out(f"archived {name}: {reason} (moved to {ctx.layout.relative(target)})")
        done.append({"name": name, "reason": reason, "archived_to": ctx.layout.relative(target)})
    ctx.emit({"dry_run": bool(ctx.ns.dry_run), "pruned": done})
    return 0


def cmd_log(ctx: Context) -> int:
    from edgar_min.learning.ledger import read_ledger
    from edgar_min.skills.discovery import discover

    name = ctx.ns.name
    ledger = read_ledger(ctx.layout, name)
    if ledger.torn:
        ctx.warn(
            f"edgar: skipped {ledger.torn} torn or garbage line(s) in "
            f"{ctx.layout.relative(ctx.layout.ledger)}"
        )
    if name is not None and not ledger.rows and discover(ctx.layout).get(name) is None:
        msg = f"no skill named {name[:80]!r}, and no ledger rows for it"
        raise NotFound(msg)
    ctx.emit({"rows": [r.as_json() for r in ledger.rows], "torn_lines": ledger.torn})
    if not ledger.rows:
        ctx.out(f"no changes recorded for {name}" if name else "no changes recorded yet")
        return 0
    for r in ledger.rows:
        before = r.before[:12] if r.before else "-"
        after = r.after[:12] if r.after else "-"
        extra = "".join(f"  {k}={v}" for k, v in (("session", r.session), ("trigger", r.trigger)) if v)
        ctx.out(f"{r.time}  {r.actor:<7}  {r.action:<7}  {r.name}  {r.place:<8}  {before} -> {after}{extra}")
    return 0


def cmd_restore(ctx: Context) -> int:
    from edgar_min.learning.lifecycle import restore

    digest, path = restore(ctx.layout, ctx.ns.name, ctx.ns.to)
    ctx.out(f"restored {ctx.ns.name} to version {digest[:12]}: {ctx.layout.relative(path)}")
    ctx.emit({"name": ctx.ns.name, "version": digest, "path": ctx.layout.relative(path)})
    return 0
