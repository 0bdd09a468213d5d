"""ATC: run a check variant on objects; findings with priority and position.

A run is three requests: create a worklist for a check variant
(``POST /atc/worklists?checkVariant=V``, the id comes back as plain text), check an object set
into it (``POST /atc/runs?worklistId=ID``, synchronous), read its findings
(``GET /atc/worklists/ID``). :meth:`Atc.run` does all three; the customizing names the
system's default variant. Documents are parsed by namespace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from lxml import etree

from adt._xml import parse_document
from adt.areas.base import Area
from adt.areas.unit import SourcePosition
from adt.models import Timestamp
from adt.urls import check_adt_path, encode_name, validate_adt_path

NS_ATC = "http://www.sap.com/adt/atc"
NS_WORKLIST = "http://www.sap.com/adt/atc/worklist"
NS_OBJECT = "http://www.sap.com/adt/atc/object"
NS_FINDING = "http://www.sap.com/adt/atc/finding"
NS_INFO = "http://www.sap.com/adt/atc/info"
NS_ADTCORE = "http://www.sap.com/adt/core"
NS_ATOM = "http://www.w3.org/2005/Atom"
_DOC_REL = "http://www.sap.com/adt/relations/documentation"


@dataclass(frozen=True)
class ExemptionReason:
    id: str
    title: str
    justification_mandatory: bool


@dataclass(frozen=True)
class AtcCustomizing:
    """The system's ATC settings: properties by name and the exemption reasons."""

    properties: tuple[tuple[str, str], ...]
    exemption_reasons: tuple[ExemptionReason, ...]

    def value(self, name: str) -> str | None:
        """The value of one property, e.g. ``systemCheckVariant``."""
        return next((value for key, value in self.properties if key == name), None)

    @property
    def system_check_variant(self) -> str | None:
        """The variant ATC runs when none is named."""
        return self.value("systemCheckVariant")


@dataclass(frozen=True)
class AtcInfo:
    """A run's ``atcinfo:info``: ``FINDING_STATS``, ``NO_OBJS``, ``TOOL_FAILURE``, …"""

    type: str
    description: str


@dataclass(frozen=True)
class AtcRunInfo:
    """The answer to a run: which worklist, when, and what happened."""

    worklist_id: str
    timestamp: Timestamp | None
    infos: tuple[AtcInfo, ...]

    @property
    def finding_counts(self) -> tuple[int, ...] | None:
        """Findings per priority (1, 2, 3) from ``FINDING_STATS``, if the run reported it."""
        for info in self.infos:
            if info.type == "FINDING_STATS":
                try:
                    return tuple(int(n) for n in info.description.split(","))
                except ValueError:
                    return None
        return None

    @property
    def nothing_to_check(self) -> bool:
        return any(info.type == "NO_OBJS" for info in self.infos)


@dataclass(frozen=True)
class AtcFinding:
    """One finding. ``position`` comes from ``location``'s ``#start=L,C`` (None for findings
    on the whole object); ``quickfix_info`` is the input of ADT's quick-fix evaluation."""

    uri: str
    location: str
    position: SourcePosition | None
    priority: int
    check_id: str
    check_title: str
    message_id: str
    message_title: str
    processor: str
    last_changed_by: str
    exemption_approval: str
    exemption_kind: str
    checksum: str
    quickfix_info: str
    documentation_url: str
    object_name: str
    object_type: str


@dataclass(frozen=True)
class AtcObject:
    """A checked object (TADIR type and name) with its findings."""

    uri: str
    type: str
    name: str
    package: str
    author: str
    object_type_id: str
    findings: tuple[AtcFinding, ...]


@dataclass(frozen=True)
class AtcObjectSet:
    name: str
    title: str
    kind: str


@dataclass(frozen=True)
class AtcWorklist:
    """A worklist: the objects of its last run that have findings."""

    id: str
    timestamp: Timestamp | None
    used_object_set: str
    object_set_complete: bool
    object_sets: tuple[AtcObjectSet, ...]
    objects: tuple[AtcObject, ...]

    @property
    def findings(self) -> tuple[AtcFinding, ...]:
        """Every finding, most urgent first (stable within a priority)."""
        found = [f for o in self.objects for f in o.findings]
        return tuple(sorted(found, key=lambda f: f.priority))


@dataclass(frozen=True)
class AtcResult:
    """What :meth:`Atc.run` did: the variant, the run's answer and the worklist it filled."""

    variant: str
    run: AtcRunInfo
    worklist: AtcWorklist

    @property
    def findings(self) -> tuple[AtcFinding, ...]:
        return self.worklist.findings


# --- requests and parsing ------------------------------------------------------------------


def run_request(uris: Sequence[str], max_verdicts: int = 100) -> bytes:
    """The ``atc:run`` body for an object set."""
    references = "".join(f"<adtcore:objectReference adtcore:uri={quoteattr(uri)}/>" for uri in uris)
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<atc:run maximumVerdicts="{int(max_verdicts)}" xmlns:atc="{NS_ATC}">'
        f'<objectSets xmlns:adtcore="{NS_ADTCORE}"><objectSet kind="inclusive">'
        f"<adtcore:objectReferences>{references}</adtcore:objectReferences>"
        "</objectSet></objectSets></atc:run>"
    )
    return text.encode("utf-8")


def _q(namespace: str, local: str) -> str:
    return f"{{{namespace}}}{local}"


def parse_customizing(body: bytes) -> AtcCustomizing:
    root = parse_document(body, NS_ATC, "customizing")
    properties = tuple(
        (p.get("name") or "", p.get("value") or "") for p in root.findall("properties/property")
    )
    reasons = tuple(
        ExemptionReason(
            r.get("id") or "",
            r.get("title") or "",
            (r.get("justificationMandatory") or "").lower() == "true",
        )
        for r in root.findall("exemption/reasons/reason")
    )
    return AtcCustomizing(properties, reasons)


def parse_run_info(body: bytes) -> AtcRunInfo:
    root = parse_document(body, NS_WORKLIST, "worklistRun")
    infos = tuple(
        AtcInfo(
            (i.findtext(_q(NS_INFO, "type")) or "").strip(),
            (i.findtext(_q(NS_INFO, "description")) or "").strip(),
        )
        for i in root.iter(_q(NS_INFO, "info"))
    )
    return AtcRunInfo(
        (root.findtext(_q(NS_WORKLIST, "worklistId")) or "").strip(),
        Timestamp.parse_iso((root.findtext(_q(NS_WORKLIST, "worklistTimestamp")) or "").strip()),
        infos,
    )


def _finding(element: etree._Element, obj: etree._Element) -> AtcFinding:
    def attr(name: str) -> str:
        return element.get(_q(NS_FINDING, name)) or ""

    link = next((a for a in element.findall(_q(NS_ATOM, "link")) if a.get("rel") == _DOC_REL), None)
    location = attr("location")
    try:
        priority = int(attr("priority"))
    except ValueError:
        priority = 0
    return AtcFinding(
        uri=element.get(_q(NS_ADTCORE, "uri")) or "",
        location=location,
        position=SourcePosition.parse(location),
        priority=priority,
        check_id=attr("checkId"),
        check_title=attr("checkTitle"),
        message_id=attr("messageId"),
        message_title=attr("messageTitle").strip(),
        processor=attr("processor"),
        last_changed_by=attr("lastChangedBy"),
        exemption_approval=attr("exemptionApproval"),
        exemption_kind=attr("exemptionKind"),
        checksum=attr("checksum"),
        quickfix_info=attr("quickfixInfo"),
        documentation_url=(link.get("href") or "") if link is not None else "",
        object_name=obj.get(_q(NS_ADTCORE, "name")) or "",
        object_type=obj.get(_q(NS_ADTCORE, "type")) or "",
    )


def _object(element: etree._Element) -> AtcObject:
    def core(name: str) -> str:
        return element.get(_q(NS_ADTCORE, name)) or ""

    findings = element.findall(f"{_q(NS_OBJECT, 'findings')}/{_q(NS_FINDING, 'finding')}")
    return AtcObject(
        core("uri"),
        core("type"),
        core("name"),
        core("packageName"),
        element.get(_q(NS_OBJECT, "author")) or "",
        element.get(_q(NS_OBJECT, "objectTypeId")) or "",
        tuple(_finding(f, element) for f in findings),
    )


def parse_worklist(body: bytes) -> AtcWorklist:
    root = parse_document(body, NS_WORKLIST, "worklist")

    def attr(element: etree._Element, name: str) -> str:
        return element.get(_q(NS_WORKLIST, name)) or ""

    sets = root.findall(f"{_q(NS_WORKLIST, 'objectSets')}/{_q(NS_WORKLIST, 'objectSet')}")
    objects = root.findall(f"{_q(NS_WORKLIST, 'objects')}/{_q(NS_OBJECT, 'object')}")
    return AtcWorklist(
        attr(root, "id"),
        Timestamp.parse_iso(attr(root, "timestamp")),
        attr(root, "usedObjectSet"),
        attr(root, "objectSetIsComplete").lower() == "true",
        tuple(AtcObjectSet(attr(s, "name"), attr(s, "title"), attr(s, "kind")) for s in sets),
        tuple(_object(o) for o in objects),
    )


# --- the area ------------------------------------------------------------------------------


class Atc(Area):
    """ATC runs and worklists (docs/client.md, docs/protocol/atc.md)."""

    async def customizing(self) -> AtcCustomizing:
        response = await self._send(
            "GET",
            "/sap/bc/adt/atc/customizing",
            headers={"Accept": "application/xml, application/vnd.sap.atc.customizing-v1+xml"},
        )
        return parse_customizing(response.content)

    async def create_worklist(self, variant: str) -> str:
        """A new worklist for ``variant``; returns its id."""
        if not variant.strip():
            raise ValueError("the check variant must not be empty")
        response = await self._send(
            "POST",
            "/sap/bc/adt/atc/worklists",
            params={"checkVariant": variant},
            headers={"Accept": "text/plain"},
        )
        return response.text.strip()

    async def run_worklist(
        self, worklist_id: str, objects: Sequence[str], *, max_verdicts: int = 100
    ) -> AtcRunInfo:
        """Check object URLs (packages: ``/sap/bc/adt/packages/<name>``) into a worklist."""
        paths = [validate_adt_path(u) for u in objects]
        if not paths:
            raise ValueError("name at least one object URL or a package")
        response = await self._send(
            "POST",
            "/sap/bc/adt/atc/runs",
            params={"worklistId": worklist_id},
            headers={"Accept": "application/xml", "Content-Type": "application/xml"},
            content=run_request(paths, max_verdicts),
        )
        return parse_run_info(response.content)

    async def worklist(self, worklist_id: str, *, include_exempted: bool = False) -> AtcWorklist:
        """The findings of a worklist's last run."""
        path = check_adt_path(f"/sap/bc/adt/atc/worklists/{worklist_id}")
        response = await self._send(
            "GET",
            path,
            params={"includeExemptedFindings": str(include_exempted).lower()},
            headers={"Accept": "application/atc.worklist.v1+xml"},
        )
        return parse_worklist(response.content)

    async def run(
        self,
        objects: str | Sequence[str] = (),
        *,
        package: str | None = None,
        variant: str | None = None,
        max_verdicts: int = 100,
    ) -> AtcResult:
        """Check objects and/or a package with ``variant`` (default: the system's variant
        from the customizing). ATC checks the *active* version of each object."""
        urls = [objects] if isinstance(objects, str) else list(objects)
        if package is not None:
            urls.append(f"/sap/bc/adt/packages/{encode_name(package)}")
        if variant is None:
            variant = (await self.customizing()).system_check_variant or "DEFAULT"
        worklist_id = await self.create_worklist(variant)
        info = await self.run_worklist(worklist_id, urls, max_verdicts=max_verdicts)
        return AtcResult(variant, info, await self.worklist(worklist_id))

    async def documentation(self, finding: AtcFinding) -> str:
        """The HTML page that explains a finding."""
        if not finding.documentation_url:
            raise ValueError("the finding has no documentation link")
        response = await self._send(
            "GET", check_adt_path(finding.documentation_url), headers={"Accept": "text/html"}
        )
        return response.text


__all__ = [
    "Atc",
    "AtcCustomizing",
    "AtcFinding",
    "AtcInfo",
    "AtcObject",
    "AtcObjectSet",
    "AtcResult",
    "AtcRunInfo",
    "AtcWorklist",
    "ExemptionReason",
    "parse_customizing",
    "parse_run_info",
    "parse_worklist",
    "run_request",
]
