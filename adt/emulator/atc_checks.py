"""The emulator's ATC checks: a few deterministic rules on source text, each one honest.

* **Extended Program Check (SLIN)**, message ``0800`` (the check id and text of A4H ``439``):
  a ``BREAK-POINT`` statement (without ``ID``) or a ``BREAK <user>`` statement; priority 2.
* **Obsolete Statements** (an emulator check id): ``MOVE … TO``/``?TO``, ``COMPUTE``, the
  static form of ``CALL METHOD`` (not the dynamic ``CALL METHOD (name)``/``obj->(name)``)
  and ``OCCURS`` in ``DATA``/``TYPES``/``STATICS`` declarations; priority 3.
* **Pseudo Comments** (an emulator check id): a ``"#EC`` pseudo comment other than the Code
  Inspector's ``"#EC CI_…``, which pragmas (``##…``) replaced; priority 3.

Findings sit on the line where the statement (or the comment) starts; ATC reports lines,
so every column is 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from adt.abap.scanner import Statement, statements

from .abapexpr import strip_comment


@dataclass(frozen=True)
class Check:
    """An ATC check: its 32-hex id, title and what its documentation page says."""

    id: str
    title: str
    explanation: str


SLIN = Check(
    "F8607CD40A0F8B30BDF8590205B306E8",
    "Extended Program Check (SLIN)",
    "A BREAK-POINT or BREAK statement stops the program in the debugger for every user "
    "(or for the named user). Remove it before the object is transported.",
)
OBSOLETE = Check(
    "26C14472071BAE9CC2B8D684D733B91C",
    "Obsolete Statements",
    "The statement is obsolete: it is still accepted outside classes, but a modern form "
    "exists (assignments with =, functional method calls, table types).",
)
PSEUDO_COMMENTS = Check(
    "8F46DA2D69A68DA0D3E21E814A3821C2",
    "Pseudo Comments",
    'Pseudo comments ("#EC ...) for the extended program check were replaced by pragmas '
    "(##...). Only the Code Inspector's \"#EC CI_... pseudo comments are still needed.",
)

#: Check variants by name: which checks each runs.
VARIANTS: dict[str, tuple[Check, ...]] = {
    "DEFAULT": (SLIN, OBSOLETE, PSEUDO_COMMENTS),
    "OBSOLETE_STATEMENTS": (OBSOLETE,),
}
SYSTEM_VARIANT = "DEFAULT"

_PSEUDO = re.compile(r'^"#EC\s+(\S+)', re.IGNORECASE)
_DECLARATIONS = ("DATA", "TYPES", "STATICS", "CLASS-DATA")


@dataclass(frozen=True)
class Finding:
    """One finding: which check, which message, how urgent, where (1-based line)."""

    check: Check
    message_id: str
    message: str
    priority: int
    line: int
    subject: str = ""


def _slin(statement: Statement) -> Finding | None:
    words = statement.words
    breakpoint_statement = words[0] == "BREAK-POINT" and words[1:2] != ["ID"]
    user_breakpoint = words[0] == "BREAK" and len(words) == 2
    if not (breakpoint_statement or user_breakpoint):
        return None
    text = "The line contains a BREAK-POINT statement."
    return Finding(SLIN, "0800", text, 2, statement.line, " ".join(words))


def _obsolete(statement: Statement) -> Finding | None:
    words = statement.words
    head = words[0]
    found: tuple[str, str] | None = None
    if head == "MOVE" and ("TO" in words or "?TO" in words):
        found = ("MOVE", "MOVE ... TO is obsolete; use the assignment operator =")
    elif head == "COMPUTE":
        found = ("COMPUTE", "COMPUTE is obsolete; write the assignment without it")
    elif words[:2] == ["CALL", "METHOD"] and len(words) > 2 and "(" not in words[2]:
        found = ("CALL_METH", "The static form of CALL METHOD is obsolete; use a method call")
    elif head in _DECLARATIONS and "OCCURS" in words:
        found = ("OCCURS", "OCCURS is obsolete; declare the table with TABLE OF")
    if found is None:
        return None
    return Finding(OBSOLETE, found[0], found[1], 3, statement.line, " ".join(words))


def _pseudo_comments(lines: list[str]) -> list[Finding]:
    found: list[Finding] = []
    for number, line in enumerate(lines, start=1):
        if line.startswith("*"):
            continue
        code = strip_comment(line)
        match = _PSEUDO.match(line[len(code) :])
        if match is None or match.group(1).upper().startswith("CI_"):
            continue
        name = match.group(1).upper()
        text = f'The pseudo comment "#EC {name} is obsolete; use a pragma (##...)'
        found.append(Finding(PSEUDO_COMMENTS, "PSEUDO", text, 3, number, name))
    return found


_STATEMENT_RULES = {SLIN: _slin, OBSOLETE: _obsolete}


def findings(text: str, checks: Iterable[Check]) -> list[Finding]:
    """The findings of ``checks`` in one source, ordered by line."""
    chosen = set(checks)
    rules = [rule for check, rule in _STATEMENT_RULES.items() if check in chosen]
    found: list[Finding] = []
    for statement in statements(text):
        if not statement.words:
            continue
        for rule in rules:
            finding = rule(statement)
            if finding is not None:
                found.append(finding)
    if PSEUDO_COMMENTS in chosen:
        found += _pseudo_comments(text.split("\n"))
    return sorted(found, key=lambda f: f.line)


__all__ = [
    "OBSOLETE",
    "PSEUDO_COMMENTS",
    "SLIN",
    "SYSTEM_VARIANT",
    "VARIANTS",
    "Check",
    "Finding",
    "findings",
]
