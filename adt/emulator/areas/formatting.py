"""The pretty printer and its settings; quick fixes.

``POST /abapsource/prettyprinter`` formats text with the caller's settings
(:mod:`adt.abap.format.pretty`), ``GET``/``PUT …/settings`` read and write those settings (one set
per user), ``POST /quickfixes/evaluation`` lists the fixes at a position and
``POST /quickfixes/proposals/providers/refactoring/quickfixes/<id>`` answers a fix's edits
(:mod:`adt.abap.format.quickfix`). Nothing here changes a stored source.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

from adt.abap.format import quickfix
from adt.abap.format.pretty import PrinterSettings, pretty_print
from adt.emulator.areas import Route, fix_context
from adt.emulator.areas.fix_context import SourceFacts
from adt.emulator.calls import Call, respond

from .. import errors
from ..documents import formatting as docs
from ..documents.common import NS_ADTCORE
from ..model import ADT
from ..negotiation import choose

if TYPE_CHECKING:
    from starlette.responses import Response

    from adt.emulator.state import SystemState

PRETTY_PRINTER = f"{ADT}/abapsource/prettyprinter"
EVALUATION = f"{ADT}/quickfixes/evaluation"
XML_UTF8 = "application/xml; charset=utf-8"
_POSITION = re.compile(r"#start=(\d+),(\d+)")
_QF = f"{{{docs.NS_QUICKFIXES}}}"
_ADTCORE = f"{{{NS_ADTCORE}}}"
_PP = f"{{{docs.NS_PPSETTINGS}}}"


def only_methods(call: Call, *methods: str) -> None:
    if call.method not in methods:
        raise errors.method_not_supported(call.method)


def negotiate(call: Call, offer: str) -> None:
    if choose(call.headers.get("accept"), [offer]) is None:
        raise errors.not_acceptable([offer])


def request_text(call: Call) -> str:
    match = re.search(r"charset=([\w-]+)", call.headers.get("content-type", ""), re.IGNORECASE)
    charset = match.group(1) if match else "utf-8"
    try:
        return call.body.decode(charset)
    except (LookupError, UnicodeDecodeError):
        raise errors.bad_request(f"The body is not valid {charset}") from None


def _xml(body: bytes) -> etree._Element:
    try:
        return etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as exc:
        raise errors.bad_request(f"The request body is not valid XML: {exc}") from None


def unsupported_media_type(content_type: str) -> errors.AdtException:
    """415 SADT_RESOURCE/039 (the status and key of docs/protocol's error table)."""
    return errors.AdtException(
        415,
        "ExceptionUnsupportedMediaType",
        f"Media type {content_type} is not supported",
        errors.t100("SADT_RESOURCE", "039", content_type),
    )


def _position(uri: str) -> tuple[str, int, int]:
    """``…/source/main#start=L,C`` → (source URI, line, column)."""
    match = _POSITION.search(uri)
    if match is None:
        raise errors.bad_request(f"No position (#start=line,column) in {uri}")
    return uri.split("#", 1)[0], int(match.group(1)), int(match.group(2))


def _flag(root: etree._Element, name: str, default: bool) -> bool:
    value = root.get(f"{_PP}{name}", root.get(name))
    if value is None:
        return default
    if value not in ("true", "false"):
        raise errors.bad_request(f"{name} must be true or false, not {value}")
    return value == "true"


class FormattingArea:
    """The area's handlers, with the pretty printer settings of each user."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self.settings: dict[str, PrinterSettings] = {}

    def routes(self) -> list[Route]:
        proposals = re.escape(docs.QUICKFIX_PROPOSALS) + r"/([^/]+)/?"
        return [
            Route.at(PRETTY_PRINTER, self.pretty_print),
            Route.at(f"{PRETTY_PRINTER}/settings", self.printer_settings),
            Route.at(EVALUATION, self.evaluate),
            Route(re.compile(proposals, re.IGNORECASE), self.proposal),
        ]

    def settings_of(self, user: str) -> PrinterSettings:
        """A user's settings; A4H's values until the user writes their own."""
        with self.state.lock:
            return self.settings.get(user, PrinterSettings())

    # pretty printer ----------------------------------------------------------------------
    def pretty_print(self, call: Call, match: re.Match[str]) -> Response:
        only_methods(call, "POST")
        negotiate(call, "text/plain")
        printed = pretty_print(request_text(call), self.settings_of(call.user))
        return respond(printed.replace("\n", "\r\n"), content_type="text/plain; charset=utf-8")

    def printer_settings(self, call: Call, match: re.Match[str]) -> Response:
        only_methods(call, "GET", "PUT")
        if call.method == "PUT":
            self._write_settings(call)
            return respond()
        negotiate(call, docs.PPSETTINGS)
        current = self.settings_of(call.user)
        body = docs.pretty_printer_settings(
            current.indentation, current.style, current.keep_identifier
        )
        return respond(body, content_type=f"{docs.PPSETTINGS}; charset=utf-8")

    def _write_settings(self, call: Call) -> None:
        content_type = call.headers.get("content-type", "").split(";")[0].strip().lower()
        allowed = ("", "application/*", "application/xml", "text/xml", *docs.PPSETTINGS_ACCEPTED)
        if content_type not in allowed:
            raise unsupported_media_type(content_type)
        root = _xml(call.body)
        if root.tag != f"{_PP}PrettyPrinterSettings":
            raise errors.bad_request(f"Expected PrettyPrinterSettings in {docs.NS_PPSETTINGS}")
        current = self.settings_of(call.user)
        style = root.get(f"{_PP}style", root.get("style", current.style))
        try:
            new = PrinterSettings(
                indentation=_flag(root, "indentation", current.indentation),
                style=style,
                keep_identifier=_flag(root, "keepIdentifier", current.keep_identifier),
            )
        except ValueError as exc:
            raise errors.bad_request(str(exc)) from None
        with self.state.lock:
            self.settings[call.user] = new

    # quick fixes -------------------------------------------------------------------------
    def evaluate(self, call: Call, match: re.Match[str]) -> Response:
        only_methods(call, "POST")
        uri = call.query.get("uri")
        if uri is None:
            raise errors.parameter_missing("uri")
        source_uri, line, column = _position(uri)
        facts = fix_context.facts(self.state, source_uri, request_text(call))
        found = quickfix.evaluate(
            facts.text, line, column, context=facts.related, settings=self.settings_of(call.user)
        )
        proposals = [docs.Proposal(f.id, f.kind, f.name, f.description) for f in found]
        return respond(docs.evaluation_results(proposals), content_type=XML_UTF8)

    def proposal(self, call: Call, match: re.Match[str]) -> Response:
        only_methods(call, "POST")
        fix_id = match.group(1).lower()
        if fix_id not in quickfix.FIX_IDS:
            raise errors.no_suitable_resource()
        text, uri = self._proposal_request(call.body)
        source_uri, line, column = _position(uri)
        facts = fix_context.facts(self.state, source_uri, text)
        result = quickfix.propose(
            fix_id,
            facts.text,
            line,
            column,
            context=facts.related,
            settings=self.settings_of(call.user),
        )
        assert result is not None
        body = docs.proposal_result(_deltas(facts, result), _selection(facts, result))
        return respond(body, content_type=XML_UTF8)

    @staticmethod
    def _proposal_request(body: bytes) -> tuple[str, str]:
        """(source text, ``uri#start=…``) of a ``quickfixes:proposalRequest``."""
        root = _xml(body)
        if root.tag != f"{_QF}proposalRequest":
            raise errors.bad_request(f"Expected proposalRequest in {docs.NS_QUICKFIXES}")
        content = root.find("input/content")
        reference = root.find(f"input/{_ADTCORE}objectReference")
        uri = reference.get(f"{_ADTCORE}uri") if reference is not None else None
        if content is None or uri is None:
            raise errors.bad_request("proposalRequest needs input/content and its objectReference")
        return content.text or "", uri


def _range(start: tuple[int, int], end: tuple[int, int] | None) -> str:
    fragment = f"#start={start[0]},{start[1]}"
    return fragment if end is None else f"{fragment};end={end[0]},{end[1]}"


def _deltas(facts: SourceFacts, result: quickfix.FixEdits) -> list[docs.FixDelta]:
    return [
        docs.FixDelta(facts.uri + _range(e.start, e.end), facts.object_type, e.label, e.content)
        for e in result.edits
    ]


def _selection(facts: SourceFacts, result: quickfix.FixEdits) -> tuple[str, str, str] | None:
    if result.selection is None:
        return None
    return facts.uri + _range(result.selection, None), facts.object_type, facts.selection_name


def routes(state: SystemState) -> list[Route]:
    return FormattingArea(state).routes()
