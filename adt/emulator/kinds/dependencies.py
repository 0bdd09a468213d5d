"""The objects a CDS-family or dictionary source names (data sources, association targets,
the entity a metadata extension annotates, the entities a service exposes, a table's
includes and field types), found by patterns over the text with comments blanked out by
the family's lexer (:func:`adt.abap.cds.tokens.without_comments`), so activation can refuse
a source over an inactive object and order a set by dependency.

A light reading on purpose (the CDS language knowledge lives in ``adt.abap.cds``); it only
has to find names, not to check them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adt.abap.cds.tokens import without_comments

_NAME = r"([/A-Za-z_][/\w]*)(?![\w.])"


@dataclass(frozen=True)
class NameUse:
    """A name a source refers to, and where (1-based line, 0-based column)."""

    name: str
    line: int
    column: int


def names_used(text: str, patterns: tuple[str, ...]) -> list[NameUse]:
    """Each name the patterns capture (group 1), upper case, once, in text order."""
    plain = without_comments(text)
    found: dict[str, NameUse] = {}
    for pattern in patterns:
        for match in re.finditer(
            pattern.replace("{name}", _NAME), plain, re.IGNORECASE | re.MULTILINE
        ):
            name = match.group(1).upper()
            if name.startswith("ABAP.") or name in found:
                continue
            line = plain.count("\n", 0, match.start(1)) + 1
            column = match.start(1) - (plain.rfind("\n", 0, match.start(1)) + 1)
            found[name] = NameUse(name, line, column)
    return sorted(found.values(), key=lambda use: (use.line, use.column))


__all__ = ["NameUse", "names_used"]
