"""`edgar trust [--revoke]`: let this project's `.edgar/config.toml`, as it is now, set every key.

A project's config sets the keys `config.needs_trust` names only once the person has trusted
that exact file; this records its sha256 in `$EDGAR_HOME/trusted.json` (trust.py), and any
change to the file withdraws the trust. Exit 0 when done, 1 when there is no config to trust.
"""

from __future__ import annotations

from edgar_min.invocation import program

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from edgar_min.cli.context import Context

__all__ = ["register"]


def register(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "trust",
        help="let this project's .edgar/config.toml, as it is now, set every key (--revoke: undo)",
        # Lines kept short by hand: the formatter keeps a description's own line breaks.
        description=(
            "A project's .edgar/config.toml comes with the checkout: its keys that could send data\n"
            "somewhere, run a program, widen what is written or change the gate's mode are left out\n"
            "until you trust that exact file. This records its sha256 in $EDGAR_HOME/trusted.json\n"
            "and prints the keys it now sets; any change to the file withdraws the trust."
        ),
    )
    p.add_argument("--revoke", action="store_true", help="withdraw the trust in this project's config")
    # The config is read here, from the bytes that are trusted; "run edgar trust" would be noise.
    p.set_defaults(handler=cmd_trust, needs_config=False)


def cmd_trust(ctx: Context) -> int:
    from edgar_min import trust
    from edgar_min.config import load_config
    from edgar_min.errors import NotFound

    layout = ctx.layout
    shown = layout.relative(layout.project_config)
    document = {"file": layout.project_config, "record": layout.trust_record}
    if ctx.ns.revoke:
        revoked = trust.forget(layout)
        ctx.emit({**document, "revoked": revoked})
        if revoked:
            ctx.out(f"{shown} is no longer trusted: the keys that need trust are left out of it again")
        else:
            ctx.out(f"{shown} was not trusted: nothing to withdraw")
        return 0
    if trust.is_own(layout):
        ctx.emit({**document, "trusted": True, "own": True, "enables": []})
        ctx.out(f"{shown} is your own config ({layout.user_config}): it applies in full as it is")
        return 0
    read: list[bytes] = []

    def asked(data: bytes) -> bool:
        read.append(data)
        return False  # so that `untrusted` names every key the file sets that needs trust

    config = load_config(layout, overrides=ctx.ns.set or (), trusts=asked)
    if layout.project_config not in config.sources:
        msg = f"there is no {shown} in {layout.root}: nothing to trust"
        raise NotFound(msg)
    if not config.untrusted:
        ctx.emit({**document, "trusted": False, "own": False, "enables": []})
        ctx.out(f"{shown} sets no key that needs trust: it applies in full as it is, so nothing was recorded")
        return 0
    digest = trust.record(layout, read[0])
    ctx.emit({**document, "trusted": True, "own": False, "enables": list(config.untrusted), "sha256": digest})
    ctx.out(
        f"trusted {shown} (sha256 {digest[:16]}): it now sets {', '.join(config.untrusted)}. "
        f"Any change to the file withdraws this; `{program()} trust --revoke` withdraws it now."
    )
    return 0
