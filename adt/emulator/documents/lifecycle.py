"""Answers of the name validations (object lifecycle, docs/protocol/object-lifecycle.md §1)."""

from __future__ import annotations

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
