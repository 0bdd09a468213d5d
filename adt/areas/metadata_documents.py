"""The documents of the metadata kinds (data elements, domains, message classes, service
bindings, table types) as compact JSON-able models, and the edits agents make to them.

Shapes: data element and domain as A4H captures ``844``/``845``; message class, binding and
table type as docs/protocol/cds-rap-dictionary.md. Each kind has one field reader, found by
its ADT type in :data:`READERS`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from adt._xml import XmlFormatError, _parse

ADTCORE = "http://www.sap.com/adt/core"
NS = {
    "adtcore": ADTCORE,
    "dtel": "http://www.sap.com/adt/dictionary/dataelements",
    "doma": "http://www.sap.com/dictionary/domain",
    "mc": "http://www.sap.com/adt/MessageClass",
    "srvb": "http://www.sap.com/adt/ddic/ServiceBindings",
    "ttyp": "http://www.sap.com/dictionary/tabletype",
}
MC = f"{{{NS['mc']}}}"


def document_token(body: bytes) -> str:
    """The token of a document: it changes whenever the server's document does."""
    return hashlib.sha256(body).hexdigest()[:16]


@dataclass(frozen=True)
class MetadataDocument:
    """One metadata object as read: identity, the kind-specific fields, the token a write
    must name, and the document itself (for a whole-document write)."""

    object_url: str
    object_type: str
    name: str
    description: str
    version: str
    package: str
    token: str
    fields: dict[str, Any] = field(default_factory=dict)
    raw: bytes = field(default=b"", repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "objectType": self.object_type,
            "name": self.name,
            "description": self.description,
            "version": self.version,
            "package": self.package,
            "token": self.token,
            **self.fields,
        }


def _text(root: etree._Element, path: str) -> str:
    return (root.findtext(path, namespaces=NS) or "").strip()


def _number(value: str) -> int:
    return int(value) if value.isdigit() else 0


def _data_element(root: etree._Element) -> dict[str, Any]:
    base = "dtel:dataElement/dtel:"
    labels = {
        kind: {
            "text": _text(root, f"{base}{kind}FieldLabel"),
            "length": _number(_text(root, f"{base}{kind}FieldLength")),
        }
        for kind in ("short", "medium", "long", "heading")
    }
    return {
        "typeKind": _text(root, f"{base}typeKind"),
        "typeName": _text(root, f"{base}typeName"),
        "dataType": _text(root, f"{base}dataType"),
        "length": _number(_text(root, f"{base}dataTypeLength")),
        "decimals": _number(_text(root, f"{base}dataTypeDecimals")),
        "labels": labels,
        "searchHelp": _text(root, f"{base}searchHelp"),
    }


def _domain(root: etree._Element) -> dict[str, Any]:
    content = "doma:content/doma:"
    fixed = [
        {
            "low": _text(value, "doma:low"),
            "high": _text(value, "doma:high"),
            "text": _text(value, "doma:text"),
        }
        for value in root.iterfind(f"{content}valueInformation//doma:fixValue", NS)
    ]
    table = root.find(f"{content}valueInformation/doma:valueTableRef", NS)
    return {
        "dataType": _text(root, f"{content}typeInformation/doma:datatype"),
        "length": _number(_text(root, f"{content}typeInformation/doma:length")),
        "decimals": _number(_text(root, f"{content}typeInformation/doma:decimals")),
        "outputLength": _number(_text(root, f"{content}outputInformation/doma:length")),
        "lowercase": _text(root, f"{content}outputInformation/doma:lowercase") == "true",
        "conversionExit": _text(root, f"{content}outputInformation/doma:conversionExit"),
        "valueTable": table.get(f"{{{ADTCORE}}}name", "") if table is not None else "",
        "fixedValues": fixed,
    }


def _message_class(root: etree._Element) -> dict[str, Any]:
    messages = [
        {"number": m.get(f"{MC}msgno", ""), "text": m.get(f"{MC}msgtext", "")}
        for m in root.iter(f"{MC}messages")
    ]
    return {"messages": messages}


def _service_binding(root: etree._Element) -> dict[str, Any]:
    srvb = f"{{{NS['srvb']}}}"
    binding = root.find(f"{srvb}binding")
    services = [
        {
            "name": service.get(f"{srvb}name", ""),
            "version": content.get(f"{srvb}version", ""),
            "serviceDefinition": _definition(content),
        }
        for service in root.iter(f"{srvb}services")
        for content in service.iter(f"{srvb}content")
    ]
    return {
        "published": root.get(f"{srvb}published") == "true",
        "contract": root.get(f"{srvb}contract", ""),
        "implementation": _implementation(binding),
        "bindingType": binding.get(f"{srvb}type", "") if binding is not None else "",
        "bindingVersion": binding.get(f"{srvb}version", "") if binding is not None else "",
        "category": binding.get(f"{srvb}category", "") if binding is not None else "",
        "services": services,
    }


def _implementation(binding: etree._Element | None) -> str:
    found = binding.find(f"{{{NS['srvb']}}}implementation") if binding is not None else None
    return found.get(f"{{{ADTCORE}}}name", "") if found is not None else ""


def _definition(content: etree._Element) -> str:
    definition = content.find(f"{{{NS['srvb']}}}serviceDefinition")
    return definition.get(f"{{{ADTCORE}}}name", "") if definition is not None else ""


def _table_type(root: etree._Element) -> dict[str, Any]:
    """Row type, access and primary key of ``ttyp:tableType`` (the shape public clients
    write back: ``ttyp:rowType``, ``ttyp:accessType``, ``ttyp:primaryKey``)."""
    ttyp = f"{{{NS['ttyp']}}}"
    key = root.find(f"{ttyp}primaryKey")
    components = [
        c.get(f"{ttyp}name", "") for c in root.iterfind(f"{ttyp}primaryKey/{ttyp}components/*")
    ]
    return {
        "rowType": _text(root, "ttyp:rowType/ttyp:typeName"),
        "rowTypeKind": _text(root, "ttyp:rowType/ttyp:typeKind"),
        "builtInType": _text(root, "ttyp:rowType/ttyp:builtInType/ttyp:dataType"),
        "accessType": _text(root, "ttyp:accessType"),
        "keyDefinition": _text(root, "ttyp:primaryKey/ttyp:definition"),
        "keyUnique": key is not None and _text(root, "ttyp:primaryKey/ttyp:kind") == "unique",
        "keyComponents": components,
    }


#: The field reader of each metadata kind, by ADT type.
READERS: dict[str, Callable[[etree._Element], dict[str, Any]]] = {
    "DTEL/DE": _data_element,
    "DOMA/DD": _domain,
    "MSAG/N": _message_class,
    "SRVB/SVB": _service_binding,
    "TTYP/DA": _table_type,
}


def parse_metadata_document(body: bytes, object_url: str) -> MetadataDocument:
    """A metadata kind's document; :class:`XmlFormatError` if it names no ADT type."""
    root = _parse(body)
    code = root.get(f"{{{ADTCORE}}}type", "")
    if not code:
        raise XmlFormatError(f"{object_url}: the document names no adtcore:type")
    package = root.find(f"{{{ADTCORE}}}packageRef")
    reader = READERS.get(code.upper())
    return MetadataDocument(
        object_url=object_url,
        object_type=code,
        name=root.get(f"{{{ADTCORE}}}name", ""),
        description=root.get(f"{{{ADTCORE}}}description", ""),
        version=root.get(f"{{{ADTCORE}}}version", ""),
        package=package.get(f"{{{ADTCORE}}}name", "") if package is not None else "",
        token=document_token(body),
        fields=reader(root) if reader is not None else {},
        raw=body,
    )


def with_message(body: bytes, number: str, text: str) -> bytes:
    """The message-class document with message ``number`` set to ``text`` (changed in
    place, or added in number order)."""
    root = _parse(body)
    wanted = number.zfill(3)
    messages = list(root.iter(f"{MC}messages"))
    for message in messages:
        if message.get(f"{MC}msgno") == wanted:
            message.set(f"{MC}msgtext", text)
            return etree.tostring(root, xml_declaration=True, encoding="utf-8")
    added = etree.Element(f"{MC}messages")
    added.set(f"{MC}msgno", wanted)
    added.set(f"{MC}msgtext", text)
    added.set(f"{MC}selfexplainatory", "true")
    added.set(f"{MC}documented", "false")
    later = [m for m in messages if (m.get(f"{MC}msgno") or "") > wanted]
    if later:
        later[0].addprevious(added)
    else:
        root.append(added)
    return etree.tostring(root, xml_declaration=True, encoding="utf-8")


def with_description(body: bytes, description: str) -> bytes:
    """The document with a new short description."""
    root = _parse(body)
    root.set(f"{{{ADTCORE}}}description", description)
    return etree.tostring(root, xml_declaration=True, encoding="utf-8")


__all__ = [
    "READERS",
    "MetadataDocument",
    "document_token",
    "parse_metadata_document",
    "with_description",
    "with_message",
]
