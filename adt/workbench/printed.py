"""The last pretty-printed form of a document, kept by piece, so that after an edit only the
pieces around it go to the printer again.

A printer (a real system's ``abapsource/prettyprinter``) formats the whole text it is sent.
:class:`PrintedPieces` keeps, for one document and one set of printer settings, the text it
last printed cut into pieces (:mod:`adt.abap.format.segments`). :meth:`PrintedPieces.plan`
compares new lines with that text (:mod:`adt.source.linediff`) — what the editor shows once it
applied the last answer; a piece printed again does not change, as the printer changes nothing
in what it printed — and, for each changed region, scans it again from the cut before it
until the cut after it falls where one was before with the same blocks open (further on
while it does not). Each
region becomes one :class:`Job`: its context statements, then its pieces, each followed by a
marker line (a ``*`` comment, which no printer changes or moves).
:meth:`PrintedPieces.complete` takes the printer's answers, strips the context, splits at the
markers and joins the pieces; an answer that does not hold the context and the markers where
they were sent gives None (the caller prints the whole text instead).

The first plan (or one after :meth:`PrintedPieces.reset`, or with other settings) sends the
whole text, in jobs of at most :data:`JOB_LINES` lines cut between pieces. :class:`Planning`
makes it window by window (at most :data:`WINDOW_LINES` lines; the first an eighth of that,
each next twice the last, so that the printer starts early), so that the caller sends a
window's jobs while the next window is scanned: each window is scanned from the start of the
last piece of the one before, in that piece's state (its last piece may be cut short by the
window's end, so it is scanned again), and keeps its pieces but the last (a window of one
piece is scanned again longer). A window gives the pieces one
scan of the whole text gives there, except where an ``ENDSELECT``/``ENDWITH`` closes a
``SELECT``/``WITH`` of an earlier window (:attr:`adt.abap.format.segments.Scan.reaches_back`):
that takes cuts back in a window already sent, so the planning stops and the caller makes
the whole plan (:meth:`PrintedPieces.plan`) instead. A later plan is one step: its regions
are short.
"""

from __future__ import annotations

import os
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain

from adt.abap.format.blocks import State
from adt.abap.format.segments import CONTEXTS, TOP, scan
from adt.source.linediff import differences

#: Most lines of a job (unless one piece has more): a long source is sent in parts.
JOB_LINES = 10_000
MARKER = "*ABAP-ADT piece boundary: kept by the pretty printer, removed by the client"


def _window_lines() -> int:
    """``ABAP_ADT_FORMAT_WINDOW`` (read once: end-to-end tests of the server make windows
    short), else :data:`JOB_LINES`: a window's pieces then make about one job."""
    value = os.environ.get("ABAP_ADT_FORMAT_WINDOW", "")
    return max(int(value), 1) if value.isdigit() else JOB_LINES


#: Lines a first plan scans at a time (:class:`Planning`).
WINDOW_LINES = _window_lines()


@dataclass
class _Kept:
    """One piece: the blocks open before it, its printed lines and their number."""

    state: State
    length: int
    printed: list[str]


@dataclass(frozen=True)
class Job:
    """One request to the printer: ``text`` (context, then the pieces' lines, a marker
    after each) prints new lines ``start..start+sum(lengths)`` as pieces of ``lengths``."""

    text: str
    context: tuple[str, ...]
    start: int
    states: tuple[State, ...]
    lengths: tuple[int, ...]


@dataclass
class _Region:
    """Old pieces ``first..last`` (exclusive) replaced by new lines ``start..end``, cut
    into ``pieces`` (each a new start line and its state)."""

    first: int
    last: int
    start: int = 0
    end: int = 0
    pieces: list[tuple[int, State]] = field(default_factory=list)


@dataclass(frozen=True)
class Plan:
    """What to send for ``lines``, and how to join the answers with the pieces kept."""

    lines: list[str]
    key: object
    jobs: tuple[Job, ...]
    regions: tuple[_Region, ...]
    base: int  # the completion it was planned on

    @property
    def sent_lines(self) -> int:
        """Lines of the document the jobs send (for measurements and tests)."""
        return sum(sum(job.lengths) for job in self.jobs)


class _Moves:
    """Where old lines that no change touched are in the new lines."""

    def __init__(self, blocks: list[tuple[int, int, int, int]]) -> None:
        self.firsts = [b[0] for b in blocks]
        self.shifts = [0, *accumulate((j2 - j1) - (i2 - i1) for i1, i2, j1, j2 in blocks)]

    def __call__(self, old_line: int) -> int:
        """The new place of ``old_line`` (changes starting before it moved it)."""
        return old_line + self.shifts[bisect_left(self.firsts, old_line)]


class PrintedPieces:
    """The last printed form of one document, by piece (see the module doc)."""

    def __init__(self) -> None:
        self._completed = 0  # plans completed and resets: a plan is for one of them
        self.last_sent = 0  # lines of the document the last completed plan sent
        self.reset()

    def reset(self) -> None:
        """Forget the last printed form (the next plan sends the whole text)."""
        self._key: object = None
        self._lines: list[str] = []
        self._pieces: list[_Kept] = []
        self._starts: list[int] = []
        self._completed += 1

    def planning(self, lines: Sequence[str], key: object, window: int = 0) -> Planning:
        """A plan of ``lines`` made step by step (:class:`Planning`; ``window``: lines a
        step of a first plan scans, :data:`WINDOW_LINES` unless given)."""
        if key != self._key:
            self.reset()
        return Planning(self, list(lines), key, window or WINDOW_LINES)

    def plan(self, lines: Sequence[str], key: object) -> Plan:
        """The jobs that print ``lines`` with the settings ``key`` (any value compared with
        ``==``; other settings than last time send the whole text)."""
        new = list(lines)
        if key != self._key:
            self.reset()
        if not self._pieces:
            whole = self._scanned(new, _Region(0, 0), _Moves([]))
            assert whole is not None  # the whole text needs no cut after it
            regions = [whole]
        else:
            regions = self._regions(new)
        jobs = tuple(job for r in regions for job in _jobs(new, r.pieces, r.end))
        return Plan(new, key, jobs, tuple(regions), self._completed)

    @property
    def empty(self) -> bool:
        """Whether nothing is kept (the next plan sends the whole text)."""
        return not self._pieces

    @property
    def completed(self) -> int:
        """How many plans were completed and resets made: a plan is for one of them."""
        return self._completed

    # --- regions ----------------------------------------------------------------------------

    def _regions(self, new: list[str]) -> list[_Region]:
        """The changed regions, each scanned and grown until its end meets a kept cut in
        the same state (or the end of the text)."""
        blocks = differences(self._lines, new)
        moves = _Moves(blocks)
        pending = self._touched(blocks)
        done: list[_Region] = []
        while pending:
            region = pending.pop(0)
            while pending and pending[0].first < region.last:  # grown into the next one
                region.last = max(region.last, pending.pop(0).last)
            if done and region.first < done[-1].last:  # grown back into the one before
                before = done.pop()
                region.first, region.last = before.first, max(before.last, region.last)
            if self._scanned(new, region, moves) is not None:
                done.append(region)
                continue
            if self._reaches_back:
                region.first -= 1
            else:
                region.last = min(len(self._pieces), 2 * region.last - region.first)
            pending.insert(0, region)
        return done

    def _touched(self, blocks: list[tuple[int, int, int, int]]) -> list[_Region]:
        """The kept pieces each change touches, as regions (adjacent ones joined)."""
        starts = self._starts
        regions: list[_Region] = []
        for i1, i2, _, _ in blocks:
            first = max(bisect_right(starts, i1) - 1, 0)
            last = max(bisect_right(starts, i2 - 1), first + 1)
            if regions and first <= regions[-1].last:
                regions[-1].last = max(regions[-1].last, last)
            else:
                regions.append(_Region(first, last))
        return regions

    _reaches_back = False

    def _scanned(self, new: list[str], region: _Region, moves: _Moves) -> _Region | None:
        """``region`` with its new lines cut into pieces; None when its end does not meet
        the kept piece after it in the same state, or its first piece needs the one before
        (:attr:`_reaches_back` then)."""
        pieces, starts = self._pieces, self._starts
        at_end = region.last >= len(pieces)
        start = moves(starts[region.first]) if pieces else 0
        end = len(new) if at_end else moves(starts[region.last])
        state = pieces[region.first].state if pieces else ()
        result = scan(new[start:end], state)
        self._reaches_back = result.reaches_back and region.first > 0
        if self._reaches_back or (not at_end and result.end != pieces[region.last].state):
            return None
        region.start, region.end = start, end
        region.pieces = [(start + p.start, p.state) for p in result.pieces] if end > start else []
        return region

    # --- answers ----------------------------------------------------------------------------

    def complete(self, plan: Plan, answers: Sequence[str]) -> list[str] | None:
        """The printed lines of ``plan.lines`` from the answers to its jobs (in order); None
        when an answer lost the context or a marker (then nothing is kept), or another plan
        was completed since this one was made."""
        if plan.base != self._completed:
            return None
        pairs = zip(plan.jobs, answers, strict=True)
        return self.join(plan, [parts(job, answer) for job, answer in pairs])

    def join(self, plan: Plan, printed: Sequence[list[list[str]] | None]) -> list[str] | None:
        """:meth:`complete` from each answer's :func:`parts` (split as the answers come)."""
        if len(printed) != len(plan.jobs):
            raise ValueError(f"{len(plan.jobs)} jobs, {len(printed)} answers")
        if plan.base != self._completed:
            return None
        if any(job is None for job in printed):
            self.reset()
            return None
        return self._joined(plan, [piece for job in printed if job for piece in job])

    def _joined(self, plan: Plan, printed: list[list[str]]) -> list[str]:
        kept: list[_Kept] = []
        taken = 0
        next_old = 0
        for region in plan.regions:
            kept += self._pieces[next_old : region.first]
            bounds = [p for p, _ in region.pieces] + [region.end]
            for n, (_, state) in enumerate(region.pieces):
                piece = _shared(plan.lines[bounds[n] : bounds[n + 1]], printed[taken])
                kept.append(_Kept(state, len(piece), piece))
                taken += 1
            next_old = region.last
        kept += self._pieces[next_old:]
        # the next plan compares with the printed text: what the editor shows once it
        # applied the answer (printing a printed piece again changes nothing)
        self._lines = list(chain.from_iterable(piece.printed for piece in kept))
        self._key, self._pieces = plan.key, kept
        self._completed += 1
        self.last_sent = plan.sent_lines
        self._starts = [0, *accumulate(p.length for p in kept)][:-1]
        return list(self._lines)


class Planning:
    """A plan made in steps, each giving jobs the caller may send before the next step
    (see the module doc): a first plan's steps scan the text a window at a time, a later
    plan is :meth:`PrintedPieces.plan` in one step."""

    def __init__(self, kept: PrintedPieces, lines: list[str], key: object, window: int) -> None:
        self._kept, self._new, self._key = kept, lines, key
        self._window = window
        # the first windows are short, so that the printer starts early; each is at most
        # twice the last, which the printer takes longer to print than the cut to cut
        self._size = max(window // 8, 1)
        self._first = kept.empty
        self._base = kept.completed
        self._start, self._state = 0, TOP  # where the next window starts
        self._pieces: list[tuple[int, State]] = []
        self._jobs: list[Job] = []
        self._done = False
        #: The plan, once :meth:`step` gave None; None if a window reached back.
        self.plan: Plan | None = None

    def step(self) -> tuple[Job, ...] | None:
        """The jobs of the next step; None when there is none left (then :attr:`plan` is
        the plan made, or None when a window's cuts reached back into a window before it:
        the caller makes the whole plan with :meth:`PrintedPieces.plan`)."""
        if self._done:
            return None
        if not self._first:
            self._done = True
            self.plan = self._kept.plan(self._new, self._key)
            return self.plan.jobs
        window = self._next_window()
        if window is None:
            self._done = True
            return None
        pieces, end = window
        jobs = _jobs(self._new, pieces, end)
        self._pieces += pieces
        self._jobs += jobs
        if end == len(self._new):
            self._done = True
            whole = _Region(0, 0, 0, end, self._pieces)
            self.plan = Plan(self._new, self._key, tuple(self._jobs), (whole,), self._base)
        return tuple(jobs)

    def _next_window(self) -> tuple[list[tuple[int, State]], int] | None:
        """The pieces of the next window and where they end (the text's end, or the start
        of the window's last piece, which the next window scans again); None when an end
        keyword of the window closes a loop of a window before it."""
        new, start, size = self._new, self._start, self._size
        self._size = min(2 * size, self._window)
        while True:
            end = min(start + size, len(new))
            result = scan(new[start:end], self._state)
            if result.reaches_back and start > 0:
                return None
            found = [(start + p.start, p.state) for p in result.pieces]
            if end == len(new):
                return (found if end > start else []), end
            if len(found) >= 2:
                break
            # one piece so far, which may go on past the window's end: a whole window, then
            # the rest of the text (a text without cuts, scanned again and again in growing
            # windows, would cost up to twice its scan)
            size = self._window if size < self._window else len(new)
        self._start, self._state = found[-1]
        return found[:-1], self._start


def _jobs(new: list[str], pieces: list[tuple[int, State]], end: int) -> list[Job]:
    """The jobs of ``pieces`` (the last ending at line ``end``): at most :data:`JOB_LINES`
    lines a job (or one piece), so that no request takes long enough to time out."""
    bounds = [p for p, _ in pieces] + [end]
    jobs: list[Job] = []
    first = 0
    while first < len(pieces):
        last = first + 1
        while last < len(pieces) and bounds[last + 1] - bounds[first] <= JOB_LINES:
            last += 1
        jobs.append(_job(new, pieces[first:last], bounds[first : last + 1]))
        first = last
    return jobs


def _job(new: list[str], pieces: list[tuple[int, State]], bounds: list[int]) -> Job:
    context = CONTEXTS[pieces[0][1]]
    text_lines = list(context)
    for n in range(len(pieces)):
        text_lines += new[bounds[n] : bounds[n + 1]]
        text_lines.append(MARKER)
    lengths = tuple(bounds[n + 1] - bounds[n] for n in range(len(pieces)))
    states = tuple(state for _, state in pieces)
    return Job("\n".join(text_lines), context, bounds[0], states, lengths)


def parts(job: Job, answer: str) -> list[list[str]] | None:
    """The printed lines of each piece of ``job`` in ``answer``; None if it is not shaped
    as sent (context first, a marker after each piece, at most a line break after the
    last: whether a printer ends its answer with one does not matter)."""
    lines = answer.split("\n")
    head = lines[: len(job.context)]
    if [_words(line) for line in head] != [_words(line) for line in job.context]:
        return None
    found: list[list[str]] = []
    at = len(job.context)
    while len(found) < len(job.lengths):
        try:
            marker = lines.index(MARKER, at)
        except ValueError:
            return None
        found.append(lines[at:marker])
        at = marker + 1
    return found if lines[at:] in ([], [""]) else None


def _shared(sent: list[str], printed: list[str]) -> list[str]:
    """``printed``, where a line is as it was sent the sent string (the buffer's): a
    document formatted before costs the kept form a list, not a second copy of its text."""
    if sent == printed:
        return sent
    if len(sent) != len(printed):
        return printed
    return [old if old == new else new for old, new in zip(sent, printed, strict=True)]


def _words(line: str) -> list[str]:
    return line.upper().split()
