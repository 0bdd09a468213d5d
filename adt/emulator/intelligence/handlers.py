"""The code-intelligence resources: completion, insertion, element info, navigation,
where-used and usage snippets. Each handler reads the position from ``uri``, indexes the
program (with the posted text in place of the stored one, when the request carries text)
and answers in SAP's shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree
from starlette.responses import Response

from adt.abap.completion import complete
from adt.abap.index import ProgramIndex
from adt.abap.lookup import callable_of
from adt.abap.symbols import Location, Occurrence, Symbol, SymbolKind

from .. import errors
from ..documents import intelligence as docs
from ..model import CLAS, FUNC, INTF, RepoObject
from ..negotiation import choose
from .cds import CdsIntelligence
from .elements import call_pattern, completion_record, display_name, element_info, wb_type
from .focus import FocusedIndexes
from .fragments import locate, parse_fragment
from .prepared import PreparedLoads
from .repository import Program, Repository
from .requests import Position, body_text, parse_uri
from .whereused import WhereUsed, collector_paused

if TYPE_CHECKING:
    from ..calls import Call
    from ..state import SystemState

NS_RIS = "{" + docs.NS_RIS + "}"
_GLOBAL_DESCRIBED = frozenset({SymbolKind.CLASS, SymbolKind.INTERFACE, SymbolKind.FUNCTION})


def _respond(body: str | bytes, status: int = 200, content_type: str | None = None) -> Response:
    from ..calls import respond

    return respond(body, status=status, content_type=content_type)


def _only_post(call: Call) -> None:
    if call.method != "POST":
        raise errors.method_not_supported(call.method)


def navigation_failure(message: str, *t100: str) -> errors.AdtException:
    properties = errors.t100(t100[0], t100[1]) if t100 else []
    return errors.AdtException(400, "NavigationFailure", message, properties)


def on_declaration() -> errors.AdtException:
    """ED/263, what A4H answers at a declaration (nothing further to go to)."""
    return navigation_failure(
        "Definition location found; where-used list may be possible", "ED", "263"
    )


def several_implementations() -> errors.AdtException:
    return errors.AdtException(
        422,
        "ExceptionMultipleNavigationTargets",
        "Navigation target undecidable: More than one implementation exists",
        errors.t100("SEDI_ADT", "002"),
    )


class CodeIntelligence:
    """Handlers over one emulated system."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self.repo = Repository(state)
        self.focus = FocusedIndexes(self.repo)
        self.prepared = PreparedLoads(state, self.repo, self.focus)
        self.where = WhereUsed(self.repo)
        self.cds = CdsIntelligence(state)

    @property
    def prefix(self) -> str:
        return self.state.where_used_prefix

    # shared ----------------------------------------------------------------------------
    def posted(self, call: Call, position: Position) -> tuple[RepoObject, str] | None:
        """A CDS-family object at the position and its text (posted, else the newest)."""
        resolved = self.state.resolve(position.path)
        if resolved is None or not self.cds.serves(resolved[0]):
            return None
        obj = resolved[0]
        if call.body:
            return obj, body_text(call.body, call.headers.get("content-type"))
        return obj, self.state.source_text(obj.source_uri("main"), "inactive") or ""

    def target(self, call: Call, position: Position) -> tuple[Program, str, RepoObject, str]:
        """The program of the source a request names, the unit id, the object, and the text
        to answer on: the posted one, else the stored one (an empty body too)."""
        self.repo.refresh()
        resolved = self.repo.unit_owner(position.path)
        if resolved is None:
            raise errors.not_found(None, position.path.rsplit("/", 1)[-1].upper())
        obj, part = resolved
        if part not in obj.parts:
            raise errors.not_found(obj.kind.resource_word, obj.include_name(part))
        context = self.repo.state.find(position.context) if position.context else None
        program = self.repo.program(obj, context)
        unit = obj.source_uri(part)
        posted = body_text(call.body, call.headers.get("content-type")) if call.body else None
        stored = next((u.text for u in program.units if u.id == unit), "")
        if posted is None or posted.replace("\r\n", "\n") == stored:
            posted = stored
        return program, unit, obj, posted

    def edited(self, call: Call, position: Position) -> tuple[ProgramIndex, str, RepoObject]:
        """The program of the posted source indexed as a request at the position needs it
        (:mod:`.focus`: declarations and the method at the cursor); the unit id."""
        program, unit, obj, text = self.target(call, position)
        return self.focus.index(program, unit, text, position.line or 1), unit, obj

    # completion ------------------------------------------------------------------------
    def proposal(self, call: Call) -> Response:
        _only_post(call)
        if choose(call.headers.get("accept"), [docs.AS_XML.split(";")[0]]) is None:
            raise errors.not_acceptable([docs.AS_XML.split(";")[0]])
        position = parse_uri(call.query.get("uri"))
        cds = self.posted(call, position)
        if cds is not None:
            body = self.cds.completion(*cds, position.line or 1, position.column)
            return _respond(body, content_type=docs.AS_XML)
        index, unit, _ = self.edited(call, position)
        result = complete(index, unit, position.line or 1, position.column)
        length = len(result.prefix)
        lines = index.lines.get(unit, [])
        fields = self.cds.select_fields(lines, position.line or 1, position.column)
        records = [docs.CompletionRecord(f, {**_FIELD, "PREFIXLENGTH": length}) for f in fields]
        records += [completion_record(p, length) for p in result.proposals]
        if result.truncated and call.query.get("signalCompleteness") == "true":
            records.append(docs.END_RECORD)
        return _respond(docs.completion_document(records), content_type=docs.AS_XML)

    def insertion(self, call: Call) -> Response:
        _only_post(call)
        position = parse_uri(call.query.get("uri"))
        key = (call.query.get("patternKey") or "").upper()
        index, unit, _ = self.edited(call, position)
        result = complete(index, unit, position.line or 1, position.column, limit=10_000)
        chosen = next((p for p in result.proposals if p.identifier == key), None)
        text = call.query.get("patternKey") or ""
        if chosen is not None and chosen.symbol is not None:
            text = call_pattern(chosen.symbol) or chosen.symbol.spelled
            text += "~" if chosen.identifier.endswith("~") else ""  # an interface prefix
        return _respond(text, content_type="text/plain; charset=utf-8")

    # element info ----------------------------------------------------------------------
    def element_info(self, call: Call) -> Response:
        _only_post(call)
        position = parse_uri(call.query.get("uri"))
        cds = self.posted(call, position)
        if cds is not None:
            info = self.cds.element_info(*cds, position.line or 1, position.column)
            return _respond(docs.element_info_document(info), content_type=docs.ELEMENT_INFO)
        index, unit, _ = self.edited(call, position)
        line = position.line or 1
        if not index.line_text(unit, line).strip():
            return _respond(b"")  # a blank line: zero bytes, no content type (A4H)
        found = index.occurrence_at(unit, line, position.column)
        info = docs.ElementInfo()
        if found is not None:
            info = element_info(found.symbol, self._description(found.symbol))
        return _respond(docs.element_info_document(info), content_type=docs.ELEMENT_INFO)

    def _description(self, symbol: Symbol) -> str:
        """The repository's short text of a global class, interface or function module."""
        if symbol.kind not in _GLOBAL_DESCRIBED or not symbol.is_global:
            return ""
        obj = self.repo.named(symbol.name, CLAS, INTF, FUNC)
        return obj.description if obj is not None else ""

    # navigation ------------------------------------------------------------------------
    def navigation(self, call: Call) -> Response:
        _only_post(call)
        position = parse_uri(call.query.get("uri"))
        line = position.line or 1
        cds = self.posted(call, position)
        if cds is not None:
            return self._navigated(self.cds.definition(*cds, line, position.column))
        index, unit, _ = self.edited(call, position)
        found = index.occurrence_at(unit, line, position.column)
        if found is None or found.symbol.location is None:
            text = "\n".join(index.lines.get(unit, []))
            return self._navigated(self.cds.abap_definition(text, line, position.column))
        implementation = call.query.get("filter") == "implementation"
        target = self._target(found, implementation)
        if target is None or self._same(target, found):
            raise on_declaration()
        where = position.path if target.unit == unit else target.unit
        uri = f"{where}#start={target.line},{target.column}"
        return _respond(docs.navigation_target(uri), content_type="application/xml; charset=utf-8")

    @staticmethod
    def _navigated(uri: str | None) -> Response:
        if uri is None:
            raise navigation_failure("No navigation target found at the cursor position")
        return _respond(docs.navigation_target(uri), content_type="application/xml; charset=utf-8")

    @staticmethod
    def _same(target: Location, found: Occurrence) -> bool:
        return (target.unit, target.line, target.column) == (found.unit, found.line, found.column)

    def _target(self, found: Occurrence, implementation: bool) -> Location | None:
        symbol = found.symbol
        if not implementation:
            return symbol.location
        method = callable_of(symbol) or symbol
        if method.implementation is not None:
            return method.implementation
        implementations = [
            u.occurrence
            for u in self.where.usages(method)
            if u.occurrence.role == "implementation" and method.kind is SymbolKind.METHOD
        ]
        if len(implementations) > 1:
            raise several_implementations()
        if implementations:
            occ = implementations[0]
            return Location(occ.unit, occ.line, occ.column)
        return symbol.location

    def fragment_mapping(self, call: Call) -> Response:
        """``urifragmentmappings``: ``#type=T;name=N`` → ``#start=L,C`` (plain text)."""
        if call.method != "GET":
            raise errors.method_not_supported(call.method)
        value = call.query.get("uri")
        if not value:
            raise errors.parameter_missing("uri")
        path, _, fragment = value.partition("#")
        kind, name = parse_fragment(fragment)
        obj, part = self.repo.existing_unit(path)
        index = self.repo.index(self.repo.program(obj))
        found = locate(index, obj.source_uri(part), kind, name)
        if found is None:
            raise errors.AdtException(
                404, "ExceptionResourceNotFound", f"Fragment {fragment} not found in {path}"
            )
        text = f"{path}#start={found.line},{found.column}"
        return _respond(text, content_type="text/plain; charset=utf-8")

    # where-used ------------------------------------------------------------------------
    @collector_paused
    def usage_references(self, call: Call) -> Response:
        _only_post(call)
        root = _request_root(call.body, "usageReferenceRequest")
        definitions = any(
            grade.get("definitions") == "true" for grade in root.iter(f"{NS_RIS}grade")
        )
        position = parse_uri(call.query.get("uri"), required=False)
        self.repo.refresh()
        resolved = self.state.resolve(position.path)
        if resolved is not None and self.cds.serves(resolved[0]):
            return self._cds_usages(resolved[0], definitions)
        obj, target = self._usage_target(position)
        usages = self.where.usages(target, definitions=definitions) if target else []
        count, rows = self.where.rows(usages, target) if target else (0, [])
        member = target is not None and position.has_position and not _is_object(target)
        name = display_name(target) if target is not None else f"{obj.name} ({obj.kind.label})"
        scope = docs.UsageScope(
            name,
            (wb_type(target) if member and target else None) or obj.kind.code,
            definitions,
            self.repo.program(obj).name if member else None,
        )
        body = docs.usage_references_document(
            self.prefix,
            results=count,
            description=f"[{self.state.sid}] Where-Used List: {name}",
            referenced=f"ABAPFullName;{self.where.full_name(target)}" if member and target else "",
            scope=scope,
            rows=rows,
        )
        return _respond(body, content_type=docs.USAGE_RESULT)

    def _cds_usages(self, obj: RepoObject, definitions: bool) -> Response:
        count, rows = self.cds.usages(obj)
        name = f"{obj.name} ({obj.kind.label})"
        body = docs.usage_references_document(
            self.prefix,
            results=count,
            description=f"[{self.state.sid}] Where-Used List: {name}",
            referenced="",
            scope=docs.UsageScope(name, obj.kind.code, definitions, None),
            rows=rows,
        )
        return _respond(body, content_type=docs.USAGE_RESULT)

    def _usage_target(self, position: Position) -> tuple[RepoObject, Symbol | None]:
        resolved = self.repo.unit_owner(position.path)
        if resolved is None:
            raise errors.not_found(None, position.path.rsplit("/", 1)[-1].upper())
        obj = resolved[0]
        if position.has_position and resolved[1] in obj.parts:
            index = self.repo.index(self.repo.program(obj))
            found = index.occurrence_at(
                obj.source_uri(resolved[1]), position.line or 1, position.column
            )
            if found is not None:
                return obj, found.symbol
        return obj, self.repo.global_symbol(obj.name)

    @collector_paused
    def usage_snippets(self, call: Call) -> Response:
        _only_post(call)
        root = _request_root(call.body, "usageSnippetRequest")
        self.repo.refresh()
        identifiers = [(e.text or "") for e in root.iter(f"{NS_RIS}objectIdentifier")]
        found = [(i, self._snippets(i)) for i in identifiers]
        body = docs.usage_snippets_document(self.prefix, found)
        return _respond(body, content_type=docs.SNIPPET_RESULT)

    def _snippets(self, identifier: str) -> list[docs.CodeSnippet]:
        cds = self.cds.snippets(identifier)
        return cds if cds is not None else self.where.snippets(identifier)


_OBJECTS = frozenset(
    {
        SymbolKind.PROGRAM,
        SymbolKind.INCLUDE,
        SymbolKind.CLASS,
        SymbolKind.INTERFACE,
        SymbolKind.FUNCTION,
    }
)


#: SCC_COMPLETION values of a field of an ABAP SQL data source (data, global).
_FIELD = {"KIND": 2, "LOCATION": 4}


def _is_object(symbol: Symbol) -> bool:
    """A repository object itself (searched like an object-level where-used)."""
    return symbol.is_global and symbol.kind in _OBJECTS


def _request_root(body: bytes, local: str) -> etree._Element:
    expected = f"{NS_RIS}{local}"
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        root = etree.fromstring(body, parser) if body else None
    except etree.XMLSyntaxError:
        root = None
    if root is None or root.tag != expected:
        raise errors.AdtException(
            400, "ExceptionInvalidData", f"System expected the element '{expected}'"
        )
    return root


__all__ = ["CodeIntelligence"]
