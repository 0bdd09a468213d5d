"""``abap-adt logon SYSTEM [--member NAME]``: the browser logon of a system (OAuth, single
sign-on) run now, on this machine, so that it is remembered (the OS keyring or the system's
``token_file``) and a face that cannot open a browser — an MCP bridge serving over HTTP —
finds it; with ``--member``, a team member's own logon of ``[team.NAME]``."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys

from adt.auth.vault import MemoryOnly, vault_for
from adt.errors import AdtError, ConfigurationError
from adt.logon import BrowserLogon, OAuthLogon
from adt.profile import ConnectionProfile
from adt.systems import load_settings
from mcp_bridge.logons import StdioLogons

COMMAND = "abap-adt logon"


async def _log_on(profile: ConnectionProfile) -> None:
    from adt.client import AdtClient  # httpx only when a logon runs

    async with AdtClient(profile.with_options(retry_delays=())) as client:
        await client.quick_search("*", max_results=1)  # the first request logs on


def _profile(system: str, member: str | None) -> ConnectionProfile:
    settings = load_settings()
    if member is None:
        return settings.systems.get(system)
    found = next((m for m in settings.team.members if m.name == member), None)
    if found is None:
        names = ", ".join(m.name for m in settings.team.members) or "none"
        raise ConfigurationError(f"no team member {member!r} (members: {names})")
    return found.systems.get(system)


def run_logon(args: argparse.Namespace) -> int:
    """Log on to ``args.system`` in the browser; 0 when it worked and is remembered."""
    try:
        profile = _profile(args.system, getattr(args, "member", None))
    except AdtError as exc:
        print(f"{COMMAND}: {exc}", file=sys.stderr)
        return 2
    logon = profile.logon
    if not isinstance(logon, OAuthLogon | BrowserLogon):
        print(f"{COMMAND}: {args.system} logs on with logon = {logon.kind!r}: no browser "
              "logon to remember", file=sys.stderr)  # fmt: skip
        return 2
    if isinstance(vault_for(logon.remember), MemoryOnly):
        print(f"{COMMAND}: {args.system}'s logon would not be remembered: install the keyring "
              "package (pip install keyring) or name a token_file (docs/systems.md)",
              file=sys.stderr)  # fmt: skip
        return 2
    prompt = StdioLogons(command=COMMAND)
    shown = profile.with_options(logon=dataclasses.replace(logon, open_browser=prompt))
    try:
        asyncio.run(_log_on(shown))
    except AdtError as exc:
        print(f"{COMMAND}: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["run_logon"]
