"""ADT errors as Python exceptions that render to ``exc:exception`` documents (§6).

Handlers raise :class:`AdtException`; the app turns it into the response.  The factory
functions name the T100 keys seen in the captures so every caller spells them alike.
"""

from __future__ import annotations

from .xmlwriter import DECL, esc_text, tag, text_tag

EXC_NS = "http://www.sap.com/abapxml/types/communicationframework"

_EU510_BODY = (
    "<P><STRONG>Diagnosis</STRONG></P><P>You attempted to change a Workbench object.</P>"
    "<P><STRONG>System Response</STRONG></P><P>This object is currently being edited by "
    "another user and is therefore locked (by an ENQUEUE lock).</P><P><STRONG>Procedure"
    "</STRONG></P><P>Wait until the other user has finished.<BR><BR>If the ENQUEUE lock "
    "remains as a result of a mode termination or due to other serious problems in the lock "
    "administration and no other user is editing the object, you can delete the lock using "
    "Transaction SM12. This operation is logged by the system.</P></BODY></HTML>"
)
_EU510_HEAD = (
    '<HTML><HEAD><TITLE>Conversion of SAPscript Text EU510 to HTML</TITLE><META http-equiv="'
    'Content-Type" content="text/html; charset=utf-8"></HEAD><BODY>'
)


def eu510_longtext(headline: str | None) -> str:
    """The SAPscript long text SAP attaches to EU/510 (with or without a headline)."""
    head = ""
    if headline is not None:
        head = f"<P><STRONG>{headline}</STRONG></P><P>Message No. EU510</P>"
    return _EU510_HEAD + head + _EU510_BODY


def exception_document(
    type_id: str,
    message: str,
    properties: list[tuple[str, str]],
    *,
    namespace: str = "com.sap.adt",
) -> str:
    """An ``exc:exception`` body starting exactly like SAP's (sapcli checks the prefix)."""
    entries = "".join(text_tag("entry", value, [("key", key)]) for key, value in properties)
    props = tag("properties", (), entries)
    return (
        DECL
        + f'<exc:exception xmlns:exc="{EXC_NS}">'
        + tag("namespace", [("id", namespace)])
        + tag("type", [("id", type_id)])
        + f'<message lang="EN">{esc_text(message)}</message>'
        + f'<localizedMessage lang="EN">{esc_text(message)}</localizedMessage>'
        + props
        + "</exc:exception>"
    )


class AdtException(Exception):
    """An error answer: HTTP status plus an ``exc:exception`` document."""

    def __init__(
        self,
        status: int,
        type_id: str,
        message: str,
        properties: list[tuple[str, str]] | None = None,
        *,
        namespace: str = "com.sap.adt",
    ) -> None:
        super().__init__(message)
        self.status = status
        self.type_id = type_id
        self.message = message
        self.properties = properties or []
        self.namespace = namespace

    def document(self) -> str:
        return exception_document(
            self.type_id, self.message, self.properties, namespace=self.namespace
        )


def t100(area: str, number: str, *values: str) -> list[tuple[str, str]]:
    """T100 key properties (``T100KEY-NO`` stays a zero-padded string)."""
    props = [("T100KEY-ID", area), ("T100KEY-NO", number)]
    props += [(f"T100KEY-V{i}", v) for i, v in enumerate(values, start=1)]
    return props


def not_found(resource_word: str | None, name: str) -> AdtException:
    """404: SADT_RESOURCE/002, or A4H's bare form for programs (``072``)."""
    if resource_word is None:
        return AdtException(404, "ExceptionResourceNotFound", f"{name} does not exist")
    message = f"Resource {resource_word} {name} does not exist."
    return AdtException(
        404,
        "ExceptionResourceNotFound",
        message,
        t100("SADT_RESOURCE", "002", resource_word, name),
    )


def no_suitable_resource() -> AdtException:
    """404 for a path no resource controller serves."""
    return AdtException(404, "ExceptionResourceNotFound", "No suitable resource found")


def package_not_found(name: str) -> AdtException:
    """404 for an unknown package (trial capture: SWB_TOOL/025)."""
    return AdtException(
        404,
        "ExceptionResourceNotFound",
        f"Error while importing object {name} from the database",
        t100("SWB_TOOL", "025", name),
    )


def lock_conflict(holder: str, name: str) -> AdtException:
    """403 EU/510 on LOCK, shaped like the trial's ``refusal-lock-held-by-other``."""
    text = f"User {holder} is currently editing {name}"
    props = [("LONGTEXT", eu510_longtext(text)), *t100("EU", "510", holder, name)]
    return AdtException(403, "ExceptionResourceNoAccess", text, props)


def activation_locked(holder: str, name: str, uri: str) -> AdtException:
    """403 EU/510 on activation, byte-shaped like A4H ``095``/``108`` (with ``URI``)."""
    text = f"User {holder} is currently editing {name}"
    props = [("LONGTEXT", eu510_longtext(None)), ("URI", uri), *t100("EU", "510", holder, name)]
    return AdtException(403, "ExceptionResourceNoAccess", text, props)


def invalid_lock_handle(word: str, name: str, handle: str, user: str) -> AdtException:
    """423 SADT_RESOURCE/026, with the (odd but recorded) EU510 long text."""
    text = f"Resource {word} {name} is not locked (invalid lock handle: {handle})"
    props = [
        *t100("SADT_RESOURCE", "026", word, name, handle),
        ("LONGTEXT", eu510_longtext(f"User {user} is currently editing {name}")),
    ]
    return AdtException(423, "ExceptionResourceInvalidLockHandle", text, props)


def parameter_missing(name: str) -> AdtException:
    """400 SADT_RESOURCE/017 "Parameter X could not be found."."""
    return AdtException(
        400,
        "ExceptionParameterNotFound",
        f"Parameter {name} could not be found.",
        t100("SADT_RESOURCE", "017", name),
    )


def line_too_long(line: int) -> AdtException:
    """400 SEDI_ADT/015, exactly the A4H ``446`` shape."""
    return AdtException(
        400,
        "ExceptionResourceBadRequest",
        f"The line {line} exceeds 255 characters. Source code cannot be processed",
        [
            ("maxLineLength", "255"),
            ("com.sap.adt.communicationFramework.subType", "TooLongLine"),
            *t100("SEDI_ADT", "015", str(line)),
        ],
    )


def not_acceptable(accepted: list[str]) -> AdtException:
    """406 with the accepted media types listed (A4H ``082`` message)."""
    message = "The message content is not acceptable. Accepted content types: " + ", ".join(
        accepted
    )
    return AdtException(
        406, "ExceptionResourceNotAcceptable", message, t100("SADT_RESOURCE", "037")
    )


def method_not_supported(method: str) -> AdtException:
    """405: matches the 389-byte A4H ``813`` body length exactly."""
    return AdtException(
        405,
        "ExceptionMethodNotSupported",
        f"Resource controller does not support method {method}",
    )


def bad_request(message: str) -> AdtException:
    """400 for a body or parameter the emulator cannot use."""
    return AdtException(400, "ExceptionResourceBadRequest", message)


def save_failure(message: str) -> AdtException:
    """500 ExceptionResourceSaveFailure (e.g. a class include that was never created)."""
    return AdtException(500, "ExceptionResourceSaveFailure", message)
