"""Type hierarchy (``textDocument/prepareTypeHierarchy``, ``typeHierarchy/supertypes``,
``typeHierarchy/subtypes``) over ADT's type hierarchy (lsp_server.features.hierarchy) and
call hierarchy (``textDocument/prepareCallHierarchy``, ``callHierarchy/incomingCalls``,
``callHierarchy/outgoingCalls``) over where-used and navigation (lsp_server.features.calls)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from lsprotocol import types

from adt.errors import AdtError
from lsp_server.features.calls import CallNode, Calls
from lsp_server.features.hierarchy import TypeNode
from lsp_server.handlers.requests import source_error
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints

Node = TypeVar("Node")
Item = TypeVar("Item")


async def _prepare(
    ls: AdtLanguageServer,
    uri: str,
    position: types.Position,
    find: Callable[[str, tuple[int, int]], Awaitable[Node | None]],
    item: Callable[[AdtLanguageServer, Node], Item],
) -> list[Item] | None:
    """The item under the cursor of an open document, for either hierarchy."""
    if uri not in ls.adt.documents:
        return None
    try:
        node = await find(uri, ls.point(uri, position))
    except AdtError as exc:
        raise source_error(exc) from exc
    return [item(ls, node)] if node is not None else None


def type_item(ls: AdtLanguageServer, node: TypeNode) -> types.TypeHierarchyItem:
    uri = node.uri
    span = ls.range(uri, (node.line, node.column), (node.line, node.column + len(node.name)))
    return types.TypeHierarchyItem(
        name=node.name,
        kind=types.SymbolKind.Interface if node.is_interface else types.SymbolKind.Class,
        uri=uri,
        range=span,
        selection_range=span,
        detail=" · ".join(part for part in (node.description, node.package) if part) or None,
        data=node.data(),
    )


async def _related(
    ls: AdtLanguageServer, item: types.TypeHierarchyItem, *, supertypes: bool
) -> list[types.TypeHierarchyItem]:
    try:
        found = await ls.adt.hierarchy.related(TypeNode.from_data(item.data), supertypes=supertypes)
    except AdtError as exc:
        raise source_error(exc) from exc
    return [type_item(ls, node) for node in found]


def call_item(ls: AdtLanguageServer, node: CallNode) -> types.CallHierarchyItem:
    uri = node.uri
    span = ls.range(uri, (node.line, node.column), (node.line, node.column + len(node.name)))
    kind = types.SymbolKind.Method if node.kind == "method" else types.SymbolKind.Function
    return types.CallHierarchyItem(
        name=node.name,
        kind=kind,
        uri=uri,
        range=span,
        selection_range=span,
        detail=node.source_url.split("/")[-3].upper() if node.source_url.count("/") > 3 else None,
        data=node.data(),
    )


def _ranges(ls: AdtLanguageServer, uri: str, calls: Calls) -> list[types.Range]:
    return [ls.range(uri, (line, start), (line, end)) for line, start, end in calls.spans]


def _register_calls(server: AdtLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)
    async def prepare_call_hierarchy(
        ls: AdtLanguageServer, params: types.CallHierarchyPrepareParams
    ) -> list[types.CallHierarchyItem] | None:
        return await _prepare(
            ls, params.text_document.uri, params.position, ls.adt.calls.prepare, call_item
        )

    @server.feature(types.CALL_HIERARCHY_INCOMING_CALLS)
    async def incoming_calls(
        ls: AdtLanguageServer, params: types.CallHierarchyIncomingCallsParams
    ) -> list[types.CallHierarchyIncomingCall]:
        try:
            found = await ls.adt.calls.incoming(CallNode.from_data(params.item.data))
        except AdtError as exc:
            raise source_error(exc) from exc
        return [
            types.CallHierarchyIncomingCall(
                from_=call_item(ls, c.node), from_ranges=_ranges(ls, c.node.uri, c)
            )
            for c in found
        ]

    @server.feature(types.CALL_HIERARCHY_OUTGOING_CALLS)
    async def outgoing_calls(
        ls: AdtLanguageServer, params: types.CallHierarchyOutgoingCallsParams
    ) -> list[types.CallHierarchyOutgoingCall]:
        try:
            item = CallNode.from_data(params.item.data)
            found = await ls.adt.calls.outgoing(item)
        except AdtError as exc:
            raise source_error(exc) from exc
        return [
            types.CallHierarchyOutgoingCall(
                to=call_item(ls, c.node), from_ranges=_ranges(ls, item.uri, c)
            )
            for c in found
        ]


def register(server: AdtLanguageServer) -> None:
    _register_calls(server)

    @server.feature(types.TEXT_DOCUMENT_PREPARE_TYPE_HIERARCHY)
    async def prepare_type_hierarchy(
        ls: AdtLanguageServer, params: types.TypeHierarchyPrepareParams
    ) -> list[types.TypeHierarchyItem] | None:
        return await _prepare(
            ls, params.text_document.uri, params.position, ls.adt.hierarchy.prepare, type_item
        )

    @server.feature(types.TYPE_HIERARCHY_SUPERTYPES)
    async def supertypes(
        ls: AdtLanguageServer, params: types.TypeHierarchySupertypesParams
    ) -> list[types.TypeHierarchyItem]:
        return await _related(ls, params.item, supertypes=True)

    @server.feature(types.TYPE_HIERARCHY_SUBTYPES)
    async def subtypes(
        ls: AdtLanguageServer, params: types.TypeHierarchySubtypesParams
    ) -> list[types.TypeHierarchyItem]:
        return await _related(ls, params.item, supertypes=False)
