"""A realistic editing session as an editor reports it: one content change per key.

The mix (per key, drawn with a fixed seed): typing at the cursor (72 %, now and then a blank
at the end of a line), Backspace (10 %, joining lines at column 0), Enter with the line's
indentation carried over (9 %: an indented empty line is what a server's normalisation later
trims), a paste of 3-12 lines (3 %), deleting the line under the cursor (3 %), and a cursor
jump to another place (3 %, no change sent; the edits after it happen there). Characters are
ASCII, so a ``str`` index is also the UTF-16 position. The session keeps its own copy of the
lines, so every change is valid against the text as it evolves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

Change = tuple[tuple[int, int], tuple[int, int], str]

TYPED = "abcdefghijklmnopqrstuvwxyz_0123456789 ().=-'"
PASTE = [
    "    DATA(lv_amount) = ls_item-amount * lv_rate.",
    "    IF lv_amount > lv_limit.",
    "      RAISE EXCEPTION TYPE zcx_limit EXPORTING amount = lv_amount.",
    "    ENDIF.",
    "    APPEND ls_item TO rt_items.",
    "    LOOP AT it_lines INTO DATA(ls_line).",
    "      lv_total = lv_total + ls_line-quantity.",
    "    ENDLOOP.",
    '    " checked with the owner of the ledger',
    "",
]


@dataclass
class Session:
    lines: list[str]
    seed: int = 0
    changes: list[Change] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.line = len(self.lines) // 2
        self.column = len(self.lines[self.line])

    def keys(self, count: int) -> list[Change]:
        """``count`` changes (a cursor jump is followed by the change at the new place)."""
        while len(self.changes) < count:
            roll = self.rng.random()
            if roll < 0.03:
                self._jump()
                continue
            self._key(roll)
        return self.changes

    def _key(self, roll: float) -> None:
        line, column = self.line, self.column
        if roll < 0.75:
            blank_end = column == len(self.lines[line]) and self.rng.random() < 0.2
            self._change((line, column), (line, column), " " if blank_end else self._char())
        elif roll < 0.85:
            if column > 0:
                self._change((line, column - 1), (line, column), "")
            elif line > 0:
                self._change((line - 1, len(self.lines[line - 1])), (line, 0), "")
        elif roll < 0.94:
            text = self.lines[line]
            indent = text[: len(text) - len(text.lstrip(" "))]
            self._change((line, column), (line, column), "\n" + indent)
        elif roll < 0.97:
            block = [self.rng.choice(PASTE) for _ in range(self.rng.randint(3, 12))]
            self._change((line, 0), (line, 0), "\n".join(block) + "\n")
        elif len(self.lines) > 1 and line + 1 < len(self.lines):
            self._change((line, 0), (line + 1, 0), "")

    def _char(self) -> str:
        return self.rng.choice(TYPED)

    def _jump(self) -> None:
        self.line = self.rng.randrange(len(self.lines))
        self.column = self.rng.randint(0, len(self.lines[self.line]))

    def _change(self, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """Record the change, apply it to our lines, put the cursor after the new text."""
        self.changes.append((start, end, text))
        head = self.lines[start[0]][: start[1]]
        tail = self.lines[end[0]][end[1] :]
        piece = (head + text + tail).split("\n")
        self.lines[start[0] : end[0] + 1] = piece
        self.line = start[0] + len(piece) - 1
        self.column = len(piece[-1]) - len(tail)


def class_source(lines: int) -> list[str]:
    """A class of about ``lines`` lines: methods of twenty statements each, indented."""
    body = ["CLASS zcl_bench DEFINITION PUBLIC.", "  PUBLIC SECTION."]
    methods = max(1, (lines - 8) // 24)
    body += [
        f"    METHODS m{k} IMPORTING iv_x TYPE i RETURNING VALUE(rv_y) TYPE i."
        for k in range(methods)
    ]
    body += ["ENDCLASS.", "", "CLASS zcl_bench IMPLEMENTATION."]
    for k in range(methods):
        body.append(f"  METHOD m{k}.")
        body += [f'    rv_y = iv_x * {k} + {s}. " step {s} of m{k}' for s in range(20)]
        body.append("  ENDMETHOD.")
    body.append("ENDCLASS.")
    return body
