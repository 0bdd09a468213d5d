"""Completion, hover, definition, references: the code intelligence requests, in the
client's position encoding, on the editor's buffer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.capabilities import get_capability

from adt.errors import AdtError
from lsp_server.handlers.requests import source_error
from lsp_server.progress import Progress
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints

if TYPE_CHECKING:
    from adt.workbench import SymbolInfo
    from lsp_server.features.intelligence import Proposal, ProposalDetails, Signature, Target

TRIGGERS = [">", "~"]  # after -> => and ~ the system proposes components
_KINDS = {
    "keyword": types.CompletionItemKind.Keyword,
    "method": types.CompletionItemKind.Method,
    "parameter": types.CompletionItemKind.Variable,
    "class": types.CompletionItemKind.Class,
    "interface": types.CompletionItemKind.Interface,
    "type": types.CompletionItemKind.Struct,
    "data": types.CompletionItemKind.Variable,
}


#: What an element is, by the part of its ADT type after the slash (``CLAS/OM``).
_ELEMENTS = {
    "OC": "class",
    "OI": "interface",
    "OM": "method",
    "IO": "method",
    "OA": "attribute",
    "IA": "attribute",
    "OT": "type",
    "IT": "type",
    "OOV": "local variable",
    "OOP": "parameter",
    "IOP": "parameter",
    "FF": "function module",
    "P": "program",
    "I": "include",
}


def element_kind(adt_type: str) -> str:
    """``CLAS/OM`` → ``method``; an unknown type as it is."""
    return _ELEMENTS.get(adt_type.partition("/")[2], adt_type)


def symbol_markdown(info: SymbolInfo) -> str:
    """A hover: kind and name, the signature as ABAP, the short text (a repository object's
    description), the ABAP Doc comment when it says more."""
    kind = element_kind(info.kind)
    parts = [f"**{kind}** `{info.name}`" if kind else f"`{info.name}`"]
    signature = info.signature()
    if signature != info.name:
        parts.append(f"```abap\n{signature}\n```")
    if info.description:
        parts.append(info.description)
    if info.doc:
        parts.append("\n".join(f"> {line}" for line in info.doc.split("\n")))
    return "\n\n".join(parts)


def _item(
    ls: AdtLanguageServer, uri: str, ticket: int, rank: int, p: Proposal
) -> types.CompletionItem:
    return types.CompletionItem(
        label=p.label,
        kind=_KINDS.get(p.kind, types.CompletionItemKind.Text),
        detail=p.description,
        sort_text=f"{rank:04d}",
        filter_text=p.label,
        text_edit=types.TextEdit(range=ls.range(uri, p.start, p.end), new_text=p.label),
        data={"uri": uri, "ticket": ticket, "label": p.label, "insertion": p.has_insertion},
    )


def _resolvable(ls: AdtLanguageServer, name: str) -> bool:
    properties = get_capability(
        ls.client_capabilities, "text_document.completion.completion_item.resolve_support", None
    )
    return properties is not None and name in (properties.properties or [])


def _with_details(
    ls: AdtLanguageServer, item: types.CompletionItem, details: ProposalDetails
) -> types.CompletionItem:
    parts = [symbol_markdown(details.info)] if details.info is not None else []
    if details.insertion != item.label:
        edit = item.text_edit
        if isinstance(edit, types.TextEdit) and _resolvable(ls, "textEdit"):
            edit.new_text = details.insertion
            item.insert_text_mode = types.InsertTextMode.AdjustIndentation
        else:
            parts.append(f"Call pattern:\n```abap\n{details.insertion}\n```")
    if parts:
        item.documentation = types.MarkupContent(
            kind=types.MarkupKind.Markdown, value="\n\n".join(parts)
        )
    return item


def _parameter(kind: str, name: str, typing: str, optional: bool, default: str) -> tuple[str, str]:
    """A parameter's label (``IV_A TYPE I``) and its documentation (kind, optional,
    default)."""
    head = typing.split(" ", 1)[0].upper()
    label = f"{name} {typing if head in ('TYPE', 'LIKE') else f'TYPE {typing}'}" if typing else name
    notes = [kind.lower() or "parameter"]
    if optional or default:
        notes.append("optional")
    if default:
        notes.append(f"default {default}")
    return label, ", ".join(notes)


def signature_help(found: Signature) -> types.SignatureHelp:
    """One signature: ``NAME( IMPORTING IV_A TYPE I … )`` with a label per parameter; the
    active one is the parameter named last before the cursor, else the first importing
    one (a call with one unnamed argument passes that)."""
    info = found.info
    parameters, parts = [], []
    for p in info.parameters:
        label, notes = _parameter(p.kind, p.name, p.type, p.optional, p.default)
        parts.append(f"{p.kind} {label}" if p.kind else label)
        parameters.append(types.ParameterInformation(label=label, documentation=notes))
    names = [p.name.upper() for p in info.parameters]
    kinds = [p.kind.upper() for p in info.parameters]
    if found.current is not None and found.current in names:
        active = names.index(found.current)
    else:
        active = kinds.index("IMPORTING") if "IMPORTING" in kinds else 0
    signature = types.SignatureInformation(
        label=f"{info.name}( {' '.join(parts)} )",
        documentation=info.description or None,
        parameters=parameters,
        active_parameter=active,
    )
    return types.SignatureHelp(signatures=[signature], active_signature=0, active_parameter=active)


#: ADT's occurrence kinds as LSP highlight kinds (a declaration is neither read nor write).
_HIGHLIGHTS = {
    "write": types.DocumentHighlightKind.Write,
    "read": types.DocumentHighlightKind.Read,
}


def _location(ls: AdtLanguageServer, target: Target) -> types.Location:
    start = ls.position(target.uri, (target.line, target.column))
    end_column = target.end_column if target.end_column is not None else target.column
    end = ls.position(target.uri, (target.line, end_column))
    return types.Location(uri=target.uri, range=types.Range(start=start, end=end))


def register(server: AdtLanguageServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=TRIGGERS, resolve_provider=True),
    )
    async def completion(
        ls: AdtLanguageServer, params: types.CompletionParams
    ) -> types.CompletionList | None:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return None
        point = ls.point(uri, params.position)
        try:
            found = await ls.adt.intelligence.complete(uri, point)
        except AdtError as exc:
            raise source_error(exc) from exc
        items = [_item(ls, uri, found.ticket, i, p) for i, p in enumerate(found.proposals)]
        return types.CompletionList(is_incomplete=not found.complete, items=items)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    async def resolve_completion(
        ls: AdtLanguageServer, item: types.CompletionItem
    ) -> types.CompletionItem:
        data = item.data if isinstance(item.data, dict) else {}
        if not {"uri", "ticket", "label"} <= set(data):
            return item
        try:
            details = await ls.adt.intelligence.proposal_details(
                str(data["uri"]), int(data["ticket"]), str(data["label"]), bool(data["insertion"])
            )
        except AdtError:
            return item  # the documentation is a bonus: the proposal stays usable without
        return item if details is None else _with_details(ls, item, details)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: AdtLanguageServer, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return None
        try:
            found = await ls.adt.intelligence.describe(uri, ls.point(uri, params.position))
        except AdtError as exc:
            raise source_error(exc) from exc
        if found is None:
            return None
        return types.Hover(
            contents=types.MarkupContent(
                kind=types.MarkupKind.Markdown, value=symbol_markdown(found.info)
            ),
            range=ls.range(uri, found.start, found.end),
        )

    async def go_to(
        ls: AdtLanguageServer,
        document: types.TextDocumentIdentifier,
        position: types.Position,
        implementation: bool,
    ) -> list[types.Location]:
        uri = document.uri
        if uri not in ls.adt.documents:
            return []
        point = ls.point(uri, position)
        try:
            target = await ls.adt.intelligence.definition(uri, point, implementation=implementation)
        except AdtError as exc:
            raise source_error(exc) from exc
        return [] if target is None else [_location(ls, target)]

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(
        ls: AdtLanguageServer, params: types.DefinitionParams
    ) -> list[types.Location]:
        return await go_to(ls, params.text_document, params.position, False)

    @server.feature(types.TEXT_DOCUMENT_IMPLEMENTATION)
    async def implementation(
        ls: AdtLanguageServer, params: types.ImplementationParams
    ) -> list[types.Location]:
        return await go_to(ls, params.text_document, params.position, True)

    @server.feature(
        types.TEXT_DOCUMENT_SIGNATURE_HELP,
        types.SignatureHelpOptions(trigger_characters=["("], retrigger_characters=[" ", "="]),
    )
    async def signature(
        ls: AdtLanguageServer, params: types.SignatureHelpParams
    ) -> types.SignatureHelp | None:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return None
        try:
            found = await ls.adt.intelligence.signature(uri, ls.point(uri, params.position))
        except AdtError as exc:
            raise source_error(exc) from exc
        return signature_help(found) if found is not None else None

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def highlight(
        ls: AdtLanguageServer, params: types.DocumentHighlightParams
    ) -> list[types.DocumentHighlight]:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return []
        try:
            found = await ls.adt.intelligence.highlights(uri, ls.point(uri, params.position))
        except AdtError as exc:
            raise source_error(exc) from exc
        return [
            types.DocumentHighlight(
                range=ls.range(uri, (line, start), (line, end)),
                kind=_HIGHLIGHTS.get(kind, types.DocumentHighlightKind.Text),
            )
            for line, start, end, kind in found
        ]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES, types.ReferenceOptions(work_done_progress=True))
    async def references(
        ls: AdtLanguageServer, params: types.ReferenceParams
    ) -> list[types.Location]:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return []
        progress = await Progress.begin(ls, "Where-used", params.work_done_token)
        try:
            targets = await ls.adt.intelligence.references(uri, ls.point(uri, params.position))
        except AdtError as exc:
            progress.end("failed")
            raise source_error(exc) from exc
        progress.end(f"{len(targets)} found")
        return [_location(ls, t) for t in targets]
