"""Documents of the pretty printer settings and of quick fixes, in A4H's byte layout
(captures 962, 801, 804, 805 and 809 of docs/protocol/pretty-printer.md and quick-fixes.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..xmlwriter import DECL, esc_text, tag
from .common import NS_ADTCORE

NS_PPSETTINGS = "http://www.sap.com/adt/prettyprintersettings"
NS_QUICKFIXES = "http://www.sap.com/adt/quickfixes"
PPSETTINGS = "application/vnd.sap.adt.ppsettings.v5+xml"
#: The settings types discovery lists as accepted by the collection (v2 … v5).
PPSETTINGS_ACCEPTED = tuple(f"application/vnd.sap.adt.ppsettings.v{n}+xml" for n in (2, 3, 4, 5))
QUICKFIX_PROPOSALS = "/sap/bc/adt/quickfixes/proposals/providers/refactoring/quickfixes"

__all__ = [
    "NS_PPSETTINGS",
    "NS_QUICKFIXES",
    "PPSETTINGS",
    "PPSETTINGS_ACCEPTED",
    "QUICKFIX_PROPOSALS",
    "FixDelta",
    "Proposal",
    "evaluation_results",
    "pretty_printer_settings",
    "proposal_result",
]


def _flag(value: bool) -> str:
    return "true" if value else "false"


def pretty_printer_settings(indentation: bool, style: str, keep_identifier: bool) -> str:
    """``abapformatter:PrettyPrinterSettings``: attributes first, the namespace last."""
    return DECL + tag(
        "abapformatter:PrettyPrinterSettings",
        [
            ("abapformatter:indentation", _flag(indentation)),
            ("abapformatter:style", style),
            ("abapformatter:keepIdentifier", _flag(keep_identifier)),
            ("xmlns:abapformatter", NS_PPSETTINGS),
        ],
    )


@dataclass(frozen=True)
class Proposal:
    """One entry of an evaluation: the hop-2 id, kind, title and HTML description."""

    id: str
    kind: str
    name: str
    description: str


def _reference(uri: str, kind: str, name: str, description: str | None = None) -> str:
    return tag(
        "adtcore:objectReference",
        [
            ("adtcore:uri", uri),
            ("adtcore:type", kind),
            ("adtcore:name", name),
            ("adtcore:description", description),
            ("xmlns:adtcore", NS_ADTCORE),
        ],
    )


def evaluation_results(proposals: Sequence[Proposal]) -> str:
    """``qf:evaluationResults``; the empty root (106 bytes) when nothing applies."""
    entries = "".join(
        tag(
            "evaluationResult",
            (),
            _reference(f"{QUICKFIX_PROPOSALS}/{p.id}", p.kind, p.name, p.description),
        )
        for p in proposals
    )
    return DECL + tag("qf:evaluationResults", [("xmlns:qf", NS_QUICKFIXES)], entries)


@dataclass(frozen=True)
class FixDelta:
    """One unit: the replacement text (LF) for a range of a source URI (``#start=…[;end=…]``)."""

    uri: str
    object_type: str
    label: str
    content: str


def proposal_result(
    deltas: Sequence[FixDelta],
    selection: tuple[str, str, str] | None,
) -> str:
    """``qf:proposalResult``: ``deltas`` (``<deltas/>`` when empty), the optional
    ``selection`` (uri, type, name) and an empty ``variableSourceStates``."""
    units = "".join(
        "<unit>"
        + (f"<content>{esc_text(d.content)}</content>" if d.content else "<content/>")
        + _reference(d.uri, d.object_type, d.label)
        + "</unit>"
        for d in deltas
    )
    body = tag("deltas", (), units)
    if selection is not None:
        uri, kind, name = selection
        body += tag(
            "selection",
            [
                ("adtcore:uri", uri),
                ("adtcore:type", kind),
                ("adtcore:name", name),
                ("xmlns:adtcore", NS_ADTCORE),
            ],
        )
    states = tag("adtcore:objectReferences", [("xmlns:adtcore", NS_ADTCORE)])
    body += tag("variableSourceStates", (), states)
    return DECL + tag("qf:proposalResult", [("xmlns:qf", NS_QUICKFIXES)], body)
