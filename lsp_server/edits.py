"""Edits an editor applies: whole-line edits that turn one list of lines into another,
touching only the lines that differ (:func:`line_edits`), and applying them to a text
(:func:`apply_edits`, the editor's view, for tests). Re-exported by :mod:`lsp_server.buffer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adt.source.linediff import differences


@dataclass(frozen=True)
class Edit:
    """Replace the text between two (0-based line, ``str`` index) positions."""

    start: tuple[int, int]
    end: tuple[int, int]
    text: str


def line_edits(old: Sequence[str], new: Sequence[str]) -> list[Edit]:
    """Non-overlapping edits (all against ``old``) that turn lines ``old`` into ``new``,
    touching only the lines that differ (so an editor keeps cursors and folds elsewhere).

    Edits are whole lines, ``(i, 0)`` to ``(j, 0)``. An edit that reaches the end of the
    document has no following line to end at, so it starts at the end of the line before
    (deletions, appends) or ends at the end of the last line. No two edits ever share a
    position, because editors may apply such edits in either order.
    """
    if old == new:
        return []
    count = len(old)
    diffs = differences(old, new)
    if len(diffs) > 1 and diffs[-1][1] == count:
        (pi1, pi2, pj1, _), (li1, _, _, _) = diffs[-2], diffs[-1]
        if li1 - pi2 == 1 and old[pi2] == "":
            # Only an empty line separates the last two changes: the last edit would start
            # where the previous one ends. Make them one edit.
            diffs[-2:] = [(pi1, count, pj1, len(new))]
    last_end = (count - 1, len(old[-1]))
    edits: list[Edit] = []
    for i1, i2, j1, j2 in diffs:
        lines = new[j1:j2]
        if i2 < count:
            edits.append(Edit((i1, 0), (i2, 0), "".join(line + "\n" for line in lines)))
        elif i1 == 0:
            edits.append(Edit((0, 0), last_end, "\n".join(lines)))
        elif lines and i1 < count:
            edits.append(Edit((i1, 0), last_end, "\n".join(lines)))
        else:  # delete through the end, or append after the last line
            after = (i1 - 1, len(old[i1 - 1]))
            edits.append(Edit(after, last_end, "".join("\n" + line for line in lines)))
    return edits


def apply_edits(lines: Sequence[str], edits: Sequence[Edit]) -> str:
    """Apply edits (all against ``lines``) to the joined text; the editor's view, for tests."""
    text = "\n".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        a = starts[edit.start[0]] + edit.start[1]
        b = starts[edit.end[0]] + edit.end[1]
        text = text[:a] + edit.text + text[b:]
    return text
