"""Code assistance on a text the caller holds (an editor's unsaved buffer, an agent's draft):
completion, element info, go to definition, the pretty printer and quick fixes.

Every call posts the caller's text, so answers match what the user sees, not what is stored.
Positions are 1-based lines and 0-based columns counted in characters (code points); each
face converts from its own encoding.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import unescape
from typing import TYPE_CHECKING, Any

from adt.areas.formatting import IDENTIFIER_FORMATTERS
from adt.errors import (
    AdtServerError,
    BadRequestError,
    FormattingNotOfferedError,
    NotFoundError,
    UnexpectedResponseError,
)
from adt.kinds import KINDS
from adt.workbench.sending import Sending

if TYPE_CHECKING:
    from adt.areas.fixes import FixEdits, FixProposal
    from adt.areas.navigation import ElementInfo
    from adt.areas.occurrences import Marker
    from adt.client import AdtClient
    from adt.workbench.printed import Job, PrintedPieces


@dataclass(frozen=True)
class Location:
    """A place in a source: where a symbol is declared or implemented."""

    object_url: str
    source_url: str
    line: int
    column: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "sourceUrl": self.source_url,
            "line": self.line,
            "column": self.column,
        }


@dataclass(frozen=True)
class CompletionItem:
    """One proposal; ``pattern_key`` asks :meth:`CodeAssist.insertion` for the full text
    (a call pattern) when ``has_insertion``."""

    label: str
    kind: str
    description: str
    prefix_length: int
    has_insertion: bool


@dataclass(frozen=True)
class Completions:
    items: tuple[CompletionItem, ...]
    complete: bool


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: str
    type: str
    optional: bool = False
    default: str = ""


@dataclass(frozen=True)
class SymbolInfo:
    """What an identifier is, for a hover: kind, name, short text and signature parts."""

    kind: str
    name: str
    description: str
    type: str = ""
    parameters: tuple[Parameter, ...] = ()
    properties: dict[str, str] = field(default_factory=dict)
    doc: str = ""  # the ABAP Doc comment as text, when it says more than ``description``

    def signature(self) -> str:
        """A one-line signature (``NAME( IMPORTING IV_A TYPE STRING RETURNING RV_B TYPE
        I )``), ``NAME TYPE T`` or the name."""
        if not self.parameters:
            return f"{self.name} {_typing(self.type)}" if self.type else self.name
        parts = [
            f"{p.kind} {p.name}" + (f" {_typing(p.type)}" if p.type else "")
            for p in self.parameters
        ]
        return f"{self.name}( {' '.join(parts)} )"


def _typing(type_name: str) -> str:
    """``TYPE STRING`` as the system writes it (``abapType`` carries the keyword), or
    ``TYPE`` added to a bare name."""
    head = type_name.split(" ", 1)[0].upper()
    return type_name if head in ("TYPE", "LIKE") else f"TYPE {type_name}"


def _symbol_info(info: ElementInfo) -> SymbolInfo:
    parameters = tuple(
        Parameter(
            p.name,
            p.properties.get("paramType", "").upper(),
            p.properties.get("abapType", ""),
            p.properties.get("optional") == "true",
            p.properties.get("paramDefaultValue", ""),
        )
        for p in info.parameters
    )
    kind = info.type
    type_name = info.properties.get("abapType", "")
    doc = abap_doc_text(info.documentation.get("abapdoc", ""))
    return SymbolInfo(
        kind,
        info.name,
        info.description,
        type_name,
        parameters,
        dict(info.properties),
        "" if doc == abap_doc_text(info.description) else doc,
    )


def abap_doc_text(html: str) -> str:
    """An ABAP Doc comment (ADT sends it as HTML) as plain text: tags dropped, paragraphs
    and line breaks kept as line breaks, entities decoded."""
    text = re.sub(r"(?i)<br\s*/?>|</p\s*>", "\n", html)
    text = re.sub(r"<[^>]+>", "", text)
    lines = [" ".join(line.split()) for line in unescape(text).split("\n")]
    return "\n".join(line for line in lines if line).strip()


class CodeAssist:
    """Completion, element info, definitions, formatting and quick fixes of one system."""

    def __init__(self, client: AdtClient) -> None:
        self._client = client

    async def completions(self, source_url: str, text: str, line: int, column: int) -> Completions:
        found = await self._client.completion.proposals(source_url, text, line, column)
        items = tuple(
            CompletionItem(
                p.identifier.lower() if p.kind.value != "keyword" else p.identifier,
                p.kind.value,
                p.description,
                p.prefix_length,
                p.wants_insertion,
            )
            for p in found
        )
        return Completions(items, found.complete)

    async def insertion(
        self, source_url: str, text: str, line: int, column: int, label: str
    ) -> str:
        """The text a chosen proposal inserts (a call pattern for a method)."""
        return await self._client.completion.insertion(
            source_url, text, line, column, label.upper()
        )

    async def symbol_info(
        self, source_url: str, text: str, line: int, column: int
    ) -> SymbolInfo | None:
        """What the identifier at the position is; ``None`` on a keyword, blank or comment."""
        info = await self._client.navigation.element_info(source_url, text, line, column)
        return _symbol_info(info) if info is not None else None

    async def definition(
        self,
        source_url: str,
        text: str,
        line: int,
        column: int,
        *,
        implementation: bool = False,
    ) -> Location | None:
        """Where the identifier at the position is declared (``implementation``:
        implemented); ``None`` when there is nothing to go to."""
        try:
            target = await self._client.navigation.definition(
                source_url, text, line, column, implementation=implementation
            )
        except (BadRequestError, NotFoundError):
            return None
        return Location(target.object_url, target.source_url, target.line, target.column)

    async def occurrences(self, source_url: str, text: str, line: int, column: int) -> list[Marker]:
        """Where the symbol at the position occurs in ``text`` (the editor's, saved or not),
        each a declaration, implementation, read or write; none is an empty list."""
        try:
            return await self._client.occurrences.markers(source_url, text, line, column)
        except (BadRequestError, NotFoundError):
            return []

    async def format(self, text: str, object_url: str | None = None) -> str:
        """The text as the system formats it: ABAP through the pretty printer (with the
        user's settings), a data definition, metadata extension or service definition
        through ADT's identifier formatter (names in their defined case; ADT lays DDL out
        on the client). Other kinds have no formatter: :class:`FormattingNotOfferedError`."""
        kind = KINDS.for_url(object_url) if object_url else None
        if kind is None or kind.language == "abap":
            return (await self._client.formatting.pretty_print(text)).text
        if kind.r3tr in IDENTIFIER_FORMATTERS:
            return (await self._client.formatting.cds_identifiers(text, kind.r3tr)).text
        raise FormattingNotOfferedError(kind.label)

    async def format_kept(
        self, lines: Sequence[str], object_url: str | None, kept: PrintedPieces
    ) -> list[str]:
        """``lines`` as :meth:`format` gives them, where ADT's pretty printer sees only the
        pieces that changed since ``kept`` was last completed (with a short context), so a
        keystroke in a long source costs a short request (:mod:`adt.workbench.printed`).
        The user's settings are read each time: other settings than last time, and
        ``keywordAuto`` (which weighs the case of the whole text), send the whole text."""
        kind = KINDS.for_url(object_url) if object_url else None
        if kind is not None and kind.language != "abap":
            return (await self.format("\n".join(lines), object_url)).split("\n")
        printer = self._client.formatting
        try:
            settings = await printer.settings()
        except (AdtServerError, UnexpectedResponseError):
            settings = None  # settings the system does not show: unknown, so all of it
        if settings is not None and settings.style != "keywordAuto":
            printed = await self._print_pieces(lines, settings, kept)
            if printed is not None:
                return printed
        kept.reset()
        return (await printer.pretty_print("\n".join(lines))).text.split("\n")

    async def _print_pieces(
        self, lines: Sequence[str], settings: object, kept: PrintedPieces
    ) -> list[str] | None:
        """The pieces the plan of ``lines`` sends, printed and joined (None: an answer lost
        a marker). The plan is made in a thread — a first plan cuts the whole text, about
        half a second at 100,000 lines, while the caller's other requests go on — a window
        at a time, whose jobs go to the system while the next window is cut."""
        from adt.workbench.printed import parts

        async def printed(job: Job) -> list[list[str]] | None:
            return parts(job, (await self._client.formatting.pretty_print(job.text)).text)

        planning = kept.planning(lines, settings)
        async with Sending(printed) as sending:
            while (jobs := await asyncio.to_thread(planning.step)) is not None:
                sending.check()  # the system refused a job: nothing more is sent
                sending.send(jobs)
            plan = planning.plan
            if plan is None:  # a loop closed across windows: the whole text's plan
                await sending.cancel()
                plan = await asyncio.to_thread(kept.plan, lines, settings)
                sending.send(plan.jobs)
            answers = await sending.answers()
        return kept.join(plan, answers)

    async def format_lines(self, text: str, start_line: int, end_line: int) -> str:
        """``text`` with only lines ``start_line``..``end_line`` (1-based, inclusive) taken
        from the pretty-printed whole: indentation depends on the enclosing blocks, so the
        printer always sees all of it. Unchanged when the printer moved lines around."""
        formatted = await self.format(text)
        before, after = text.split("\n"), formatted.split("\n")
        if len(before) != len(after):
            return text
        first, last = max(start_line, 1) - 1, min(end_line, len(before))
        return "\n".join(before[:first] + after[first:last] + before[last:])

    async def fixes(self, source_url: str, text: str, line: int, column: int) -> list[FixProposal]:
        """The quick fixes the system offers at a position."""
        return await self._client.fixes.evaluate(source_url, text, line, column)

    async def apply_fix(self, proposal: FixProposal, text: str) -> FixEdits:
        return await self._client.fixes.apply(proposal, text)


__all__ = ["CodeAssist", "CompletionItem", "Completions", "Location", "Parameter", "SymbolInfo"]
