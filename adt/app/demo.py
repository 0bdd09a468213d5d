"""``abap-adt demo``: the emulator plus one real edit cycle through our client.

It shows what the project is for in under a minute: a range read with a token, a patch
written under a short lock, a colleague's change making our stale patch refuse instead of
overwriting it, the retry on fresh content, and activation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from pathlib import Path

from adt.client import AdtClient
from adt.emulator import Emulator
from adt.profile import ConnectionProfile, Secret
from adt.source import SourceService
from adt.source.errors import VersionConflict

DEMO_USERS = {"DEVELOPER": "developer", "COLLEAGUE": "colleague"}
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"

Say = Callable[[str], None]


def _say(line: str = "") -> None:
    print(line, flush=True)


def _show(text: str, first_line: int, say: Say) -> None:
    for number, line in enumerate(text.split("\n"), start=first_line):
        say(f"      {number:>3} | {line}")


async def run_cycle(base_url: str, emulator: Emulator, say: Say = _say) -> None:
    """The scripted edit cycle against ``base_url`` (also used by the tests)."""
    profile = ConnectionProfile(
        base_url=base_url, user="DEVELOPER", password=Secret(DEMO_USERS["DEVELOPER"]), name="A4H"
    )
    async with AdtClient(profile) as client:
        service = SourceService(client, system="A4H")
        try:
            say("1. Read lines 1-6 of ZDEMO_REPORT (one ADT request, with a version token)")
            read = await service.get_source_v2(REPORT, start_line=1, end_line=6)
            _show(read.content, 1, say)
            say(f"   {read.line_count} lines in all; token {read.token}")

            say("2. Insert a comment after line 6: lock, verify the token, write, unlock")
            written = await service.set_source_v2(
                REPORT,
                token=read.token,
                start_line=7,
                end_line=6,
                content="* Edited through abap-adt: token-checked line patch",
            )
            say(f"   written; lines now {written.line_count}; new token {written.token}")

            say("3. A colleague changes the report in the meantime ...")
            theirs = (emulator.source(SOURCE) or "") + "\n* COLLEAGUE's late change"
            emulator.write_as("COLLEAGUE", SOURCE, theirs)
            say("   ... and we try another patch with our now stale token")
            try:
                await service.set_source_v2(
                    REPORT,
                    token=written.token,
                    start_line=1,
                    end_line=1,
                    content="* this would have overwritten the colleague's work",
                )
            except VersionConflict as conflict:
                details = conflict.details
                say(
                    f"   refused: {conflict.code} {conflict.name} - changed by "
                    f"{details.get('changedBy')}; nothing was written"
                )
                say(f"   expected {details['expectedToken']}, current {details['currentToken']}")
            else:  # pragma: no cover - would be a bug worth shouting about
                raise RuntimeError("the stale write was not refused")

            say("4. Read again, re-apply on the current version")
            fresh = await service.get_source_v2(REPORT, start_line=1, end_line=1)
            await service.set_source_v2(
                REPORT,
                token=fresh.token,
                start_line=2,
                end_line=1,
                content="* Re-applied on top of the colleague's change",
            )
            stored = emulator.source(SOURCE) or ""
            both = "COLLEAGUE's late change" in stored and "Re-applied" in stored
            say(f"   written; both changes are in the source: {both}")

            say("5. Activate (after the lock was released)")
            activation = await service.activate(REPORT)
            say(
                f"   activated: {activation.success}; "
                f"active version = written version: {emulator.source(SOURCE, 'active') == stored}"
            )
            locks_left = len(emulator.locks())
            say(f"   {client.request_count} ADT requests in all; locks left: {locks_left}")
        finally:
            await service.close()


def installed_command() -> str:
    """How to start ``abap-adt`` from any shell: the console script beside this Python (a
    virtualenv's ``bin/`` is usually not on the ``PATH``), else ``python -m adt.app``."""
    scripts = Path(sysconfig.get_path("scripts"))
    for name in ("abap-adt", "abap-adt.exe"):
        if (scripts / name).is_file():
            return shlex.quote(str(scripts / name))
    return f"{shlex.quote(sys.executable)} -m adt.app"


def _instructions(base_url: str, say: Say) -> None:
    say("")
    say(f"The ADT emulator keeps running at {base_url} (SID A4H, client 001).")
    say("Users: DEVELOPER / developer and COLLEAGUE / colleague. Objects: package $ZDEMO.")
    say("")
    say("Connect a tool to it:")
    say(f"  export ADT_URL={base_url} ADT_USER=DEVELOPER ADT_PASSWORD=developer ADT_SYSTEM=A4H")
    command = installed_command()
    say(f"  {command} lsp        # language server on stdio (see docs/lsp.md, editors/)")
    say(f"  {command} mcp        # MCP server on stdio for agents (see docs/mcp.md)")
    say(f"  curl -u DEVELOPER:developer {base_url}{SOURCE}")
    say("")
    say("Press Ctrl-C to stop.")


def run_demo(args: argparse.Namespace) -> int:
    emulator = Emulator(users=DEMO_USERS)
    port = int(getattr(args, "port", 0) or 0)
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        try:
            base_url = stack.enter_context(emulator.serve_in_thread(port=port))
        except OSError as exc:
            print(f"abap-adt demo: cannot listen on 127.0.0.1:{port}: {exc}", file=sys.stderr)
            return 2
        _say(f"ADT emulator listening on {base_url} with the built-in sample objects.")
        _say()
        try:
            asyncio.run(run_cycle(base_url, emulator))
        except Exception as exc:  # show the failure plainly, keep the traceback for bugs
            _say(f"The demo cycle failed: {type(exc).__name__}: {exc}")
            raise
        _say(f"   (cycle took {time.monotonic() - started:.1f}s)")
        if getattr(args, "no_serve", False):
            return 0
        _instructions(base_url, _say)
        stop = threading.Event()
        with contextlib.suppress(KeyboardInterrupt):
            while not stop.wait(3600):
                pass
    _say("Stopped.")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_demo(argparse.Namespace(port=0, no_serve=False)))
