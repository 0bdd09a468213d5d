"""Extract method at ``/sap/bc/adt/refactorings`` (``rel=…/extractmethod``): evaluate and
preview; execute is the generic step the rename shares (:mod:`.refactoring`).

``step=evaluate&uri=<source>#start=L1,C1;end=L2,C2`` proposes the new method for the
selected statements: its name, whether it is static, its signature inferred from the index
(:func:`adt.abap.extraction.analyse`) and the selected text. ``step=preview`` takes the
proposal back (with the name and visibility the user chose) and answers a bare
``genericRefactoring`` with the three replacements in the source: the declaration, the
call, the implementation. Evidence and deviations: docs/protocol/refactoring.md,
docs/emulator.md ("Extract method").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree
from starlette.responses import Response

from adt.abap.extraction import Extraction, ExtractionRefused, Parameter, analyse, replacements

from .. import errors
from ..calls import Call, respond
from ..documents import refactoring as docs
from ..intelligence.requests import Position, parse_uri

if TYPE_CHECKING:
    from ..intelligence.handlers import CodeIntelligence

EXTRACT = "{" + docs.NS_EXTRACT + "}"
GENERIC = "{" + docs.NS_GENERIC + "}"
TITLE = "Extract Method"
#: The name proposed before the user chooses one (not recorded: what a system proposes).
PROPOSED_NAME = "new_method"


def refused(message: str) -> errors.AdtException:
    """What the emulator answers when the selection cannot be extracted (assumed shape)."""
    return errors.AdtException(400, "ExceptionRefactoring", message)


class ExtractMethod:
    """Evaluate and preview over the index of the program the selection is in."""

    def __init__(self, serve: CodeIntelligence) -> None:
        self.serve = serve

    def evaluate(self, call: Call) -> Response:
        position = parse_uri(call.query.get("uri"))
        extraction, obj_uri, name, kind = self._analysed(position)
        generic = docs.Generic(
            TITLE,
            object_uri(position),
            [docs.Affected(extraction.unit, obj_uri, name, kind, ())],
        )
        proposal = docs.ExtractProposal(
            PROPOSED_NAME,
            extraction.static,
            extraction.class_name.upper(),
            extraction.selected,
            [
                docs.Signature(p.name, p.direction, p.type_type, p.type)
                for p in extraction.parameters
            ],
            generic,
        )
        return answer(docs.extract_document(proposal))

    def preview(self, call: Call) -> Response:
        root = _root(call.body)
        generic = root.find(f"{GENERIC}genericRefactoring")
        if generic is None:
            raise errors.bad_request("The refactoring has no genericRefactoring part")
        object_uri = (generic.findtext(f"{GENERIC}adtObjectUri") or "").strip()
        extraction, obj_uri, name, kind = self._analysed(parse_uri(object_uri))
        method = (root.findtext(f"{EXTRACT}name") or "").strip()
        visibility = (root.findtext(f"{EXTRACT}visibility") or "PRIVATE").strip()
        parameters = _signature(root, extraction)
        try:
            planned = replacements(extraction, method, parameters, visibility)
        except ExtractionRefused as exc:
            raise refused(str(exc)) from exc
        deltas = tuple(
            docs.Delta(r.line, r.start, r.end, r.old, r.new, r.end_line) for r in planned
        )
        answered = docs.Generic(
            (generic.findtext(f"{GENERIC}title") or TITLE).strip(),
            object_uri,
            [docs.Affected(extraction.unit, obj_uri, name, kind, deltas)],
            (generic.findtext(f"{GENERIC}transport") or "").strip(),
        )
        return answer(docs.execute_document(answered))

    def _analysed(self, position: Position) -> tuple[Extraction, str, str, str]:
        repo = self.serve.repo
        obj, part = repo.existing_unit(position.path)
        index = repo.index(repo.program(obj))
        first = position.line or 1
        last = position.end[0] if position.end else first
        if position.end is not None and position.end[1] == 0 and last > first:
            last -= 1  # a selection ending at the start of a line leaves that line out
        try:
            extraction = analyse(index, obj.source_uri(part), first, last)
        except ExtractionRefused as exc:
            raise refused(str(exc)) from exc
        return extraction, obj.uri, obj.name, obj.kind.code


def _signature(root: etree._Element, extraction: Extraction) -> list[Parameter]:
    """The parameters the client sent back: the inferred ones, in its order and with its
    directions; a renamed or missing parameter is refused (the moved code names them)."""
    inferred = {p.name.upper(): p for p in extraction.parameters}
    sent: list[Parameter] = []
    for element in root.iterfind(f"{EXTRACT}parameters/{EXTRACT}parameter"):
        ident = (element.findtext(f"{EXTRACT}id") or "").strip().upper()
        name = (element.findtext(f"{EXTRACT}name") or "").strip()
        direction = (element.findtext(f"{EXTRACT}direction") or "").strip().upper()
        known = inferred.get(ident)
        if known is None or name.upper() != ident:
            raise refused(f"the parameter {name or ident} is not one the selection uses")
        if direction not in ("IMPORTING", "EXPORTING", "CHANGING"):
            raise refused(f"{direction or 'an empty direction'} is not a parameter direction")
        sent.append(Parameter(known.name, direction, known.typing))
    missing = sorted(set(inferred) - {p.name.upper() for p in sent})
    if missing:
        raise refused(f"the new method needs the parameters {', '.join(missing).lower()}")
    return sent


def answer(body: str) -> Response:
    return respond(body, content_type=docs.REFACTORING_TYPE)


def object_uri(position: Position) -> str:
    end = position.end or (position.line or 1, position.column)
    return f"{position.path}#start={position.line},{position.column};end={end[0]},{end[1]}"


def _root(body: bytes) -> etree._Element:
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        root = etree.fromstring(body, parser) if body else None
    except (etree.XMLSyntaxError, ValueError):
        root = None
    if root is None or root.tag != f"{EXTRACT}extractMethodRefactoring":
        raise errors.AdtException(
            400,
            "ExceptionInvalidData",
            f"System expected the element '{EXTRACT}extractMethodRefactoring'",
        )
    return root


__all__ = ["ExtractMethod", "answer", "object_uri", "refused"]
