"""ADT XML documents: parsing responses into :mod:`adt.models` and building request bodies.

The only module that knows element names and namespaces. Parsing is namespace-aware (SAP
declares ``xmlns:atom`` on every ``atom:link``) and hardened: no entity expansion, no network.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import quoteattr

from lxml import etree

from adt.errors import ServerErrorInfo, UnexpectedResponseError
from adt.models import (
    ActivationResult,
    CheckReport,
    CheckResult,
    ClassInclude,
    Link,
    LockResult,
    Message,
    NodeStructure,
    ObjectMetadata,
    ObjectRef,
    Timestamp,
    TreeNode,
    TreeObjectType,
)

NS = {
    "adtcore": "http://www.sap.com/adt/core",
    "abapsource": "http://www.sap.com/adt/abapsource",
    "class": "http://www.sap.com/adt/oo/classes",
    "atom": "http://www.w3.org/2005/Atom",
    "exc": "http://www.sap.com/abapxml/types/communicationframework",
    "asx": "http://www.sap.com/abapxml",
    "chkl": "http://www.sap.com/abapxml/checklist",
    "chkrun": "http://www.sap.com/adt/checkrun",
    "ioc": "http://www.sap.com/abapxml/inactiveCtsObjects",
}
_OLD_EXCEPTION_NS = "http://www.sap.com/adt/exceptions"

_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True, recover=False
)


class XmlFormatError(UnexpectedResponseError):
    """A body that should have been a known ADT document but was not."""


def _parse(body: bytes) -> etree._Element:
    try:
        return etree.fromstring(body, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        raise XmlFormatError(f"malformed XML: {exc}") from exc


def parse_document(body: bytes, namespace: str, local: str) -> etree._Element:
    """An ADT answer whose root must be ``local`` in ``namespace``, parsed safely (no
    entities, no DTD, no network); anything else is an :class:`XmlFormatError`."""
    root = _parse(body)
    if root.tag != f"{{{namespace}}}{local}":
        raise XmlFormatError(f"expected {local} in {namespace}, got {root.tag}")
    return root


def _q(prefix: str, local: str) -> str:
    return f"{{{NS[prefix]}}}{local}"


def _attr(element: etree._Element, prefix: str, local: str, default: str = "") -> str:
    value = element.get(_q(prefix, local))
    return default if value is None else value


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname


def _child_text(element: etree._Element, name: str) -> str:
    child = element.find(name)
    return (child.text or "").strip() if child is not None else ""


def _child_id(element: etree._Element, name: str) -> str:
    child = element.find(name)
    return child.get("id", "") if child is not None else ""


# --- URLs ---------------------------------------------------------------------------------


def follow_href(base: str, href: str) -> str:
    """Resolve an ``href`` the way SAP means it (abap-adt-api's ``followUrl``).

    ``/x`` is absolute; ``./x`` is relative to the parent collection; anything else is
    relative to the object URL as if it ended in ``/``.
    """
    if href.startswith("/"):
        return href
    if href.startswith("./"):
        return base.rsplit("/", 1)[0] + "/" + href[2:]
    return base.rstrip("/") + "/" + href


# --- errors -------------------------------------------------------------------------------

_TAGS = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def parse_error(status: int, body: bytes, content_type: str) -> ServerErrorInfo:
    """Turn any error body into :class:`ServerErrorInfo`: ``exc:exception`` (both namespaces),
    SAP's HTML error pages, or plain text such as ``CSRF token validation failed``."""
    info = ServerErrorInfo(status=status)
    stripped = body.lstrip()
    if stripped.startswith(b"<?xml") or stripped.startswith(b"<exc:"):
        try:
            root = _parse(stripped)
        except XmlFormatError:
            root = None
        if root is not None and _local(root) == "exception":
            info.namespace = _child_id(root, "namespace")
            info.type_id = _child_id(root, "type")
            info.message = _child_text(root, "message")
            info.localized_message = _child_text(root, "localizedMessage")
            entries = root.findall("properties/entry")
            info.properties = {e.get("key", ""): (e.text or "").strip() for e in entries}
            return info
    text = body.decode("utf-8", errors="replace")
    if "html" in content_type or text.lstrip().lower().startswith(("<!doctype", "<html")):
        header = re.search(r'class="errorTextHeader"[^>]*>(.*?)</', text, re.S)
        detail = re.search(r'class="detailText"[^>]*>(.*?)</', text, re.S)
        title = re.search(r"<title>(.*?)</title>", text, re.S | re.I)
        parts = [m.group(1) for m in (header, detail) if m] or ([title.group(1)] if title else [])
        info.message = _SPACE.sub(" ", _TAGS.sub(" ", " ".join(parts))).strip()[:300]
    else:
        info.message = _SPACE.sub(" ", text).strip()[:300]
    return info


# --- metadata -----------------------------------------------------------------------------


def _links(element: etree._Element, base: str) -> tuple[Link, ...]:
    return tuple(
        Link(
            href=link.get("href", ""),
            rel=link.get("rel", ""),
            url=follow_href(base, link.get("href", "")),
            type=link.get("type", ""),
            title=link.get("title", ""),
            etag=link.get("etag", ""),
        )
        for link in element.findall(_q("atom", "link"))
    )


def _source_etag(links: Iterable[Link]) -> str:
    for link in links:
        if link.rel.endswith("/relations/source") and link.type in ("text/plain", ""):
            return link.etag
    return ""


def parse_metadata(body: bytes, object_url: str) -> ObjectMetadata:
    """Parse the metadata of a class, interface, program, include, function group or module."""
    root = _parse(body)
    if root.get(_q("adtcore", "name")) is None:
        raise XmlFormatError(f"<{_local(root)}> is not an ADT object document")
    includes = tuple(
        ClassInclude(
            include_type=inc.get(_q("class", "includeType"), ""),
            source_url=follow_href(object_url, _attr(inc, "abapsource", "sourceUri")),
            changed_at=Timestamp.parse_iso(_attr(inc, "adtcore", "changedAt")),
            changed_by=_attr(inc, "adtcore", "changedBy"),
            version=_attr(inc, "adtcore", "version"),
            etag=_source_etag(_links(inc, object_url)),
            links=_links(inc, object_url),
        )
        for inc in root.findall(_q("class", "include"))
    )
    package_ref = root.find(_q("adtcore", "packageRef"))
    container_ref = root.find(_q("adtcore", "containerRef"))
    container = None
    package = ""
    if package_ref is not None:
        package = _attr(package_ref, "adtcore", "name")
    if container_ref is not None:
        container = ObjectRef(
            uri=_attr(container_ref, "adtcore", "uri"),
            type=_attr(container_ref, "adtcore", "type"),
            name=_attr(container_ref, "adtcore", "name"),
            package=_attr(container_ref, "adtcore", "packageName"),
        )
        package = package or container.package
    source_uri = _attr(root, "abapsource", "sourceUri")
    source_url: str | None = follow_href(object_url, source_uri) if source_uri else None
    main = next((inc for inc in includes if inc.include_type == "main"), None)
    if source_url is None and main is not None:
        source_url = main.source_url
    attributes = {
        etree.QName(key).localname: str(value)
        for key, value in root.attrib.items()
        if not str(key).startswith(f"{{{NS['adtcore']}}}")
    }
    return ObjectMetadata(
        object_url=object_url,
        name=_attr(root, "adtcore", "name"),
        type=_attr(root, "adtcore", "type"),
        description=_attr(root, "adtcore", "description"),
        package=package,
        changed_at=Timestamp.parse_iso(_attr(root, "adtcore", "changedAt")),
        changed_by=_attr(root, "adtcore", "changedBy"),
        created_at=Timestamp.parse_iso(_attr(root, "adtcore", "createdAt")),
        version=_attr(root, "adtcore", "version"),
        responsible=_attr(root, "adtcore", "responsible"),
        master_language=_attr(root, "adtcore", "masterLanguage"),
        source_url=source_url,
        links=_links(root, object_url),
        includes=includes,
        container=container,
        attributes=attributes,
    )


# --- lock ---------------------------------------------------------------------------------


def parse_lock(body: bytes, object_url: str) -> LockResult:
    root = _parse(body)
    data = root.find(f"{_q('asx', 'values')}/DATA")
    if data is None:
        raise XmlFormatError("lock result without asx:values/DATA")
    handle = _child_text(data, "LOCK_HANDLE")
    if not handle:
        raise XmlFormatError("lock result without LOCK_HANDLE")
    return LockResult(
        handle=handle,
        object_url=object_url,
        corrnr=_child_text(data, "CORRNR"),
        corruser=_child_text(data, "CORRUSER"),
        corrtext=_child_text(data, "CORRTEXT"),
        is_local=_child_text(data, "IS_LOCAL") == "X",
        is_link_up=_child_text(data, "IS_LINK_UP") == "X",
        modification_support=_child_text(data, "MODIFICATION_SUPPORT"),
    )


# --- activation ---------------------------------------------------------------------------


def _bool_attr(element: etree._Element | None, name: str) -> bool | None:
    if element is None or element.get(name) is None:
        return None
    return element.get(name) == "true"


def parse_activation(body: bytes) -> ActivationResult:
    """Empty body: success (A4H). ``chkl:messages``: errors decide. Inactive list: failure."""
    if not body.strip():
        return ActivationResult(success=True, executed=True)
    root = _parse(body)
    if root.tag == _q("ioc", "inactiveObjects"):
        refs = []
        for entry in root.findall(_q("ioc", "entry")):
            obj = entry.find(_q("ioc", "object"))
            ref = obj.find(_q("ioc", "ref")) if obj is not None else None
            if ref is not None:
                refs.append(
                    ObjectRef(
                        uri=_attr(ref, "adtcore", "uri"),
                        type=_attr(ref, "adtcore", "type"),
                        name=_attr(ref, "adtcore", "name"),
                    )
                )
        return ActivationResult(success=False, executed=False, inactive_objects=tuple(refs))
    if root.tag != _q("chkl", "messages"):
        raise XmlFormatError(f"unexpected activation answer <{_local(root)}>")
    properties = root.find(_q("chkl", "properties"))
    messages = tuple(
        Message.with_position(
            msg.get("type", ""),
            " ".join((t.text or "").strip() for t in msg.findall("shortText/txt")).strip(),
            msg.get("href", ""),
            code=msg.get("code", ""),
            object_description=msg.get("objDescr", ""),
        )
        for msg in root.findall("msg")
    )
    executed = _bool_attr(properties, "activationExecuted")
    success = not any(m.is_error for m in messages)
    return ActivationResult(success=success, executed=executed, messages=messages)


# --- check runs ---------------------------------------------------------------------------


def parse_check_run(body: bytes) -> CheckResult:
    root = _parse(body)
    if root.tag != _q("chkrun", "checkRunReports"):
        raise XmlFormatError(f"unexpected check run answer <{_local(root)}>")
    reports = []
    for report in root.findall(_q("chkrun", "checkReport")):
        messages = tuple(
            Message.with_position(
                _attr(msg, "chkrun", "type"),
                _attr(msg, "chkrun", "shortText"),
                _attr(msg, "chkrun", "uri"),
                code=_attr(msg, "chkrun", "code"),
            )
            for msg in report.iter(_q("chkrun", "checkMessage"))
        )
        reports.append(
            CheckReport(
                reporter=_attr(report, "chkrun", "reporter"),
                triggering_uri=_attr(report, "chkrun", "triggeringUri"),
                status=_attr(report, "chkrun", "status"),
                status_text=_attr(report, "chkrun", "statusText"),
                messages=messages,
            )
        )
    return CheckResult(tuple(reports))


# --- search and trees ---------------------------------------------------------------------


def parse_object_references(body: bytes) -> tuple[ObjectRef, ...]:
    root = _parse(body)
    return tuple(
        ObjectRef(
            uri=_attr(ref, "adtcore", "uri"),
            type=_attr(ref, "adtcore", "type"),
            name=_attr(ref, "adtcore", "name"),
            package=_attr(ref, "adtcore", "packageName"),
            description=_attr(ref, "adtcore", "description"),
        )
        for ref in root.findall(_q("adtcore", "objectReference"))
    )


def parse_node_structure(body: bytes) -> NodeStructure:
    """Empty body means an empty *or unknown* package (SAP does not tell them apart here)."""
    if not body.strip():
        return NodeStructure()
    root = _parse(body)
    data = root.find(f"{_q('asx', 'values')}/DATA")
    if data is None:
        raise XmlFormatError("node structure without asx:values/DATA")
    nodes = tuple(
        TreeNode(
            object_type=_child_text(node, "OBJECT_TYPE"),
            name=_child_text(node, "OBJECT_NAME"),
            tech_name=_child_text(node, "TECH_NAME"),
            uri=_child_text(node, "OBJECT_URI"),
            description=_child_text(node, "DESCRIPTION"),
            expandable=_child_text(node, "EXPANDABLE") == "X",
            node_id=_child_text(node, "NODE_ID"),
        )
        for node in data.findall("TREE_CONTENT/SEU_ADT_REPOSITORY_OBJ_NODE")
    )
    types = tuple(
        TreeObjectType(
            object_type=_child_text(info, "OBJECT_TYPE"),
            label=_child_text(info, "OBJECT_TYPE_LABEL"),
            category=_child_text(info, "CATEGORY_TAG"),
            node_id=_child_text(info, "NODE_ID"),
        )
        for info in data.findall("OBJECT_TYPES/SEU_ADT_OBJECT_TYPE_INFO")
    )
    categories = tuple(
        (_child_text(info, "CATEGORY"), _child_text(info, "CATEGORY_LABEL"))
        for info in data.findall("CATEGORIES/SEU_ADT_OBJECT_CATEGORY_INFO")
    )
    return NodeStructure(nodes=nodes, object_types=types, categories=categories)


# --- request bodies -----------------------------------------------------------------------

_XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'


def activation_request(objects: Sequence[tuple[str, str]]) -> bytes:
    """``adtcore:objectReferences`` for ``(uri, NAME)`` pairs."""
    refs = "".join(
        f"<adtcore:objectReference adtcore:uri={quoteattr(uri)} adtcore:name={quoteattr(name)}/>"
        for uri, name in objects
    )
    return (
        f'{_XML_DECL}<adtcore:objectReferences xmlns:adtcore="{NS["adtcore"]}">'
        f"{refs}</adtcore:objectReferences>"
    ).encode()


def check_run_request(
    object_url: str, version: str, artifact: tuple[str, str] | None = None
) -> bytes:
    """A check-object list; ``artifact`` is ``(source_url, text)`` to check unsaved text."""
    content = ""
    if artifact is not None:
        source_url, text = artifact
        encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
        content = (
            "<chkrun:artifacts><chkrun:artifact "
            'chkrun:contentType="text/plain; charset=utf-8" '
            f"chkrun:uri={quoteattr(source_url)}><chkrun:content>{encoded}</chkrun:content>"
            "</chkrun:artifact></chkrun:artifacts>"
        )
    return (
        f'{_XML_DECL}<chkrun:checkObjectList xmlns:chkrun="{NS["chkrun"]}" '
        f'xmlns:adtcore="{NS["adtcore"]}"><chkrun:checkObject adtcore:uri={quoteattr(object_url)} '
        f"chkrun:version={quoteattr(version)}>{content}</chkrun:checkObject>"
        "</chkrun:checkObjectList>"
    ).encode()


def node_structure_request(node_id: str = "000000") -> bytes:
    return (
        f'{_XML_DECL}<asx:abap xmlns:asx="{NS["asx"]}" version="1.0"><asx:values><DATA>'
        f"<TV_NODEKEY>{node_id}</TV_NODEKEY></DATA></asx:values></asx:abap>"
    ).encode()
