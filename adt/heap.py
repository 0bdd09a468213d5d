"""The garbage collector in our long-running servers.

A full collection walks every tracked object. Once a server is built most of them are the
modules, classes and schema models of the MCP SDK, pygls and lsprotocol, alive as long as the
process; walking them takes tens of milliseconds, and every caller waits meanwhile (ten
concurrent MCP callers saw 40 ms stalls a few times a second). So a server pauses collection
while it imports and builds itself (imports make next to no cyclic garbage, and the
collections they trigger cost start-up time), then freezes what exists: later collections
leave those objects out, and garbage made from then on is collected as before.
"""

from __future__ import annotations

import gc


def pause_collection() -> None:
    """No collections until :func:`freeze_startup_objects` (call it before heavy imports)."""
    gc.disable()


def freeze_startup_objects() -> None:
    """Move every object alive now out of the collector's walks; collect again from here."""
    gc.freeze()
    gc.enable()
