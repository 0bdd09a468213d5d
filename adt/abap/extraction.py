"""Extract method: what a selection of statements needs as a method of its own, and the text
replacements that make it one.

:func:`analyse` reads the selection against the program's symbol index: it must be whole,
balanced statements inside one method implementation that do not leave it (``RETURN``, or
``EXIT``/``CONTINUE``/``CHECK`` outside a loop of their own). Every variable or parameter of
the enclosing method that the selection uses becomes a parameter: read at or before its
first write → ``IMPORTING``; written and read before → ``CHANGING``; written only →
``EXPORTING``. A variable declared in the selection and used after it is refused (it would
vanish). :func:`replacements` then answers three replacements in the one source: the
``METHODS`` declaration in the chosen section, the call in place of the selection, the new
``METHOD … ENDMETHOD`` after the enclosing one. Pure (no I/O): the emulator's extract-method
refactoring serves it; docs/protocol/refactoring.md says what a real system is known to do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from adt.abap.index import ProgramIndex
from adt.abap.lexer import NAME, Statement
from adt.abap.structure import Block, BlockKind
from adt.abap.symbols import Occurrence, ScopeKind, Symbol, SymbolKind

__all__ = [
    "Extraction",
    "ExtractionRefused",
    "Parameter",
    "Replacement",
    "analyse",
    "replacements",
]

_OPEN = frozenset({"IF", "LOOP", "DO", "WHILE", "CASE", "TRY", "SELECT", "AT", "PROVIDE"})
_CLOSE = frozenset(
    {"ENDIF", "ENDLOOP", "ENDDO", "ENDWHILE", "ENDCASE", "ENDTRY", "ENDSELECT", "ENDAT"}
)
_LOOPS = frozenset({"LOOP", "DO", "WHILE", "SELECT", "PROVIDE"})
_MIDDLE = frozenset({"ELSE", "ELSEIF", "WHEN", "CATCH", "CLEANUP"})
_LEAVE_LOOP = frozenset({"EXIT", "CONTINUE", "CHECK"})
#: The word before a name that makes the statement overwrite it (besides an assignment).
_OVERWRITING = frozenset({"CLEAR", "FREE", "REFRESH", "INTO", "ASSIGNING", "REFERENCE"})
#: … or change it in place (its old value counts: ``APPEND x TO``, ``ADD 1 TO``, ``SORT``;
#: ``TO`` and ``INTO TABLE`` also overwrite at times, and are counted here, the safe side).
_MODIFYING = frozenset(
    {"SORT", "CONDENSE", "TRANSLATE", "SHIFT", "DELETE", "MODIFY", "TO", "APPENDING", "TABLE"}
)
#: What a method's own declarations may be to become parameters (not its TYPES).
_PASSED = frozenset({SymbolKind.VARIABLE, SymbolKind.PARAMETER, SymbolKind.CONSTANT})
_SECTION_WORDS = frozenset({"EXPORTING", "IMPORTING", "CHANGING", "RECEIVING", "EXCEPTIONS"})
#: Sections of a call whose actual parameters receive a value.
_RECEIVED = frozenset({"IMPORTING", "CHANGING", "RECEIVING"})
_WORD = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)\W*$")
_NAME = re.compile(r"^(?:/[A-Z0-9_]+/)?[A-Z_][A-Z0-9_]*$")
_DIRECTIONS = ("IMPORTING", "EXPORTING", "CHANGING")
_SECTIONS = {"PUBLIC": "PUBLIC SECTION", "PROTECTED": "PROTECTED SECTION"}


class ExtractionRefused(ValueError):
    """Why the selection cannot become a method (said in the user's words)."""


@dataclass(frozen=True)
class Parameter:
    """One parameter of the new method: the variable's ``name`` as written, its direction,
    and its typing as declared (``TYPE i``, ``TYPE REF TO zcl_x``)."""

    name: str
    direction: str
    typing: str

    @property
    def type_type(self) -> str:
        return "TYPE REF TO" if self.typing.upper().startswith("TYPE REF TO ") else "TYPE"

    @property
    def type(self) -> str:
        return self.typing[len(self.type_type) :].strip()


@dataclass(frozen=True)
class Replacement:
    """Replace lines ``line``–``end_line`` (1-based), columns ``start``–``end`` (0-based,
    end exclusive), i.e. ``old``, with ``new``; ``start == end`` on one line inserts."""

    line: int
    start: int
    end_line: int
    end: int
    old: str
    new: str


@dataclass(frozen=True)
class Extraction:
    """A selection that can become a method, and where its pieces go."""

    unit: str
    class_name: str
    method: Symbol
    first: int
    last: int
    lines: tuple[str, ...]
    parameters: tuple[Parameter, ...]
    definition: Block
    implementation: Block

    @property
    def static(self) -> bool:
        return self.method.static

    @property
    def selected(self) -> str:
        return "\n".join(self.lines[self.first - 1 : self.last])

    def taken(self, name: str) -> bool:
        """Whether the class already has a component called ``name``."""
        scope = self.method.scope
        return scope is not None and scope.local(name.upper()) is not None


def analyse(index: ProgramIndex, unit: str, first: int, last: int) -> Extraction:
    """The selection of lines ``first``–``last`` (1-based) of ``unit`` as a method to be."""
    lines = tuple(index.lines.get(unit, []))
    method_block, class_block = _enclosing(index, unit, first, last)
    selected = _selected(method_block, first, last)
    _check_flow(selected)
    method = next(
        (
            o.symbol
            for o in index.occurrences(unit)
            if o.line == method_block.first_line
            and o.role == "implementation"
            and o.symbol.kind is SymbolKind.METHOD
        ),
        None,
    )
    if method is None:
        raise ExtractionRefused("the enclosing method is not known to the index")
    class_name = class_block.name_token.text if class_block.name_token else ""
    definition = _definition(index, unit, class_name)
    first, last = selected[0].line, selected[-1].last_line
    inside = [o for o in index.occurrences(unit) if method_block.first_line < o.line]
    inside = [o for o in inside if o.line < method_block.last_line and _local(o.symbol, method)]
    access = _Access(lines, _received(selected))
    params = _parameters(inside, first, last, access, unit)
    return Extraction(
        unit, class_name, method, first, last, lines, params, definition, method_block
    )


def _enclosing(index: ProgramIndex, unit: str, first: int, last: int) -> tuple[Block, Block]:
    for structure in index.structures:
        if structure.unit != unit:
            continue
        for block in structure.blocks:
            if block.kind is not BlockKind.CLASS_IMPLEMENTATION:
                continue
            for child in block.children:
                end = child.end.line if child.end is not None else 0
                method = child.kind is BlockKind.METHOD
                if method and child.header.last_line < first and last < end:
                    return child, block
    raise ExtractionRefused(
        "select statements inside one method implementation (between METHOD and ENDMETHOD)"
    )


def _selected(method: Block, first: int, last: int) -> list[Statement]:
    selected = []
    for statement in method.body:
        if statement.line < first <= statement.last_line or (
            statement.line <= last < statement.last_line
        ):
            raise ExtractionRefused(
                f"the selection cuts the statement at line {statement.line}: select whole "
                "statements"
            )
        if first <= statement.line <= last:
            selected.append(statement)
    if not selected:
        raise ExtractionRefused("the selection holds no statement")
    return selected


def _check_flow(statements: Sequence[Statement]) -> None:
    """Balanced blocks; nothing that would leave the new method instead of the old one."""
    depth, loops = 0, 0
    for statement in statements:
        word = statement.first
        if word in _CLOSE:
            depth -= 1
            loops -= 1 if word in ("ENDLOOP", "ENDDO", "ENDWHILE", "ENDSELECT") else 0
        if depth < 0 or (word in _MIDDLE and depth == 0):
            raise ExtractionRefused(
                f"the selection splits a block ({word} at line {statement.line}): select "
                "whole blocks"
            )
        if word == "RETURN" or (word in _LEAVE_LOOP and loops == 0):
            raise ExtractionRefused(
                f"{word} at line {statement.line} would leave the new method instead of the "
                "current one"
            )
        if word in _OPEN and not _single_select(statement):
            depth += 1
            loops += 1 if word in _LOOPS else 0
    if depth != 0:
        raise ExtractionRefused("the selection opens a block it does not close")


def _single_select(statement: Statement) -> bool:
    """``SELECT SINGLE`` and ``SELECT … INTO TABLE`` open no loop."""
    if statement.first != "SELECT":
        return statement.first == "AT" and len(statement.words(2)) < 2
    words = [t.upper for t in statement.tokens]
    return "SINGLE" in words or "TABLE" in words


def _definition(index: ProgramIndex, unit: str, class_name: str) -> Block:
    for structure in index.structures:
        for block in structure.blocks:
            name = block.name_token
            if (
                structure.unit == unit
                and block.kind is BlockKind.CLASS_DEFINITION
                and name is not None
                and name.upper == class_name.upper()
                and block.end is not None
            ):
                return block
    raise ExtractionRefused(
        f"the definition of {class_name} is not in this source; extract in the include that "
        "holds both"
    )


def _local(symbol: Symbol, method: Symbol) -> bool:
    """A local of the enclosing method (only its own occur inside it) or one of its
    parameters — not a called method's formal parameter, an attribute or a global."""
    if symbol.scope is None or symbol.scope.kind is not ScopeKind.METHOD:
        return False
    return symbol.kind is not SymbolKind.PARAMETER or any(
        p.key == symbol.key for p in method.params
    )


def _received(statements: Sequence[Statement]) -> dict[tuple[int, int], bool]:
    """The actual parameters the calls in ``statements`` write to — ``(line, column)`` →
    whether the call reads them too (``CHANGING``; ``IMPORTING`` and ``RECEIVING`` only
    write)."""
    found: dict[tuple[int, int], bool] = {}
    for statement in statements:
        section = ""
        tokens = statement.tokens
        for i, token in enumerate(tokens):
            if token.kind == NAME and token.upper in _SECTION_WORDS:
                section = token.upper
            elif section in _RECEIVED and token.kind == NAME and tokens[i - 1].text == "=":
                found[(token.line, token.column)] = section == "CHANGING"
    return found


@dataclass(frozen=True)
class _Access:
    """What the selection does with a name at a place: the lines (for the word before it)
    and the call arguments that receive a value."""

    lines: Sequence[str]
    received: dict[tuple[int, int], bool]

    def writes(self, occurrence: Occurrence) -> bool:
        received = (occurrence.line, occurrence.column) in self.received
        return occurrence.write or received or self._word_before(occurrence) is not None

    def reads(self, occurrence: Occurrence) -> bool:
        """Read here: not written, changed in place, or passed to ``CHANGING``."""
        if self.received.get((occurrence.line, occurrence.column), False):
            return True
        word = self._word_before(occurrence)
        if occurrence.write or (occurrence.line, occurrence.column) in self.received:
            return False
        return word is None or word in _MODIFYING

    def _word_before(self, occurrence: Occurrence) -> str | None:
        """The keyword before the name when it makes the statement write it."""
        lines = self.lines
        line = occurrence.line
        text = lines[line - 1][: occurrence.column] if line <= len(lines) else ""
        match = _WORD.search(text.rstrip(" @("))
        if match is None:
            return None
        word = match.group(1).upper()
        if word == "TABLE":
            before = _WORD.search(text[: match.start()].rstrip())
            into = before is not None and before.group(1).upper() in ("INTO", "APPENDING")
            return word if into else None
        return word if word in _OVERWRITING or word in _MODIFYING else None


def _parameters(
    occurrences: Iterable[Occurrence], first: int, last: int, access: _Access, unit: str
) -> tuple[Parameter, ...]:
    by_symbol: dict[object, list[Occurrence]] = {}
    for occ in occurrences:
        by_symbol.setdefault(occ.symbol.key, []).append(occ)
    params = []
    for found in by_symbol.values():
        inside = [o for o in found if first <= o.line <= last]
        if not inside:
            continue
        symbol = inside[0].symbol
        after = [o for o in found if o.line > last]
        if any(o.role == "declaration" for o in inside):
            if after:
                raise ExtractionRefused(
                    f"{symbol.spelled or symbol.name} is declared in the selection and used "
                    f"after it (line {after[0].line}): move its declaration out first"
                )
            continue
        params.append(_parameter(symbol, inside, access, unit))
    return tuple(params)


def _parameter(
    symbol: Symbol, inside: Sequence[Occurrence], access: _Access, unit: str
) -> Parameter:
    name = symbol.spelled or symbol.name.lower()
    if symbol.kind not in _PASSED:
        raise ExtractionRefused(
            f"the {symbol.kind.value} {name} of the method cannot be passed to a new method; "
            "declare it in the class or inside the selection"
        )
    typing = symbol.typing
    upper = typing.upper()
    if not upper.startswith("TYPE ") or " TABLE OF " in upper or " RANGE OF " in upper:
        raise ExtractionRefused(
            f"the type of {name} cannot be named in a signature ({typing or 'inline'}); "
            "declare it with a named type first"
        )
    written = [o.line for o in inside if access.writes(o)]
    read_in = any(access.reads(o) and (not written or o.line <= written[0]) for o in inside)
    direction = "IMPORTING" if not written else "CHANGING" if read_in else "EXPORTING"
    return Parameter(name, direction, _spelled_typing(symbol, access.lines, unit))


def _spelled_typing(symbol: Symbol, lines: Sequence[str], unit: str) -> str:
    """The typing as this source writes it (its case), else as the index normalised it
    (a parameter declared in an interface)."""
    location = symbol.location
    if location is not None and location.unit == unit and 0 < location.line <= len(lines):
        text = lines[location.line - 1]
        at = text.upper().find(symbol.typing.upper(), location.column)
        if at >= 0:
            return text[at : at + len(symbol.typing)]
    keyword = "TYPE REF TO" if symbol.typing.upper().startswith("TYPE REF TO ") else "TYPE"
    return f"{keyword} {symbol.typing[len(keyword) :].strip().lower()}"


def replacements(
    extraction: Extraction,
    name: str,
    parameters: Sequence[Parameter] | None = None,
    visibility: str = "PRIVATE",
) -> list[Replacement]:
    """The declaration, the call and the implementation of method ``name`` (refused when
    the name is not an ABAP name or the class has that component already)."""
    upper = name.upper()
    if not _NAME.match(upper) or len(upper) > 30:
        raise ExtractionRefused(f"{name} is not a valid method name (letters, digits, _; ≤ 30)")
    if extraction.taken(upper):
        raise ExtractionRefused(f"{extraction.class_name} already has a component {name}")
    params = list(extraction.parameters if parameters is None else parameters)
    return [
        _declaration(extraction, name, params, visibility.upper()),
        _call(extraction, name, params),
        _implementation(extraction, name),
    ]


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _declaration(
    extraction: Extraction, name: str, params: Sequence[Parameter], visibility: str
) -> Replacement:
    lines = extraction.lines
    section = _SECTIONS.get(visibility, "PRIVATE SECTION")
    keyword = "CLASS-METHODS" if extraction.static else "METHODS"
    for statement in extraction.definition.body:
        if " ".join(statement.words(2)) == section:
            at = statement.last_line
            indent = _indent(lines[at - 1]) + "  "
            text = "\n" + _signature(indent, keyword, name, params)
            return Replacement(at, len(lines[at - 1]), at, len(lines[at - 1]), "", text)
    end = extraction.definition.end
    assert end is not None  # _definition only answers closed definitions
    indent = _indent(lines[end.line - 1]) + "  "
    text = f"{indent}{section}.\n" + _signature(indent + "  ", keyword, name, params) + "\n"
    return Replacement(end.line, 0, end.line, 0, "", text)


def _signature(indent: str, keyword: str, name: str, params: Sequence[Parameter]) -> str:
    parts = [f"{indent}{keyword} {name}"]
    for direction in _DIRECTIONS:
        group = [p for p in params if p.direction == direction]
        if group:
            parts.append(f"{indent}  {direction}")
            parts.extend(f"{indent}    {p.name} {p.typing}" for p in group)
    return "\n".join(parts) + "."


def _call(extraction: Extraction, name: str, params: Sequence[Parameter]) -> Replacement:
    lines = extraction.lines
    first, last = extraction.first, extraction.last
    indent = _indent(lines[first - 1])
    flipped = {"IMPORTING": "EXPORTING", "EXPORTING": "IMPORTING", "CHANGING": "CHANGING"}
    groups = []
    for direction in _DIRECTIONS:
        group = [p for p in params if p.direction == direction]
        if group:
            groups.append((flipped[direction], " ".join(f"{p.name} = {p.name}" for p in group)))
    if not groups:
        call = f"{name}( )."
    elif len(groups) == 1 and groups[0][0] == "EXPORTING":
        call = f"{name}( {groups[0][1]} )."
    else:
        inner = f"\n{indent}  ".join(f"{word} {pairs}" for word, pairs in groups)
        call = f"{name}(\n{indent}  {inner} )."
    old = "\n".join(lines[first - 1 : last])
    return Replacement(first, 0, last, len(lines[last - 1]), old, indent + call)


def _implementation(extraction: Extraction, name: str) -> Replacement:
    lines = extraction.lines
    block = extraction.implementation
    assert block.end is not None  # _enclosing only answers closed methods
    at = block.end.last_line
    indent = _indent(lines[block.first_line - 1])
    body = lines[extraction.first - 1 : extraction.last]
    common = min((len(_indent(b)) for b in body if b.strip()), default=0)
    moved = [f"{indent}  {b[common:]}" if b.strip() else "" for b in body]
    text = "\n".join(["", "", f"{indent}METHOD {name}.", *moved, f"{indent}ENDMETHOD."])
    return Replacement(at, len(lines[at - 1]), at, len(lines[at - 1]), "", text)
