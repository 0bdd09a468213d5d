"""Rename: ``textDocument/prepareRename`` and ``textDocument/rename`` over ADT's rename
refactoring, all or nothing.

The server builds the rename as a ``WorkspaceEdit`` whose every edit carries a change
annotation needing confirmation (one per object, listing its lines) and hands it to the
editor with ``workspace/applyEdit``: the editor shows it and applies it, or the user
declines. Only once the editor answers that it applied the edit does the server write the
sources (locked, token-checked, every one or none) and activate them; the request then
answers an empty ``WorkspaceEdit`` (the edit is applied already). A plan that cannot be
written (a colleague's change, a lock) is refused before the editor sees it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException

from adt.errors import AdtError
from lsp_server.buffer import index_to_units
from lsp_server.editor import Severity
from lsp_server.handlers.requests import source_error
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints

if TYPE_CHECKING:
    from adt.workbench.renaming import RenameOutcome
    from lsp_server.features.renaming import DocumentPlan, RenamePlan

#: JSON-RPC code of a rename the editor did not apply (LSP's RequestFailed).
NOT_APPLIED = -32803


def _position(
    ls: AdtLanguageServer, lines: Sequence[str], point: tuple[int, int]
) -> types.Position:
    line, index = point
    text = lines[line] if 0 <= line < len(lines) else ""
    return types.Position(line=line, character=index_to_units(text, index, ls.encoding))


def _annotation(plan: RenamePlan, doc: DocumentPlan) -> types.ChangeAnnotation:
    lines = ", ".join(str(n) for n in doc.saved_lines)
    return types.ChangeAnnotation(
        label=f"{doc.name}: {plan.old_name} → {plan.new_name} ({len(doc.edits)}×)",
        needs_confirmation=True,
        description=f"{doc.uri}, saved line{'s' if len(doc.saved_lines) > 1 else ''} {lines}",
    )


def workspace_edit(ls: AdtLanguageServer, plan: RenamePlan) -> types.WorkspaceEdit:
    """The plan as one edit: versioned document edits with a change annotation per
    document where the editor supports them, plain ``changes`` otherwise."""
    caps = ls.client_capabilities
    versioned = get_capability(caps, "workspace.workspace_edit.document_changes", False)
    annotated = get_capability(caps, "workspace.workspace_edit.change_annotation_support", None)
    if not versioned:
        return types.WorkspaceEdit(
            changes={
                d.uri: [
                    types.TextEdit(
                        range=types.Range(
                            start=_position(ls, d.lines, e.start), end=_position(ls, d.lines, e.end)
                        ),
                        new_text=e.text,
                    )
                    for e in d.edits
                ]
                for d in plan.documents
            }
        )
    changes: list[types.TextDocumentEdit] = []
    annotations: dict[str, types.ChangeAnnotation] = {}
    for doc in plan.documents:
        edits: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = []
        for e in doc.edits:
            span = types.Range(
                start=_position(ls, doc.lines, e.start), end=_position(ls, doc.lines, e.end)
            )
            if annotated is not None:
                edits.append(
                    types.AnnotatedTextEdit(range=span, new_text=e.text, annotation_id=doc.uri)
                )
            else:
                edits.append(types.TextEdit(range=span, new_text=e.text))
        annotations[doc.uri] = _annotation(plan, doc)
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        changes.append(types.TextDocumentEdit(text_document=identifier, edits=edits))
    return types.WorkspaceEdit(
        document_changes=changes, change_annotations=annotations if annotated is not None else None
    )


def _summary(plan: RenamePlan, outcome: RenameOutcome) -> tuple[Severity, str]:
    objects = ", ".join(plan.objects)
    said = f"Renamed {plan.old_name} to {plan.new_name}: {plan.places} place(s) in {objects}"
    if outcome.activation_failure is not None:
        return Severity.WARNING, f"{said}; saved, not activated: {outcome.activation_failure}"
    if outcome.activation is not None and not outcome.activation.success:
        return Severity.WARNING, f"{said}; saved, the activation reported errors (adt.activate)"
    return Severity.INFO, f"{said}; saved and activated"


def register(server: AdtLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(
        ls: AdtLanguageServer, params: types.PrepareRenameParams
    ) -> types.PrepareRenamePlaceholder | None:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return None
        try:
            found = await ls.adt.renaming.prepare(uri, ls.point(uri, params.position))
        except AdtError as exc:
            raise source_error(exc) from exc
        return types.PrepareRenamePlaceholder(
            range=ls.range(uri, found.start, found.end), placeholder=found.name
        )

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    async def rename(ls: AdtLanguageServer, params: types.RenameParams) -> types.WorkspaceEdit:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return types.WorkspaceEdit()
        if not get_capability(ls.client_capabilities, "workspace.apply_edit", False):
            raise JsonRpcException(
                message="this editor cannot apply server edits (workspace/applyEdit); "
                "nothing was renamed",
                code=NOT_APPLIED,
            )
        try:
            plan = await ls.adt.renaming.plan(uri, ls.point(uri, params.position), params.new_name)
        except AdtError as exc:
            raise source_error(exc) from exc
        applied = await ls.workspace_apply_edit_async(
            types.ApplyWorkspaceEditParams(
                edit=workspace_edit(ls, plan),
                label=f"Rename {plan.old_name} to {plan.new_name}",
            )
        )
        if not applied.applied:
            reason = applied.failure_reason or "declined"
            raise JsonRpcException(
                message=f"the editor did not apply the rename ({reason}); nothing was written",
                code=NOT_APPLIED,
            )
        try:
            outcome = await ls.adt.renaming.commit(plan)
        except AdtError as exc:
            raise source_error(exc) from exc
        ls.notify(*_summary(plan, outcome))
        return types.WorkspaceEdit()
