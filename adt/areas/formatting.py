"""The pretty printer and its settings.

The system formats text with the settings stored for the user (indentation, keyword and
identifier case); :meth:`Formatting.settings` and :meth:`Formatting.set_settings` read and
write them. See docs/protocol/pretty-printer.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from adt._xml import parse_document
from adt.areas.base import Area
from adt.errors import UnexpectedResponseError
from adt.text import to_canonical, to_wire

PRETTY_PRINTER = "/sap/bc/adt/abapsource/prettyprinter"
SETTINGS = f"{PRETTY_PRINTER}/settings"
NS_SETTINGS = "http://www.sap.com/adt/prettyprintersettings"
SETTINGS_ACCEPT = "application/vnd.sap.adt.ppsettings.v5+xml, application/*;q=0.8"
#: ``abapformatter:style`` values: everything lower / upper, keywords upper / lower,
#: keywords by a heuristic, no case change.
STYLES = ("toLower", "toUpper", "keywordUpper", "keywordLower", "keywordAuto", "none")
#: ADT's case preserving formatter for identifiers, per language of the CDS family that has
#: one (discovery "DDL Case Preserving Formatter for Identifiers"; protocol in
#: docs/protocol/cds-rap-dictionary.md).
IDENTIFIER_FORMATTERS = {
    "DDLS": "/sap/bc/adt/ddic/ddl/formatter/identifiers",
    "DDLX": "/sap/bc/adt/ddic/ddlx/formatter/identifiers",
    "SRVD": "/sap/bc/adt/ddic/srvd/formatter/identifiers",
}


__all__ = [
    "IDENTIFIER_FORMATTERS",
    "STYLES",
    "FormattedText",
    "Formatting",
    "PrettyPrinterSettings",
]


@dataclass(frozen=True)
class PrettyPrinterSettings:
    """The user's pretty printer settings. ``keep_identifier`` is ``None`` when the system
    does not send it (it is new in the v5 document)."""

    indentation: bool
    style: str
    keep_identifier: bool | None = None


@dataclass(frozen=True)
class FormattedText:
    """The formatted source (canonical LF text) and whether it differs from what was sent."""

    text: str
    changed: bool


def _flag(root: etree._Element, name: str) -> bool | None:
    value = root.get(f"{{{NS_SETTINGS}}}{name}", root.get(name))
    if value is None:
        return None
    return value.strip().lower() == "true"


def parse_settings(body: bytes) -> PrettyPrinterSettings:
    """An ``abapformatter:PrettyPrinterSettings`` document (matched by namespace)."""
    root = parse_document(body, NS_SETTINGS, "PrettyPrinterSettings")
    style = root.get(f"{{{NS_SETTINGS}}}style", root.get("style"))
    if style is None:
        raise UnexpectedResponseError("PrettyPrinterSettings without a style")
    return PrettyPrinterSettings(
        indentation=bool(_flag(root, "indentation")),
        style=style,
        keep_identifier=_flag(root, "keepIdentifier"),
    )


def settings_request(settings: PrettyPrinterSettings) -> bytes:
    """The ``PUT`` body, in the shape the known clients send (prefix
    ``prettyprintersettings``; ``keepIdentifier`` only when set)."""
    prefix = "prettyprintersettings"
    root = etree.Element(f"{{{NS_SETTINGS}}}PrettyPrinterSettings", nsmap={prefix: NS_SETTINGS})
    root.set(f"{{{NS_SETTINGS}}}indentation", "true" if settings.indentation else "false")
    root.set(f"{{{NS_SETTINGS}}}style", settings.style)
    if settings.keep_identifier is not None:
        root.set(
            f"{{{NS_SETTINGS}}}keepIdentifier", "true" if settings.keep_identifier else "false"
        )
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


class Formatting(Area):
    """``client.formatting``: format text on the server and manage the user's settings."""

    async def pretty_print(self, text: str) -> FormattedText:
        """Format ``text`` with the user's settings. The server answers CRLF; the result is
        canonical. An empty answer (some systems send one for "no change") keeps ``text``."""
        response = await self._send(
            "POST",
            PRETTY_PRINTER,
            headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "text/plain"},
            content=to_wire(text).encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        original = to_canonical(text)
        if not response.content:
            return FormattedText(original, changed=False)
        formatted = to_canonical(response.content.decode(response.encoding or "utf-8"))
        return FormattedText(formatted, changed=formatted != original)

    async def cds_identifiers(self, text: str, kind: str = "DDLS") -> FormattedText:
        """``text`` of a CDS-family source (``kind``: ``DDLS``, ``DDLX`` or ``SRVD``) with
        the names of what CDS defines written as their definitions write them; nothing
        else changes (ADT lays DDL out on the client)."""
        path = IDENTIFIER_FORMATTERS.get(kind.split("/")[0].upper())
        if path is None:
            raise ValueError(f"ADT has no identifier formatter for {kind}")
        response = await self._send(
            "POST",
            path,
            headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "text/plain"},
            content=to_wire(text).encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        original = to_canonical(text)
        if not response.content:
            return FormattedText(original, changed=False)
        formatted = to_canonical(response.content.decode(response.encoding or "utf-8"))
        return FormattedText(formatted, changed=formatted != original)

    async def settings(self) -> PrettyPrinterSettings:
        """The user's pretty printer settings."""
        response = await self._send("GET", SETTINGS, headers={"Accept": SETTINGS_ACCEPT})
        return parse_settings(response.content)

    async def set_settings(
        self, indentation: bool, style: str, keep_identifier: bool | None = None
    ) -> None:
        """Store new settings for the user (``style`` is one of :data:`STYLES`)."""
        if style not in STYLES:
            raise ValueError(f"style must be one of {', '.join(STYLES)}, not {style!r}")
        body = settings_request(PrettyPrinterSettings(indentation, style, keep_identifier))
        await self._send("PUT", SETTINGS, headers={"Content-Type": "application/*"}, content=body)
