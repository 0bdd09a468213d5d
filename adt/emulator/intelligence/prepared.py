"""The index of a long program's saved source, built when a client reads it: the emulator's
stand-in for the compiled load a real system keeps of every saved source.

An editor reads a source when it opens it, and asks for completion, element info or
navigation moments later, posting its text. The first such request used to index the
program's declarations (:class:`.focus.FocusedIndexes`, the *skeleton*): 1.1 s of CPU for
100,000 lines, 5.4 s under load — where a real system's compiler starts from the load it
already has. So a read of a program's source of :data:`PREPARED_LINES` lines or more starts
that same index in a background thread: lexing and declaring (four fifths of the work) read
only the texts, so they run outside the state lock while the editor's other requests are
served; resolving names, which asks the repository, holds the lock as a request does (a
request arriving meanwhile waits for it), and is skipped when a source changed meanwhile.
The index is the one the first request would have built (same texts, same code), so answers
do not change; only when the time is spent does. Listed in docs/emulator.md.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from .focus import FocusedIndexes
from .repository import Program, Repository

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
        try:
            with self.state.lock:
                program = self._program(obj)
                if program is None or self.focus.has_base(program):
                    return
            # lexing and declaring read only the texts: other requests go on meanwhile
            skeletons, index = FocusedIndexes.unresolved(program)
            with self.state.lock:  # resolving asks the repository for global names
                current = self._program(obj)
                if current is not None and _same_texts(current, program):
                    self.focus.install(current, skeletons, index)
        finally:
            self._pending.discard(obj.uri)

    def _program(self, obj: RepoObject) -> Program | None:
        """``obj``'s program as stored now; None once the object is gone."""
        self.repo.refresh()
        return self.repo.program(obj) if self.state.objects.get(obj.uri) is obj else None


def _same_texts(one: Program, other: Program) -> bool:
    return [(u.id, u.text) for u in one.units] == [(u.id, u.text) for u in other.units]
