"""Formatting and code actions: the pretty printer's edits on the buffer, ADT's quick
fixes, resolved lazily (an editor asks for code actions at every cursor move)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.capabilities import get_capability

from adt.errors import AdtError, FormattingNotOfferedError
from lsp_server.editor import Severity
from lsp_server.handlers.refactoring import extract_action
from lsp_server.handlers.requests import source_error
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints

if TYPE_CHECKING:
    from lsp_server.features.formatting import DocumentEdits

FORMAT_KIND = "source.format"
FORMAT_TITLE = "Format with the pretty printer (keyword case, indentation)"
FORMAT_LINES_TITLE = "Format the selected lines with the pretty printer"
_KINDS = [types.CodeActionKind.QuickFix, FORMAT_KIND, types.CodeActionKind.RefactorExtract]


def workspace_edit(ls: AdtLanguageServer, changes: Sequence[DocumentEdits]) -> types.WorkspaceEdit:
    """Edits per document; versioned (so an editor that moved on refuses them) when the
    client supports that."""
    versioned = get_capability(
        ls.client_capabilities, "workspace.workspace_edit.document_changes", False
    )
    if not versioned:
        return types.WorkspaceEdit(changes={c.uri: ls.text_edits(c.uri, c.edits) for c in changes})
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=c.uri, version=c.version
                ),
                edits=list(ls.text_edits(c.uri, c.edits)),
            )
            for c in changes
        ]
    )


def _lines(selection: types.Range) -> tuple[int, int]:
    """The lines a selection covers (a selection ending at the start of a line leaves that
    line out)."""
    last = selection.end.line
    if selection.end.character == 0 and last > selection.start.line:
        last -= 1
    return selection.start.line, last


def _is_abap(ls: AdtLanguageServer, uri: str) -> bool:
    """Extract method is ABAP's (not CDS, behavior or dictionary sources)."""
    doc = ls.adt.documents.get(uri)
    return doc is not None and doc.ref.language_id == "abap"


def _wanted(only: Sequence[str] | None, kind: str) -> bool:
    return not only or any(kind == o or kind.startswith(f"{o}.") for o in only)


def _ask_for_fixes(context: types.CodeActionContext) -> bool:
    """Quick fixes cost a request: evaluate them when the user asked (the light bulb menu,
    a shortcut) or where a problem is, not at every cursor move."""
    automatic = context.trigger_kind == types.CodeActionTriggerKind.Automatic
    return not automatic or bool(context.diagnostics)


def _resolves_edits(ls: AdtLanguageServer) -> bool:
    support = get_capability(
        ls.client_capabilities, "text_document.code_action.resolve_support", None
    )
    return support is not None and "edit" in (support.properties or [])


async def _resolve_edit(ls: AdtLanguageServer, data: dict[str, Any]) -> types.WorkspaceEdit | None:
    uri, action = str(data["uri"]), data.get("action")
    features = ls.adt.formatting
    if action == "format":
        return workspace_edit(ls, [await features.format(uri)])
    if action == "formatLines":
        first, last = data["lines"]
        return workspace_edit(ls, [await features.format(uri, (int(first), int(last)))])
    if action == "fix":
        changes = await features.fix_edits(uri, int(data["ticket"]), int(data["index"]))
        return None if changes is None else workspace_edit(ls, changes)
    return None


async def _code_actions(
    ls: AdtLanguageServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    uri = params.text_document.uri
    only = params.context.only
    actions: list[types.CodeAction] = []
    if _wanted(only, types.CodeActionKind.QuickFix) and _ask_for_fixes(params.context):
        offers = await ls.adt.formatting.fixes(uri, ls.point(uri, params.range.start))
        actions.extend(
            types.CodeAction(
                title=offer.title,
                kind=types.CodeActionKind.QuickFix,
                data={"uri": uri, "action": "fix", "ticket": offers.ticket, "index": offer.index},
            )
            for offer in offers.offers
        )
    if _wanted(only, FORMAT_KIND):
        actions.append(
            types.CodeAction(
                title=FORMAT_TITLE, kind=FORMAT_KIND, data={"uri": uri, "action": "format"}
            )
        )
        if params.range.start != params.range.end:
            actions.append(
                types.CodeAction(
                    title=FORMAT_LINES_TITLE,
                    kind=FORMAT_KIND,
                    data={"uri": uri, "action": "formatLines", "lines": list(_lines(params.range))},
                )
            )
    selected = params.range.start != params.range.end
    if selected and _wanted(only, types.CodeActionKind.RefactorExtract) and _is_abap(ls, uri):
        actions.append(extract_action(uri, params.range))
    return actions


async def _format(
    ls: AdtLanguageServer, uri: str, lines: tuple[int, int] | None
) -> list[types.TextEdit] | None:
    """The pretty printer's edits for a document (or some of its lines); none for others."""
    if uri not in ls.adt.documents:
        return None
    try:
        found = await ls.adt.formatting.format(uri, lines)
    except FormattingNotOfferedError as exc:
        ls.notify(Severity.INFO, str(exc))  # said, not silently nothing
        return None
    except AdtError as exc:
        raise source_error(exc) from exc
    return ls.text_edits(uri, found.edits)


def register(server: AdtLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    async def formatting(
        ls: AdtLanguageServer, params: types.DocumentFormattingParams
    ) -> list[types.TextEdit] | None:
        return await _format(ls, params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    async def range_formatting(
        ls: AdtLanguageServer, params: types.DocumentRangeFormattingParams
    ) -> list[types.TextEdit] | None:
        return await _format(ls, params.text_document.uri, _lines(params.range))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=_KINDS, resolve_provider=True),
    )
    async def code_action(
        ls: AdtLanguageServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        if params.text_document.uri not in ls.adt.documents:
            return None
        try:
            actions = await _code_actions(ls, params)
            if not _resolves_edits(ls):  # a client that cannot resolve gets the edits at once
                for action in actions:
                    if action.data:  # the others run a command
                        action.edit = await _resolve_edit(ls, dict(action.data))
        except AdtError as exc:
            raise source_error(exc) from exc
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve_code_action(
        ls: AdtLanguageServer, action: types.CodeAction
    ) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        if "uri" not in data or data["uri"] not in ls.adt.documents:
            return action
        try:
            action.edit = await _resolve_edit(ls, data)
        except AdtError as exc:
            raise source_error(exc) from exc
        return action
