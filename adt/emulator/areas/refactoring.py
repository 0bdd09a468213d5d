"""The rename refactoring at ``/sap/bc/adt/refactorings`` (evaluate → preview → execute).

``step=evaluate&rel=…/rename&uri=<source>#start=L,C1;end=L,C2`` names the symbol at the
cursor and every place that changes with it; ``step=preview`` takes the new name back and
answers the text replacements; ``step=execute`` applies the replacements it is sent (all of
them or none) as inactive versions. The places come from the emulator's where-used index
(:class:`~adt.emulator.intelligence.whereused.WhereUsed`, declarations included), so a
rename changes exactly what where-used lists. Evidence and deviations:
docs/protocol/refactoring.md, docs/emulator.md ("Rename refactoring").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from lxml import etree
from starlette.responses import Response

from adt.abap.keywords import KEYWORDS
from adt.abap.symbols import Occurrence, Symbol, SymbolKind

from .. import errors
from ..calls import Call
from ..documents import refactoring as docs
from ..documents.common import NS_ADTCORE
from ..intelligence.requests import Position, parse_uri
from ..model import ADT, CLAS, INTF, RepoObject
from ..object_changes import taken_by
from . import Route
from .cds_renaming import CdsElements
from .extraction import ExtractMethod, answer, object_uri, refused

if TYPE_CHECKING:
    from ..cts import Booking
    from ..intelligence.handlers import CodeIntelligence

GENERIC = "{" + docs.NS_GENERIC + "}"
RENAME = "{" + docs.NS_RENAME + "}"
CORE = "{" + NS_ADTCORE + "}"
_NAME = re.compile(r"^(?:/[A-Z0-9_]+/)?[A-Z_][A-Z0-9_]*$")
_RANGE = re.compile(r"start=(\d+),(\d+);end=(\d+),(\d+)")
#: Repository objects are renamed by other means (a new object), not by this refactoring.
_OBJECTS = frozenset({SymbolKind.PROGRAM, SymbolKind.INCLUDE, SymbolKind.FUNCTION})
_MAX_NAME = 30


class Renaming:
    """Evaluate, preview and execute over the where-used index of one system."""

    def __init__(self, serve: CodeIntelligence) -> None:
        self.serve = serve
        self.state = serve.state
        self.extract = ExtractMethod(serve)
        self.cds = CdsElements(serve.state, serve.repo)

    def handle(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "POST":
            raise errors.method_not_supported(call.method)
        step = call.query.get("step", "")
        if step == "execute":
            return self.execute(call)
        rel = call.query.get("rel")
        if rel == docs.EXTRACT_REL and step in ("evaluate", "preview"):
            return self.extract.evaluate(call) if step == "evaluate" else self.extract.preview(call)
        if rel != docs.RENAME_REL:
            raise errors.no_suitable_resource()  # change package: not served
        if step == "evaluate":
            return self.evaluate(call)
        if step == "preview":
            return self.preview(call)
        raise errors.bad_request(f"Unknown refactoring step '{step}'")

    # evaluate / preview ------------------------------------------------------------------
    def evaluate(self, call: Call) -> Response:
        position = parse_uri(call.query.get("uri"))
        element = self.cds.at(position)
        if element is not None:
            old = self.cds.spelled(element)
            affected = self.cds.affected(element, old, old)
        else:
            occurrence, _ = self._target(position)
            old = self._spelled(occurrence)
            affected = self._affected(occurrence.symbol, old, old)
        generic = docs.Generic("Rename", object_uri(position), affected)
        return answer(docs.rename_document(old, old, generic))

    def preview(self, call: Call) -> Response:
        root = _root(call.body)
        old = (root.findtext(f"{RENAME}oldName") or "").strip()
        new = (root.findtext(f"{RENAME}newName") or "").strip()
        generic = _generic_of(root)
        object_uri = (generic.findtext(f"{GENERIC}adtObjectUri") or "").strip()
        transport = (generic.findtext(f"{GENERIC}transport") or "").strip()
        affected = self._previewed(parse_uri(object_uri), old, new)
        title = (generic.findtext(f"{GENERIC}title") or "Rename").strip()
        answered = docs.Generic(title, object_uri, affected, transport)
        return answer(docs.rename_document(old, new, answered))

    def _previewed(self, position: Position, old: str, new: str) -> list[docs.Affected]:
        """The places for ``new`` of what is still named ``old`` at the position."""
        element = self.cds.at(position)
        if element is not None:
            name = self.cds.name_of(element)
        else:
            name = self._target(position)[0].symbol.name
        if name != old.upper():
            raise refused(
                f"The source changed: there is no {old} at {position.path} any more; evaluate again"
            )
        if element is not None:
            self.cds.check(element, new)
            return self.cds.affected(element, old, new)
        symbol = self._target(position)[0].symbol
        self._check_name(symbol, new)
        return self._affected(symbol, old, new)

    def _target(self, position: Position) -> tuple[Occurrence, RepoObject]:
        repo = self.serve.repo
        obj, part = repo.existing_unit(position.path)
        index = repo.index(repo.program(obj))
        unit = obj.source_uri(part)
        columns = [position.column] + ([position.end[1]] if position.end else [])
        found = None
        for column in columns:
            found = found or index.occurrence_at(unit, position.line or 1, column)
        if found is None or found.role == "anchor":
            raise refused("Rename is not possible here: place the cursor on a name")
        symbol = found.symbol
        if symbol.kind in _OBJECTS:
            raise refused(
                f"{symbol.name} is a repository object; the rename refactoring renames "
                "classes, interfaces, their components and local declarations only"
            )
        return found, obj

    def _spelled(self, occurrence: Occurrence) -> str:
        line = self._lines(occurrence.unit)[occurrence.line - 1]
        return line[occurrence.column : occurrence.end] or occurrence.symbol.name.lower()

    def _lines(self, unit: str) -> list[str]:
        return (self.state.source_text(unit, "inactive") or "").split("\n")

    def _check_name(self, symbol: Symbol, new: str) -> None:
        upper = new.upper()
        if not _NAME.match(upper) or len(upper) > _MAX_NAME:
            raise refused(f"{new} is not a valid ABAP name (letters, digits, _; at most 30)")
        if _is_object(symbol):
            self._check_object_name(symbol, upper)
            return
        if upper in KEYWORDS and symbol.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE):
            raise refused(f"{new} is an ABAP keyword")
        taken = symbol.scope.local(upper) if symbol.scope is not None else None
        if taken is not None and taken is not symbol and upper != symbol.name:
            raise refused(f"{new} already exists in {symbol.scope.name if symbol.scope else ''}")

    def _check_object_name(self, symbol: Symbol, upper: str) -> None:
        """A class or interface is renamed into a new object: its name must be free in the
        class/interface name space and in the customer name range (Z, Y or a namespace)."""
        if upper == symbol.name:
            raise refused(f"{upper} is the name {symbol.name} has already")
        if upper in KEYWORDS:
            raise refused(f"{upper} is an ABAP keyword")
        if not (upper[0] in "ZY" or upper.startswith("/")):
            raise refused(
                f"{upper} is not in the customer name range: start it with Z, Y or a namespace"
            )
        taken = taken_by(self.state, CLAS, upper)
        if taken is not None:
            raise refused(f"{taken.kind.label} {upper} already exists")

    def _occurrences(self, symbol: Symbol) -> list[Occurrence]:
        """Where-used with declarations; for a class or interface also its own
        ``CLASS … IMPLEMENTATION`` (an anchor, which where-used leaves out)."""
        found = [u.occurrence for u in self.serve.where.usages(symbol, definitions=True)]
        if not _is_object(symbol) or symbol.location is None:
            return found
        repo = self.serve.repo
        owner = repo.unit_owner(symbol.location.unit)
        if owner is not None:
            index = repo.index(repo.program(owner[0]))
            found.extend(
                occ
                for occ in index.occurrences()
                if occ.role == "anchor" and occ.symbol.key == symbol.key
            )
        return found

    def _affected(self, symbol: Symbol, old: str, new: str) -> list[docs.Affected]:
        """Every source with a declaration, implementation or use of ``symbol``."""
        places: dict[str, tuple[RepoObject, dict[tuple[int, int], int]]] = {}
        for occ in self._occurrences(symbol):
            owner = self.serve.repo.unit_owner(occ.unit)
            if owner is None:
                continue
            entry = places.setdefault(occ.unit, (owner[0], {}))
            entry[1][(occ.line, occ.column)] = occ.end
        affected = []
        for unit in sorted(places):
            obj, spots = places[unit]
            lines = self._lines(unit)
            deltas = tuple(
                docs.Delta(line, start, end, lines[line - 1][start:end], new)
                for (line, start), end in sorted(spots.items())
                if 0 < line <= len(lines) and lines[line - 1][start:end].upper() == old.upper()
            )
            if deltas:
                affected.append(docs.Affected(unit, obj.uri, obj.name, obj.kind.code, deltas))
        return affected

    # execute -----------------------------------------------------------------------------
    def execute(self, call: Call) -> Response:
        """Apply the sent replacements: every source checked first, then all written."""
        generic = _generic_of(_root(call.body))
        transport = (generic.findtext(f"{GENERIC}transport") or "").strip() or None
        planned = [self._planned(element) for element in _affected_elements(generic)]
        with self.state.lock:
            bookings = [self._checked(obj, transport, call.user) for obj, _, _, _ in planned]
            for booking in bookings:
                if booking is not None:
                    booking.apply()
            for _, unit, text, _ in planned:
                self.state.write_as(call.user, unit, text)
        answered = docs.Generic(
            (generic.findtext(f"{GENERIC}title") or "Rename").strip(),
            (generic.findtext(f"{GENERIC}adtObjectUri") or "").strip(),
            [affected for _, _, _, affected in planned],
            transport or "",
        )
        return answer(docs.execute_document(answered))

    def _planned(self, element: etree._Element) -> tuple[RepoObject, str, str, docs.Affected]:
        uri = element.get(f"{CORE}uri") or ""
        resolved = self.state.resolve(uri.partition("#")[0])
        if resolved is None:
            raise errors.not_found(None, uri.rsplit("/", 1)[-1].upper())
        obj, part = resolved
        unit = obj.source_uri(part or "main")
        text = self.state.source_text(unit, "inactive") or ""
        deltas = [_delta(d) for d in element.iter(f"{GENERIC}textReplaceDelta")]
        for delta in sorted(deltas, key=lambda d: (d.line, d.start), reverse=True):
            start, end = (
                _offset(text, delta.line, delta.start),
                _offset(text, delta.last_line, delta.end),
            )
            if start is None or end is None or text[start:end] != delta.old:
                raise refused(
                    f"{obj.name} was changed since the preview (line {delta.line} no longer "
                    f"reads {delta.old}); nothing was changed"
                )
            text = text[:start] + delta.new + text[end:]
        if obj.kind in (CLAS, INTF) and any(
            d.old.upper() == obj.name and d.new.upper() != obj.name for d in deltas
        ):
            raise refused(
                f"Renaming {obj.name} itself is not executed here: the emulator plans it "
                "(evaluate, preview), the client creates the new object (docs/emulator.md)"
            )
        if any(len(line) > 255 for line in text.split("\n")):
            raise refused(f"A line of {obj.name} would exceed 255 characters")
        affected = docs.Affected(unit, obj.uri, obj.name, obj.kind.code, tuple(deltas))
        return obj, unit, text, affected

    def _checked(self, obj: RepoObject, transport: str | None, user: str) -> Booking | None:
        held = self.state.locks.get(obj.uri)
        if held is not None and held.user != user:
            raise errors.lock_conflict(held.user, obj.name)
        return self.state.cts.book(obj, transport, user)


def _root(body: bytes) -> etree._Element:
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        root = etree.fromstring(body, parser) if body else None
    except etree.XMLSyntaxError:
        root = None
    if root is None or root.tag not in (
        f"{RENAME}renameRefactoring",
        f"{GENERIC}genericRefactoring",
    ):
        raise errors.AdtException(
            400,
            "ExceptionInvalidData",
            f"System expected the element '{RENAME}renameRefactoring'",
        )
    return root


def _generic_of(root: etree._Element) -> etree._Element:
    if root.tag == f"{GENERIC}genericRefactoring":
        return root
    found = root.find(f"{GENERIC}genericRefactoring")
    if found is None:
        raise errors.bad_request("The refactoring has no genericRefactoring part")
    return found


def _affected_elements(generic: etree._Element) -> Iterable[etree._Element]:
    return generic.iterfind(f"{GENERIC}affectedObjects/{GENERIC}affectedObject")


def _delta(element: etree._Element) -> docs.Delta:
    fragment = element.findtext(f"{GENERIC}rangeFragment") or ""
    match = _RANGE.search(fragment)
    if match is None:
        raise errors.bad_request(f"A text replacement without a range: {fragment!r}")
    line, start, end_line, end = (int(g) for g in match.groups())
    if (end_line, end) < (line, start):
        raise errors.bad_request(f"A text replacement that ends before it starts: {fragment!r}")
    old = element.findtext(f"{GENERIC}contentOld") or ""
    new = element.findtext(f"{GENERIC}contentNew") or ""
    return docs.Delta(line, start, end, old, new, end_line)


def _offset(text: str, line: int, column: int) -> int | None:
    """The index of (1-based line, 0-based column) in ``text``; None outside it."""
    lines = text.split("\n")
    if not 0 < line <= len(lines) or column > len(lines[line - 1]):
        return None
    return sum(len(x) + 1 for x in lines[: line - 1]) + column


def _is_object(symbol: Symbol) -> bool:
    """A global class or interface: renaming it makes a new repository object."""
    return symbol.is_global and symbol.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE)


def rename_routes(serve: CodeIntelligence) -> list[Route]:
    """``/sap/bc/adt/refactorings``, sharing the where-used index of ``serve``."""
    return [Route.at(f"{ADT}/refactorings", Renaming(serve).handle)]


__all__ = ["Renaming", "rename_routes"]
