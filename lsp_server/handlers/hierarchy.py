"""Type hierarchy: ``textDocument/prepareTypeHierarchy``, ``typeHierarchy/supertypes`` and
``typeHierarchy/subtypes`` over ADT's type hierarchy (lsp_server.features.hierarchy)."""

from __future__ import annotations

from lsprotocol import types

from adt.errors import AdtError
from lsp_server.features.hierarchy import TypeNode
from lsp_server.handlers.requests import source_error
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints


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


def register(server: AdtLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_PREPARE_TYPE_HIERARCHY)
    async def prepare_type_hierarchy(
        ls: AdtLanguageServer, params: types.TypeHierarchyPrepareParams
    ) -> list[types.TypeHierarchyItem] | None:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return None
        try:
            node = await ls.adt.hierarchy.prepare(uri, ls.point(uri, params.position))
        except AdtError as exc:
            raise source_error(exc) from exc
        return [type_item(ls, node)] if node is not None else None

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
