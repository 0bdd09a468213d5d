"""Browser logons (OAuth, single sign-on) in the MCP bridge. Over stdio the bridge runs for
the user on their own machine: it prints the logon address to stderr (where MCP clients
show a server's log) and opens the default browser. Over HTTP it serves others: opening a
browser on its own machine would log the operator on, or nobody, so the request is refused
with what to do instead."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

from adt.logon import LogonPrompt, RefuseBrowserLogon

HTTP_REFUSAL = (
    "{system} logs on in the browser (OAuth or single sign-on), and this MCP bridge serves "
    "over HTTP, where it cannot open a browser for you. The bridge's operator logs {system} "
    "on first, on the bridge's machine: abap-adt logon {system} (remembered in the OS keyring "
    "or the system's token_file, docs/systems.md). Or run the bridge on your own machine "
    "over stdio (abap-adt mcp), or ask for a team logon of your own (docs/deployment.md)"
)


MEMBER_REFUSAL = (
    "your logon to {system} at this bridge (OAuth or single sign-on) is not remembered on the "
    "bridge's machine, or it expired, and the bridge cannot open a browser for you: log on "
    "there with abap-adt logon {system} --member {member} (docs/deployment.md)"
)


def http_refusal() -> RefuseBrowserLogon:
    """What an HTTP bridge does instead of a browser logon."""
    return RefuseBrowserLogon(HTTP_REFUSAL)


def member_refusal(member: str) -> RefuseBrowserLogon:
    """What the bridge does when a team member's remembered logon is missing or refused."""
    return RefuseBrowserLogon(MEMBER_REFUSAL.replace("{member}", member))


class StdioLogons(LogonPrompt):
    """The stdio bridge's prompt: the address on stderr, the local default browser."""

    def __init__(self, err: TextIO | None = None, *, command: str = "abap-adt mcp") -> None:
        self._err = err
        self._command = command

    def _say(self, text: str) -> None:
        stream = self._err or sys.stderr
        print(f"{self._command}: {text}", file=stream, flush=True)

    async def show(self, system: str, url: str) -> None:
        self._say(f"log on to {system} in your browser: {url}")
        import webbrowser  # with the first browser logon, not at start

        opened = await asyncio.to_thread(webbrowser.open, url)
        if not opened:
            self._say("could not open a browser: open the address above by hand")

    def ended(self, system: str, error: str | None) -> None:
        if error is None:
            self._say(f"logged on to {system}")
        else:
            self._say(f"logon to {system} failed: {error}")


__all__ = ["HTTP_REFUSAL", "MEMBER_REFUSAL", "StdioLogons", "http_refusal", "member_refusal"]
