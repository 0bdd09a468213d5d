"""ATC answers: customizing (A4H ``893``), the run acknowledgement (``438``, ``887``), the
worklist (``439``, ``800``, ``889``, ``890``) and a finding's documentation page.

SAP declares ``atcobject``/``adtcore`` on each ``atcobject:object``, ``atcfinding`` on each
finding, ``atcinfo`` on each info and ``atom`` on each link, after the attributes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..xmlwriter import DECL, atom_link, esc_text, tag, text_tag
from .common import NS_ADTCORE

NS_ATC = "http://www.sap.com/adt/atc"
NS_WORKLIST = "http://www.sap.com/adt/atc/worklist"
NS_OBJECT = "http://www.sap.com/adt/atc/object"
NS_FINDING = "http://www.sap.com/adt/atc/finding"
NS_INFO = "http://www.sap.com/adt/atc/info"
CUSTOMIZING = "application/vnd.sap.atc.customizing-v1+xml"
WORKLIST = "application/atc.worklist.v1+xml"
WORKLIST_VND = "application/vnd.sap.atc.worklist.v1+xml"
LAST_RUN = "99999999999999999999999999999999"
ALL_OBJECTS = "00000000000000000000000000000000"
_DOC_REL = "http://www.sap.com/adt/relations/documentation"


@dataclass(frozen=True)
class FindingDoc:
    """One ``atcfinding:finding``; ``item_id``/``index`` make its URIs."""

    item_id: str
    index: int
    location: str
    processor: str
    last_changed_by: str
    priority: int
    check_id: str
    check_title: str
    message_id: str
    message_title: str
    checksum: int

    @property
    def uri(self) -> str:
        return f"/sap/bc/adt/atc/findings/itemid/{self.item_id}/index/{self.index}"

    @property
    def documentation(self) -> str:
        return f"/sap/bc/adt/documentation/atc/documents/itemid/{self.item_id}/index/{self.index}"


@dataclass(frozen=True)
class ObjectDoc:
    """One ``atcobject:object`` (a TADIR object) with its findings."""

    uri: str
    type: str
    name: str
    package: str
    author: str
    type_id: str
    findings: tuple[FindingDoc, ...]


def atc_customizing(system_variant: str) -> str:
    """``atc:customizing``: properties, exemption reasons and validities (``893`` shape)."""
    properties = "".join(
        tag("property", [("name", name), ("value", value)])
        for name, value in (
            ("ciCheckFlavour", "false"),
            ("systemCheckVariant", system_variant),
            ("isCCSTunnelEnabled", "false"),
            ("isTransportableExemptionTypeUsed", "false"),
        )
    )
    reasons = tag(
        "reasons",
        (),
        tag(
            "reason",
            [("id", "FPOS"), ("justificationMandatory", "true"), ("title", "False Positive")],
        )
        + tag(
            "reason",
            [("id", "OTHR"), ("justificationMandatory", "true"), ("title", "Other Reason")],
        ),
    )
    validities = tag(
        "validities",
        (),
        tag("validity", [("id", "U"), ("value", "No Restrictions")])
        + tag("validity", [("id", "D"), ("value", "Date")]),
    )
    body = tag("properties", (), properties) + tag("exemption", (), reasons + validities)
    return DECL + tag("atc:customizing", [("xmlns:atc", NS_ATC)], body)


def _infos(infos: list[tuple[str, str]]) -> str:
    return "".join(
        tag(
            "atcinfo:info",
            [("xmlns:atcinfo", NS_INFO)],
            text_tag("atcinfo:type", kind) + text_tag("atcinfo:description", text),
        )
        for kind, text in infos
    )


def atc_worklist_run(worklist_id: str, timestamp: str, infos: list[tuple[str, str]]) -> str:
    """``atcworklist:worklistRun``, the answer of ``POST /atc/runs``."""
    body = (
        text_tag("atcworklist:worklistId", worklist_id)
        + text_tag("atcworklist:worklistTimestamp", timestamp)
        + tag("atcworklist:infos", (), _infos(infos))
    )
    return DECL + tag("atcworklist:worklistRun", [("xmlns:atcworklist", NS_WORKLIST)], body)


def _finding(finding: FindingDoc) -> str:
    attrs = [
        ("adtcore:uri", finding.uri),
        ("atcfinding:location", finding.location),
        ("atcfinding:processor", finding.processor),
        ("atcfinding:lastChangedBy", finding.last_changed_by),
        ("atcfinding:priority", str(finding.priority)),
        ("atcfinding:checkId", finding.check_id),
        ("atcfinding:checkTitle", finding.check_title),
        ("atcfinding:messageId", finding.message_id),
        ("atcfinding:messageTitle", finding.message_title),
        ("atcfinding:exemptionApproval", ""),
        ("atcfinding:exemptionKind", ""),
        ("atcfinding:checksum", str(finding.checksum)),
        ("atcfinding:quickfixInfo", f"atc:{finding.item_id},{finding.index}"),
        ("xmlns:atcfinding", NS_FINDING),
    ]
    link = atom_link(finding.documentation, _DOC_REL, type="text/html")
    return tag("atcfinding:finding", attrs, link)


def _object(obj: ObjectDoc) -> str:
    attrs = [
        ("adtcore:uri", obj.uri),
        ("adtcore:type", obj.type),
        ("adtcore:name", obj.name),
        ("adtcore:packageName", obj.package),
        ("atcobject:author", obj.author),
        ("atcobject:objectTypeId", obj.type_id),
        ("xmlns:atcobject", NS_OBJECT),
        ("xmlns:adtcore", NS_ADTCORE),
    ]
    findings = tag("atcobject:findings", (), "".join(_finding(f) for f in obj.findings))
    return tag("atcobject:object", attrs, findings)


def atc_worklist(worklist_id: str, timestamp: str | None, objects: list[ObjectDoc]) -> str:
    """``atcworklist:worklist``; no ``timestamp`` attribute before the first run (``889``)."""
    attrs = [
        ("atcworklist:id", worklist_id),
        ("atcworklist:timestamp", timestamp),
        ("atcworklist:usedObjectSet", LAST_RUN),
        ("atcworklist:objectSetIsComplete", "true"),
        ("xmlns:atcworklist", NS_WORKLIST),
    ]
    sets = tag(
        "atcworklist:objectSet",
        [
            ("atcworklist:name", ALL_OBJECTS),
            ("atcworklist:title", "All Objects"),
            ("atcworklist:kind", "ALL"),
        ],
    ) + tag(
        "atcworklist:objectSet",
        [
            ("atcworklist:name", LAST_RUN),
            ("atcworklist:title", "Last Check Run"),
            ("atcworklist:kind", "LAST_RUN"),
        ],
    )
    body = (
        tag("atcworklist:objectSets", (), sets)
        + tag("atcworklist:objects", (), "".join(_object(o) for o in objects))
        + tag("atcworklist:infos")
    )
    return DECL + tag("atcworklist:worklist", attrs, body)


def atc_documentation(check_title: str, message_title: str, explanation: str) -> str:
    """The HTML page behind a finding's documentation link."""
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>'
        + esc_text(check_title)
        + "</title></head><body><h1>"
        + esc_text(check_title)
        + "</h1><h2>"
        + esc_text(message_title)
        + "</h2><p>"
        + esc_text(explanation)
        + "</p></body></html>"
    )


__all__ = [
    "ALL_OBJECTS",
    "CUSTOMIZING",
    "LAST_RUN",
    "WORKLIST",
    "WORKLIST_VND",
    "FindingDoc",
    "ObjectDoc",
    "atc_customizing",
    "atc_documentation",
    "atc_worklist",
    "atc_worklist_run",
]
