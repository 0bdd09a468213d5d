"""ATC: customizing, worklists, runs and findings (docs/protocol/atc.md).

``GET /atc/customizing``; ``POST /atc/worklists?checkVariant=V`` creates a worklist;
``POST /atc/runs?worklistId=ID`` checks the referenced objects (packages expanded) into it,
synchronously; ``GET /atc/worklists/ID`` lists the findings of its last run;
``GET /documentation/atc/documents/itemid/…/index/…`` explains one finding. The checks are
:mod:`adt.emulator.atc_checks`; they read the **active** version, as ATC does.
"""

from __future__ import annotations

import re
import threading
import uuid
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote

from lxml import etree
from starlette.responses import Response

from adt.emulator import errors, objectsets, stamps
from adt.emulator.areas import Route
from adt.emulator.atc_checks import SYSTEM_VARIANT, VARIANTS, Check, Finding, findings
from adt.emulator.calls import XML_UTF8, Call, respond
from adt.emulator.documents.atc import (
    CUSTOMIZING,
    WORKLIST,
    WORKLIST_VND,
    FindingDoc,
    ObjectDoc,
    atc_customizing,
    atc_documentation,
    atc_worklist,
    atc_worklist_run,
)
from adt.emulator.model import ADT, CLAS, FUGR, RepoObject
from adt.emulator.negotiation import choose

if TYPE_CHECKING:
    from adt.emulator.state import SystemState

NS_ADTCORE = "{http://www.sap.com/adt/core}"
NS_ATC = "{http://www.sap.com/adt/atc}"
NO_OBJECTS = "Selection does not contain objects which can be checked by ATC"


@dataclass
class _Worklist:
    id: str
    checks: tuple[Check, ...]
    timestamp: str | None = None
    objects: list[ObjectDoc] = field(default_factory=list)
    runs: int = 0


@dataclass(frozen=True)
class _Source:
    uri: str
    text: str
    changed_by: str


def _parse(body: bytes) -> etree._Element:
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        return etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        raise errors.bad_request(f"The request body is not valid XML: {exc}") from None


def _only(call: Call, *methods: str) -> None:
    if call.method not in methods:
        raise errors.method_not_supported(call.method)


def _accept(call: Call, offers: list[str]) -> str:
    chosen = choose(call.headers.get("accept"), offers)
    if chosen is None:
        raise errors.not_acceptable(offers)
    return chosen


def _checksum(obj: RepoObject, finding: Finding) -> int:
    """A signed 32-bit number that stays put while the finding does (like SAP's)."""
    key = f"{obj.uri}|{finding.check.id}|{finding.message_id}|{finding.subject}"
    value = zlib.crc32(key.encode("utf-8"))
    return value - (1 << 32) if value >= 1 << 31 else value


def _sources(state: SystemState, obj: RepoObject) -> list[_Source]:
    """The active sources of an object, each with the URI findings point into."""
    units = [obj]
    if obj.kind is FUGR:
        units += objectsets.group_members(state, obj)
    found: list[_Source] = []
    for unit in units:
        for part in unit.ordered_parts() if unit.kind is CLAS else [unit.parts.get("main")]:
            picked = part.pick("active") if part is not None else None
            if part is not None and picked is not None:
                version = picked[0]
                found.append(_Source(unit.source_uri(part.part), version.text, version.changed_by))
    return found


class _Atc:
    """The area's handlers, worklists and the findings their documentation links name."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self.worklists: dict[str, _Worklist] = {}
        self.items: dict[str, tuple[Check, str]] = {}
        self._lock = threading.Lock()

    def customizing(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        chosen = _accept(call, [CUSTOMIZING, "application/xml"])
        return respond(atc_customizing(SYSTEM_VARIANT), content_type=f"{chosen}; charset=utf-8")

    def create(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "POST")
        _accept(call, ["text/plain"])
        variant = call.query.get("checkVariant")
        if variant is None:
            raise errors.parameter_missing("checkVariant")
        checks = VARIANTS.get(variant.upper())
        if checks is None:
            raise errors.AdtException(
                404, "ExceptionResourceNotFound", f"Check variant {variant.upper()} does not exist"
            )
        worklist = _Worklist(uuid.uuid4().hex.upper(), checks)
        with self._lock:
            self.worklists[worklist.id] = worklist
        headers = {"location": f"/atc/worklists/worklistId/{worklist.id}"}
        return respond(worklist.id, content_type="text/plain; charset=utf-8", headers=headers)

    def _worklist(self, worklist_id: str) -> _Worklist:
        with self._lock:
            worklist = self.worklists.get(worklist_id.upper())
        if worklist is None:
            raise errors.AdtException(
                404, "ExceptionResourceNotFound", f"Worklist {worklist_id} does not exist"
            )
        return worklist

    def worklist(self, call: Call, match: re.Match[str]) -> Response:
        if call.method == "DELETE":  # A4H 891: refused, with the T100 key
            raise errors.AdtException(
                405,
                "ExceptionMethodNotSupported",
                "Resource controller does not support method DELETE",
                errors.t100("SADT_RESOURCE", "010", "DELETE"),
            )
        _only(call, "GET", "POST")
        worklist = self._worklist(match.group(1))
        if call.method == "POST":
            if call.query.get("action") != "deleteFindings":
                raise errors.bad_request(f"Action {call.query.get('action')} is not supported")
            with self._lock:
                worklist.objects = []
            return respond()
        chosen = _accept(call, [WORKLIST, WORKLIST_VND])
        with self._lock:
            body = atc_worklist(worklist.id, worklist.timestamp, list(worklist.objects))
        return respond(body, content_type=f"{chosen}; charset=utf-8")

    def run(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "POST")
        _accept(call, ["application/xml"])
        worklist_id = call.query.get("worklistId")
        if worklist_id is None:
            raise errors.parameter_missing("worklistId")
        worklist = self._worklist(worklist_id)
        root = _parse(call.body)
        if root.tag != f"{NS_ATC}run":
            raise errors.bad_request("The request body is not an ATC run")
        try:
            limit = int(root.get("maximumVerdicts") or "100")
        except ValueError:
            raise errors.bad_request("maximumVerdicts must be a number") from None
        uris = [r.get(f"{NS_ADTCORE}uri") or "" for r in root.iter(f"{NS_ADTCORE}objectReference")]
        infos = self._check(worklist, uris, limit, call.user)
        body = atc_worklist_run(worklist.id, worklist.timestamp or "", infos)
        return respond(body, content_type=XML_UTF8)

    def _check(
        self, worklist: _Worklist, uris: list[str], limit: int, user: str
    ) -> list[tuple[str, str]]:
        """Run the worklist's checks; its objects become those of this run."""
        with self.state.lock:
            targets = objectsets.resolve(self.state, uris).objects
            checked = [(obj, _sources(self.state, obj)) for obj in targets]
        checked = [(obj, sources) for obj, sources in checked if sources]
        with self._lock:
            worklist.runs += 1
            worklist.timestamp = stamps.iso(stamps.now_seconds())
            objects = self._objects(worklist, checked, max(limit, 0), user)
            worklist.objects = objects
        if not checked:
            return [("NO_OBJS", NO_OBJECTS)]
        counts = [0, 0, 0]
        for obj in objects:
            for finding in obj.findings:
                counts[min(finding.priority, 3) - 1] += 1
        return [("FINDING_STATS", ",".join(str(c) for c in counts))]

    def _objects(
        self,
        worklist: _Worklist,
        checked: list[tuple[RepoObject, list[_Source]]],
        limit: int,
        user: str,
    ) -> list[ObjectDoc]:
        objects: list[ObjectDoc] = []
        budget = limit
        for obj, sources in checked:
            docs: list[FindingDoc] = []
            for source in sources:
                for finding in findings(source.text, worklist.checks)[: max(budget - len(docs), 0)]:
                    docs.append(self._finding(worklist, obj, source, finding, user))
            budget -= len(docs)
            if docs:
                objects.append(self._object(obj, docs))
        return objects

    def _finding(
        self, worklist: _Worklist, obj: RepoObject, source: _Source, finding: Finding, user: str
    ) -> FindingDoc:
        item = uuid.uuid4().hex.upper()
        self.items[item] = (finding.check, finding.message)
        return FindingDoc(
            item,
            worklist.runs,
            f"{source.uri}#start={finding.line},0",
            user,
            source.changed_by,
            finding.priority,
            finding.check.id,
            finding.check.title,
            finding.message_id,
            finding.message,
            _checksum(obj, finding),
        )

    @staticmethod
    def _object(obj: RepoObject, docs: list[FindingDoc]) -> ObjectDoc:
        r3tr = obj.kind.r3tr
        return ObjectDoc(
            f"{ADT}/atc/objects/R3TR/{r3tr}/{quote(obj.name, safe='')}",
            r3tr,
            obj.name,
            obj.package,
            obj.responsible,
            obj.kind.code,
            tuple(docs),
        )

    def documentation(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        with self._lock:
            known = self.items.get(match.group(1).upper())
        if known is None:
            raise errors.AdtException(
                404, "ExceptionResourceNotFound", f"Documentation {match.group(1)} does not exist"
            )
        check, message = known
        body = atc_documentation(check.title, message, check.explanation)
        return respond(body, content_type="text/html; charset=utf-8")


def routes(state: SystemState) -> list[Route]:
    atc = _Atc(state)
    worklist = re.escape(f"{ADT}/atc/worklists/") + r"([^/]+)/?"
    document = re.escape(f"{ADT}/documentation/atc/documents/itemid/") + r"([^/]+)/index/\d+/?"
    return [
        Route.at(f"{ADT}/atc/customizing", atc.customizing),
        Route.at(f"{ADT}/atc/worklists", atc.create),
        Route(re.compile(worklist, re.IGNORECASE), atc.worklist),
        Route.at(f"{ADT}/atc/runs", atc.run),
        Route(re.compile(document, re.IGNORECASE), atc.documentation),
    ]
