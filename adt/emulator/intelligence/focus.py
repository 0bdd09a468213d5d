"""The part of a program a request at one cursor needs: every method body blanked except the
one the cursor is in.

An editor posts its whole unsaved text with each completion, element-info or navigation
request, and every keystroke makes it a text no index has seen. Indexing all of it costs in
proportion to the object (seconds for a 10,000-line class). What the answer at a cursor
depends on is the program's declarations and the statements of the method around the
cursor: names declared in another method body are not visible there. So each method
implementation the cursor is not in keeps its ``METHOD`` and ``ENDMETHOD`` lines (the
method's region, its implementation location) and has the lines between replaced by empty
ones — line numbers stay, the work is the declarations plus one body. Forms, function
modules and code outside methods are kept as they are.
"""

from __future__ import annotations

from adt.abap.index import Unit

from .bodies import blank
from .repository import Program


def blank_bodies(text: str, keep_line: int = 0) -> str:
    """``text`` with the bodies of its method implementations emptied, except the one
    that holds line ``keep_line`` (1-based; 0 keeps none)."""
    return blank(text, lambda lines, start, end: start < keep_line <= end + 1)


def focused(program: Program, unit: str, line: int) -> Program:
    """``program`` as a request at ``line`` of ``unit`` needs it."""
    units = tuple(
        Unit(u.id, blank_bodies(u.text, line if u.id == unit else 0)) for u in program.units
    )
    return Program(program.name, program.root, units)
