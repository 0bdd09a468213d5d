"""Answers of locks, activation and check runs."""

from __future__ import annotations

from dataclasses import dataclass

from ..xmlwriter import DECL, tag, text_tag


def lock_result(
    handle: str,
    *,
    corrnr: str,
    corruser: str,
    corrtext: str,
    local: bool,
    modification: str,
    result2: bool,
) -> str:
    """``asx:abap`` lock result; Result2 adds ``LINK_UP_MODE``/``CORR_*`` (§4.2)."""
    fields = (
        text_tag("LOCK_HANDLE", handle)
        + text_tag("CORRNR", corrnr)
        + text_tag("CORRUSER", corruser)
        + text_tag("CORRTEXT", corrtext)
        + text_tag("IS_LOCAL", "X" if local else "")
        + tag("IS_LINK_UP")
        + text_tag("MODIFICATION_SUPPORT", modification)
    )
    if result2:
        fields += tag("LINK_UP_MODE") + tag("CORR_LOCKS") + tag("CORR_CONTENTS")
    fields += tag("SCOPE_MESSAGES")
    return (
        DECL
        + '<asx:abap version="1.0" xmlns:asx="http://www.sap.com/abapxml"><asx:values>'
        + tag("DATA", (), fields)
        + "</asx:values></asx:abap>"
    )


@dataclass(frozen=True)
class CheckMessage:
    """A finding as activation and check runs report it."""

    uri: str
    line: int
    column: int
    end_column: int
    text: str
    severity: str = "E"
    code: str = "MESSAGE(EMU)"
    obj_descr: str = ""


CHKL_NS = "http://www.sap.com/abapxml/checklist"


def activation_messages(
    messages: list[CheckMessage], *, properties: tuple[bool, bool, bool] | None
) -> str:
    """``chkl:messages``: properties are (check, activation, generation) executed."""
    body = ""
    if properties is not None:
        check, activation, generation = (str(v).lower() for v in properties)
        body += tag(
            "chkl:properties",
            [
                ("checkExecuted", check),
                ("activationExecuted", activation),
                ("generationExecuted", generation),
            ],
        )
    for msg in messages:
        body += tag(
            "msg",
            [
                ("objDescr", msg.obj_descr),
                ("type", msg.severity),
                ("line", "1"),
                ("href", f"{msg.uri}#start={msg.line},{msg.column}"),
                ("forceSupported", "true"),
            ],
            tag("shortText", (), text_tag("txt", msg.text)),
        )
    return DECL + tag("chkl:messages", [("xmlns:chkl", CHKL_NS)], body)


CHKRUN_NS = "http://www.sap.com/adt/checkrun"


@dataclass(frozen=True)
class CheckRunReport:
    """One ``chkrun:checkReport``."""

    triggering_uri: str
    processed: bool
    status_text: str
    messages: list[CheckMessage]


def check_run_reports(reports: list[CheckRunReport]) -> str:
    """``chkrun:checkRunReports`` for the ``abapCheckRun`` reporter (§7.2)."""
    body = ""
    for report in reports:
        messages = ""
        for msg in report.messages:
            fragment = f"#start={msg.line},{msg.column};end={msg.line},{msg.end_column}"
            messages += tag(
                "chkrun:checkMessage",
                [
                    ("chkrun:uri", msg.uri + fragment),
                    ("chkrun:type", msg.severity),
                    ("chkrun:shortText", msg.text),
                    ("chkrun:code", msg.code),
                ],
            )
        inner = tag("chkrun:checkMessageList", (), messages) if messages else None
        body += tag(
            "chkrun:checkReport",
            [
                ("chkrun:reporter", "abapCheckRun"),
                ("chkrun:triggeringUri", report.triggering_uri),
                ("chkrun:status", "processed" if report.processed else "notProcessed"),
                ("chkrun:statusText", report.status_text),
            ],
            inner,
        )
    return DECL + tag("chkrun:checkRunReports", [("xmlns:chkrun", CHKRUN_NS)], body)
