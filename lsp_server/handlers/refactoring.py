"""Rename (``textDocument/prepareRename``, ``textDocument/rename``) and extract method (a
``refactor.extract`` code action running ``adt.extractMethod``) over ADT's refactorings, all
or nothing.

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
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from adt.errors import AdtError
from lsp_server import requests as rq
from lsp_server.buffer import index_to_units
from lsp_server.editor import Diagnostic, Severity
from lsp_server.features.object_renaming import moved_documents
from lsp_server.handlers.requests import source_error
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints
from lsp_server.uris import make_uri

Point = tuple[int, int]

if TYPE_CHECKING:
    from adt.workbench.object_renaming import ObjectMove
    from adt.workbench.renaming import RenameOutcome
    from lsp_server.features.renaming import DocumentPlan, RenamePlan

#: JSON-RPC code of a rename the editor did not apply (LSP's RequestFailed).
NOT_APPLIED = -32803
EXTRACT_TITLE = "Extract method"


def extract_action(uri: str, selection: types.Range) -> types.CodeAction:
    """The code action for a selection: no request until the user picks it."""
    return types.CodeAction(
        title=EXTRACT_TITLE,
        kind=types.CodeActionKind.RefactorExtract,
        command=types.Command(
            title=EXTRACT_TITLE,
            command=rq.EXTRACT_METHOD_COMMAND,
            arguments=[uri, {"start": _point(selection.start), "end": _point(selection.end)}],
        ),
    )


def _point(position: types.Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


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


def _summary(said: str, outcome: RenameOutcome) -> tuple[Severity, str]:
    if outcome.activation_failure is not None:
        return Severity.WARNING, f"{said}; saved, not activated: {outcome.activation_failure}"
    if outcome.activation is not None and not outcome.activation.success:
        return Severity.WARNING, f"{said}; saved, the activation reported errors (adt.activate)"
    return Severity.INFO, f"{said}; saved and activated"


def _require_apply_edit(ls: AdtLanguageServer, what: str) -> None:
    if not get_capability(ls.client_capabilities, "workspace.apply_edit", False):
        raise JsonRpcException(
            message=f"this editor cannot apply server edits (workspace/applyEdit); nothing "
            f"was {what}",
            code=NOT_APPLIED,
        )


async def _applied_by_editor(ls: AdtLanguageServer, plan: RenamePlan, label: str) -> None:
    """Hand the plan to the editor; raise unless it applied all of it (its buffers hold
    the planned texts)."""
    applied = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=workspace_edit(ls, plan), label=label)
    )
    if not applied.applied:
        reason = applied.failure_reason or "declined"
        raise JsonRpcException(
            message=f"the editor did not apply the edit ({reason}); nothing was written",
            code=NOT_APPLIED,
        )
    left_out = await ls.adt.renaming.unapplied(plan)
    if left_out:
        raise JsonRpcException(
            message=f"the editor applied only part of the edit in {', '.join(left_out)} "
            "(changes left out in the preview, or typed meanwhile), so nothing was written: "
            "your editor keeps what it applied; undo it, or save to write it as it is",
            code=NOT_APPLIED,
        )


async def _show_moved(ls: AdtLanguageServer, system: str, move: ObjectMove, uri: str) -> str:
    """The renamed object's documents: the old ones marked gone, the new ones shown
    (``window/showDocument``, which VS Code and Neovim open through their ``adt://``
    handlers; a RenameFile operation would reach VS Code's file system provider and
    Neovim's file system instead). The counterpart of ``uri`` (where the rename started)
    comes last and takes the focus. Answers what to add to the summary."""
    moved = sorted(moved_documents(ls.adt.documents, system, move), key=lambda m: m[0] == uri)
    gone = f"{move.old_name} was renamed to {move.new_name} and no longer exists: close this"
    for old_uri, _ in moved:
        ls.publish(old_uri, [Diagnostic((0, 0), (0, 0), Severity.WARNING, gone, "renamed")])
    if get_capability(ls.client_capabilities, "window.show_document.support", False):
        for old_uri, new_uri in moved:
            await ls.window_show_document_async(
                types.ShowDocumentParams(uri=new_uri, take_focus=old_uri == uri)
            )
    opened = ", ".join(new for _, new in moved) or make_uri(system, move.new_url)
    return f"; {move.old_name} is deleted, {move.new_name} is {opened}"


def _selection(ls: AdtLanguageServer, uri: str, spec: Any) -> tuple[Point, Point]:
    try:
        start = types.Position(
            line=int(spec["start"]["line"]), character=int(spec["start"]["character"])
        )
        end = types.Position(line=int(spec["end"]["line"]), character=int(spec["end"]["character"]))
    except (KeyError, TypeError, ValueError):
        raise JsonRpcInvalidParams(
            message="adt.extractMethod takes [uri, {start, end}, name?]"
        ) from None
    return ls.point(uri, start), ls.point(uri, end)


async def _extract(ls: AdtLanguageServer, uri: str, spec: Any, name: str) -> dict[str, Any]:
    if uri not in ls.adt.documents:
        raise JsonRpcInvalidParams(message=f"{uri} is not an open ABAP document")
    _require_apply_edit(ls, "extracted")
    start, end = _selection(ls, uri, spec)
    try:
        planned = await ls.adt.extracting.plan(uri, start, end, name)
    except AdtError as exc:
        raise source_error(exc) from exc
    plan = planned.plan
    await _applied_by_editor(ls, plan, f"Extract method {planned.method}")
    try:
        outcome = await ls.adt.renaming.commit(plan)
    except AdtError as exc:
        raise source_error(exc) from exc
    signature = planned.signature or "no parameters"
    objects = ", ".join(plan.objects)
    ls.notify(*_summary(f"Extracted method {planned.method} ({signature}) in {objects}", outcome))
    return {
        "method": planned.method,
        "signature": planned.signature,
        "objects": plan.objects,
        "activated": outcome.activation is not None and outcome.activation.success,
    }


def register(server: AdtLanguageServer) -> None:
    @server.command(rq.EXTRACT_METHOD_COMMAND)
    async def extract_method(
        ls: AdtLanguageServer, uri: str, selection: Any, *name: Any
    ) -> dict[str, Any]:
        """``[uri, {start, end}, name?]``: the selected statements become a method (ADT's
        proposed name when none is given), written and activated, or nothing is."""
        return await _extract(ls, uri, selection, str(name[0]) if name and name[0] else "")

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
        _require_apply_edit(ls, "renamed")
        try:
            plan = await ls.adt.renaming.plan(uri, ls.point(uri, params.position), params.new_name)
        except AdtError as exc:
            raise source_error(exc) from exc
        await _applied_by_editor(ls, plan, f"Rename {plan.old_name} to {plan.new_name}")
        try:
            outcome = await ls.adt.renaming.commit(plan)
        except AdtError as exc:
            raise source_error(exc) from exc
        objects = ", ".join(plan.objects)
        said = f"Renamed {plan.old_name} to {plan.new_name}: {plan.places} place(s) in {objects}"
        if plan.move is not None:
            said += await _show_moved(ls, plan.system, plan.move, uri)
        ls.notify(*_summary(said, outcome))
        return types.WorkspaceEdit()
