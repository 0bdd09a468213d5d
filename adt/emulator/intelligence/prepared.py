"""The index of a long program's saved source, built when a client reads it: the emulator's
stand-in for the compiled load a real system keeps of every saved source.

An editor reads a source when it opens it, and asks for completion, element info or
navigation moments later, posting its text. The first such request used to index the
program's declarations (:class:`.focus.FocusedIndexes`, the *skeleton*): 1.1 s of CPU for
100,000 lines, 5.4 s under load — where a real system's compiler starts from the load it
already has. So a read of a program's source of :data:`PREPARED_LINES` lines or more starts
that same index in a background thread, under the state lock as a request would hold it; a
request arriving meanwhile waits for it, as it would wait for the build itself. The index is
the one the first request would have built (same texts, same code), so answers do not
change; only when the time is spent does. Listed in docs/emulator.md.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from .focus import FocusedIndexes
from .repository import Repository

if TYPE_CHECKING:
    from ..model import RepoObject
    from ..state import SystemState

#: Programs shorter than this index fast enough on the first request (about 0.1 s).
PREPARED_LINES = 2_000


class PreparedLoads:
    """Builds, in the background, the skeleton index of long programs whose source is read."""

    def __init__(self, state: SystemState, repo: Repository, focus: FocusedIndexes) -> None:
        self.state, self.repo, self.focus = state, repo, focus
        self._pending: set[str] = set()
        #: Threads started (tests wait on them instead of a clock).
        self.threads: list[threading.Thread] = []
        state.source_read.append(self.source_read)

    def source_read(self, obj: RepoObject, text: str) -> None:
        """Told that a client read ``text`` of ``obj`` (under the state lock)."""
        if obj.kind.language != "abap" or text.count("\n") + 1 < PREPARED_LINES:
            return
        if obj.uri in self._pending:
            return
        self._pending.add(obj.uri)
        thread = threading.Thread(
            target=self._prepare, args=(obj,), name="adt-emulator-load", daemon=True
        )
        self.threads = [t for t in self.threads if t.is_alive()] + [thread]
        thread.start()

    def _prepare(self, obj: RepoObject) -> None:
        with self.state.lock:
            try:
                self.repo.refresh()
                if self.state.objects.get(obj.uri) is obj:  # not deleted meanwhile
                    self.focus.prepare(self.repo.program(obj))
            finally:
                self._pending.discard(obj.uri)
