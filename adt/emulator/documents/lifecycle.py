"""Answers of the name validations and of the deletion service (object lifecycle,
docs/protocol/object-lifecycle.md §1, §3.2)."""

from __future__ import annotations

from dataclasses import dataclass

from ..xmlwriter import DECL, tag, text_tag

#: A free class or interface name (OO validation).
OO_NAME_CHECK = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.oo.clifname.check"
#: A free name of another workbench type (the tables answer, used for programs too).
WB_NAME_CHECK = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.wb.objname.check"
#: Function groups and modules: verdict in ``SEVERITY``, always 200.
STATUS_MESSAGE = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.StatusMessage"


def _asx(fields: str) -> str:
    return (
        DECL
        + '<asx:abap version="1.0" xmlns:asx="http://www.sap.com/abapxml"><asx:values>'
        + tag("DATA", (), fields)
        + "</asx:values></asx:abap>"
    )


def name_free() -> str:
    """``CHECK_RESULT=X``: the 180-byte trial answer for a free name."""
    return _asx(text_tag("CHECK_RESULT", "X"))


def status_message(severity: str, short_text: str = "") -> str:
    """``SEVERITY`` (``OK``/``ERROR``), ``SHORT_TEXT``, empty ``LONG_TEXT``."""
    return _asx(
        text_tag("SEVERITY", severity) + text_tag("SHORT_TEXT", short_text) + tag("LONG_TEXT")
    )


DEL_NS = "http://www.sap.com/adt/deletion"
DELETION_CHECK = "application/vnd.sap.adt.deletion.check.response.v1+xml; charset=utf-8"
DELETION_RESULT = "application/vnd.sap.adt.deletion.response.v1+xml; charset=utf-8"


@dataclass(frozen=True)
class DeletionItem:
    """One object of a deletion check or delete: its verdict and the request holding it."""

    uri: str
    type: str
    name: str
    package: str
    ok: bool
    text: str = ""
    lock_user: str = ""
    recording: bool = False
    request: tuple[str, str, str] = ("", "", "")  # number, owner, description


def _del_object(
    item: DeletionItem, verdict: str, body: str, lead: tuple[tuple[str, str], ...] = ()
) -> str:
    message = tag(
        "del:message",
        [("del:priority", "0"), ("del:type", "S" if item.ok else "E")],
        text_tag("del:text", item.text),
    )
    attrs: list[tuple[str, str | None]] = [
        *lead,
        (verdict, "true" if item.ok else "false"),
        ("adtcore:uri", item.uri),
        ("adtcore:type", item.type),
        ("adtcore:name", item.name),
        ("adtcore:packageName", item.package if item.ok else None),
        ("xmlns:adtcore", "http://www.sap.com/adt/core"),
    ]
    return tag("del:object", attrs, body + message)


def deletion_check(items: list[DeletionItem]) -> str:
    """``del:checkResponse``: deletable or not, and the (nested) locking transport."""
    body = ""
    for item in items:
        number, owner, description = item.request
        inner = tag(
            "del:lockingTransport",
            (),
            text_tag("del:trkorr", number)
            + text_tag("del:owner", owner)
            + text_tag("del:description", description),
        )
        transport = tag(
            "del:lockingTransport",
            (),
            text_tag("del:recording", "true" if item.recording else "false")
            + tag("del:result")
            + inner
            + tag("del:transportLayer"),
        )
        lock_user = text_tag("del:lockUser", item.lock_user) if item.lock_user else ""
        references = (("del:externalStrongReferences", "0"), ("del:externalWeakReferences", "0"))
        body += _del_object(item, "del:isDeletable", transport + lock_user, references)
    return DECL + tag("del:checkResponse", [("xmlns:del", DEL_NS)], body)


def deletion_result(items: list[DeletionItem]) -> str:
    """``del:deletionResult``: the verdict is ``del:isDeleted``, the status is always 200."""
    body = "".join(_del_object(item, "del:isDeleted", "") for item in items)
    return DECL + tag("del:deletionResult", [("xmlns:del", DEL_NS)], body)
