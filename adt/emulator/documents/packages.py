"""Package answers: the ``pak:package`` metadata and the value helps (``nameditem``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import stamps
from ..model import Package, package_uri
from ..xmlwriter import DECL, atom_link, tag, text_tag
from .common import NS_ADTCORE, REL

NS_PAK = "http://www.sap.com/adt/packages"
NS_NAMEDITEM = "http://www.sap.com/adt/nameditem"
NAMED_ITEMS = "application/vnd.sap.adt.nameditems.v1+xml"


@dataclass(frozen=True)
class NamedItem:
    """One value of a value help: the value, its text and extra data."""

    name: str
    description: str = ""
    data: str = ""


def named_item_list(items: Sequence[NamedItem]) -> str:
    """``nameditem:namedItemList``: the count, then every item with all three children."""
    body = text_tag("nameditem:totalItemCount", str(len(items))) + "".join(
        tag(
            "nameditem:namedItem",
            (),
            text_tag("nameditem:name", item.name)
            + text_tag("nameditem:description", item.description)
            + text_tag("nameditem:data", item.data),
        )
        for item in items
    )
    return DECL + tag("nameditem:namedItemList", [("xmlns:nameditem", NS_NAMEDITEM)], body)


def _package_ref(package: Package, *, description: bool) -> list[tuple[str, str | None]]:
    return [
        ("adtcore:uri", package_uri(package.name)),
        ("adtcore:type", "DEVC/K"),
        ("adtcore:name", package.name),
        ("adtcore:description", package.description if description else None),
    ]


def _attributes(local: bool) -> str:
    return tag(
        "pak:attributes",
        [
            ("pak:packageType", "development"),
            ("pak:isPackageTypeEditable", "false"),
            ("pak:isAddingObjectsAllowed", "false"),
            ("pak:isAddingObjectsAllowedEditable", "true"),
            ("pak:isEncapsulated", "false"),
            ("pak:isEncapsulationEditable", "true"),
            ("pak:recordChanges", "false" if local else "true"),
            ("pak:isRecordChangesEditable", "false"),
            ("pak:isSwitchVisible", "false"),
        ],
    )


def _transport(local: bool, sid: str) -> str:
    return tag(
        "pak:transport",
        (),
        tag(
            "pak:softwareComponent",
            [
                ("pak:name", "LOCAL" if local else "HOME"),
                ("pak:description", ""),
                ("pak:isVisible", "true"),
            ],
        )
        + tag(
            "pak:transportLayer",
            [("pak:name", "" if local else f"Z{sid}"), ("pak:description", "")],
        ),
    )


def package_document(
    package: Package, sid: str, parent: Package | None, sub_packages: Sequence[Package]
) -> str:
    """``pak:package`` metadata, trimmed from the trial capture; ``pak:subPackages`` holds a
    ``pak:packageRef`` per direct sub-package (the shape sapcli's recorded answer has)."""
    name = package.name
    created = stamps.iso_date(package.created_at)
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:responsible", package.responsible),
        ("adtcore:masterLanguage", "EN"),
        ("adtcore:masterSystem", sid),
        ("adtcore:name", name),
        ("adtcore:type", "DEVC/K"),
        ("adtcore:changedAt", created),
        ("adtcore:version", "active"),
        ("adtcore:createdAt", created),
        ("adtcore:changedBy", package.responsible),
        ("adtcore:createdBy", package.responsible),
        ("adtcore:description", package.description),
        ("adtcore:descriptionTextLimit", "60"),
        ("adtcore:language", "EN"),
        ("xmlns:pak", NS_PAK),
        ("xmlns:adtcore", NS_ADTCORE),
    ]
    local = name.startswith("$")
    body = (
        atom_link("versions", REL + "versions", title="Historic versions")
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/devck/object_name/{name}",
            "self",
            type="application/vnd.sap.sapgui",
            title="Representation in SAP Gui",
        )
        + tag("adtcore:packageRef", _package_ref(package, description=True))
        + _attributes(local)
    )
    body += tag(
        "pak:superPackage", _package_ref(parent, description=False) if parent is not None else ()
    )
    body += _transport(local, sid)
    refs = "".join(tag("pak:packageRef", _package_ref(p, description=True)) for p in sub_packages)
    body += tag("pak:subPackages", (), refs)
    return DECL + tag("pak:package", attrs, body)
