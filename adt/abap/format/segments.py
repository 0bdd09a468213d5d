"""Where a source may be cut into pieces that a pretty printer formats one at a time, each
after a short context, with the same result as the whole source at once.

What a statement's printed lines depend on (:mod:`adt.abap.format.pretty`): its own tokens,
the blocks open before it, the next statement (for a comment line before it), which
``SELECT``/``WITH`` statements an end keyword makes loops, and — with ``keywordAuto`` — the
case of every keyword of the source. So a cut goes between two statements where

* the statement before ends its line (only a comment may follow it) and opens no native
  section, so the lexer starts the next line afresh;
* the blocks open there are ones a context of one or two statements opens again
  (:data:`CONTEXTS`: none, a class implementation, a class definition's section, an
  interface);
* comment and blank lines after a statement go with the piece of the statement that
  follows them, which they depend on;
* no piece has an ``ENDSELECT``/``ENDWITH`` without its ``SELECT``/``WITH`` in the same
  piece: such an end would make a loop of a statement in an earlier piece.

``keywordAuto`` is left to the caller (a piece is no sample of the whole source's case).
:mod:`adt.workbench.printed` keeps a document's printed form by these pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .blocks import Nester, State, loop_event
from .skim import Part, Run, skim, statement_lines
from .tokens import TokenStatement, native_closer

TOP: State = ()
_CONTEXT = "lcl_abap_adt_context"
#: The states a cut may be made in, and the statements that open them again.
CONTEXTS: dict[State, tuple[str, ...]] = {
    TOP: (),
    (("CLASS", 0, 1),): (f"CLASS {_CONTEXT} IMPLEMENTATION.",),
    (("CLASS", 0, 2),): (f"CLASS {_CONTEXT} DEFINITION.", "PUBLIC SECTION."),
    (("INTERFACE", 0, 1),): (f"INTERFACE {_CONTEXT}.",),
}


@dataclass(frozen=True)
class Piece:
    """A piece starting at line ``start`` (0-based, of the lines scanned), formatted after
    the context of ``state``."""

    start: int
    state: State


@dataclass(frozen=True)
class Scan:
    """The pieces of some lines formatted after the context of the state of the first.

    ``end`` is the state after the last line when the lines end with a statement's line,
    so a piece may follow (None otherwise: an open statement or native section, comment
    lines after the last statement). ``reaches_back``: an end keyword of the first piece
    has its ``SELECT``/``WITH`` before the lines, so the cut before them cannot stay."""

    pieces: list[Piece]
    end: State | None
    reaches_back: bool


class _Loops:
    """The ``SELECT``/``WITH`` statements of each piece still waiting for their end; a cut
    whose piece has an end without its opener is taken back (the pieces join)."""

    def __init__(self) -> None:
        self.waiting: list[dict[str, int]] = [{"SELECT": 0, "WITH": 0}]
        self.reaches_back = False

    def cut(self) -> None:
        self.waiting.append({"SELECT": 0, "WITH": 0})

    def feed(self, statement: TokenStatement, cuts: list[Piece]) -> None:
        event = loop_event(statement)
        if event is None:
            return
        kind, opens = event
        if opens:
            self.waiting[-1][kind] += 1
            return
        while not self.waiting[-1][kind] and len(self.waiting) > 1:
            joined = self.waiting.pop()
            for name, count in joined.items():
                self.waiting[-1][name] += count
            cuts.pop()
        if self.waiting[-1][kind]:
            self.waiting[-1][kind] -= 1
        else:
            self.reaches_back = True


def scan(lines: Sequence[str], state: State = TOP) -> Scan:
    """The pieces of ``lines`` (which start after a cut, in ``state``); see the module doc."""
    skimmed = skim(lines, wide=True)
    parts, last_line = skimmed.parts, skimmed.last_line
    nester = Nester(skimmed.statements, state)
    pieces = [Piece(0, state)]
    loops = _Loops()
    now: State = state
    open_after: State | None = state
    index = 0  # of the next lexed statement
    for position, part in enumerate(parts):
        if isinstance(part, Run):
            # its statements change no block and end their lines (open_after stays now)
            if now in CONTEXTS:
                for cut in statement_lines(lines, part):
                    if cut < last_line:  # not after the last statement
                        pieces.append(Piece(cut, now))
                        loops.cut()
            continue
        loops.feed(part, pieces)
        nester.add(index, part)
        index += 1
        now = nester.state
        if not _ends_line(part, parts[position + 1] if position + 1 < len(parts) else None):
            open_after = None
            continue
        open_after = now
        cut = part.last.line  # the 0-based index of the line after it
        if now in CONTEXTS and cut < last_line:
            pieces.append(Piece(cut, now))
            loops.cut()
    return Scan(pieces, _end(lines, last_line, open_after), loops.reaches_back)


def _ends_line(statement: TokenStatement, following: Part | None) -> bool:
    """Whether a cut may follow ``statement`` on the next line."""
    if not statement.terminated or native_closer(statement.words) is not None:
        return False
    if following is None or isinstance(following, Run):
        return True  # a run starts on a later line
    return following.first.line > statement.last.line


def _end(lines: Sequence[str], last: int, after: State | None) -> State | None:
    """The state after ``lines``, if a piece may follow them: after the last statement
    (which ends on line ``last``) only blank lines and lines with a star may come (they
    print the same anywhere)."""
    if after is None or not all(_free(line) for line in lines[last:]):
        return None
    return after


def _free(line: str) -> bool:
    """A line printed as it is wherever it stands (blank or a ``*`` comment)."""
    return line.startswith("*") or not line.strip(" \t")
