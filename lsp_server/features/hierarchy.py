"""Type hierarchy: the class or interface at the cursor, its super types (super class,
implemented interfaces) and its sub types (subclasses, implementing classes, extending
interfaces), from ADT's type hierarchy (``abapsource/typehierarchy``) over the buffer.

An item carries the source it is declared in and where, so that asking for its super or
sub types again posts that source (the open buffer's text, else the saved one). ADT
answers the whole tree below (or above) the type, each entry naming the object it hangs
from; one level is what LSP asks for, so only the entries hanging from the item are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from lsp_server.features import Feature
from lsp_server.features.nodes import SourceNode
from lsp_server.uris import make_uri

if TYPE_CHECKING:
    from adt.areas.structure import HierarchyEntry

Point = tuple[int, int]
_SOURCE = "/source/main"

__all__ = ["TypeHierarchy", "TypeNode"]


@dataclass(frozen=True)
class TypeNode(SourceNode):
    """A class or interface: what it is, its description and package."""

    what: ClassVar[str] = "type hierarchy"

    type: str = ""
    description: str = ""
    package: str = ""

    @property
    def object_url(self) -> str:
        url = self.source_url
        return url[: -len(_SOURCE)] if url.endswith(_SOURCE) else url

    @property
    def is_interface(self) -> bool:
        return self.type.upper().startswith("INTF")


class TypeHierarchy(Feature):
    async def prepare(self, uri: str, point: Point) -> TypeNode | None:
        """The class or interface at (or around) ``point`` of the buffer."""
        doc = self.ctx.documents.require(uri)
        line, column = point
        entries = await self._ask(
            doc.ref.system, doc.ref.source_url, doc.buffer.text, line, column, True
        )
        return self._node(doc.ref.system, entries[0], saved=False) if entries else None

    async def related(self, item: TypeNode, *, supertypes: bool) -> list[TypeNode]:
        """The types directly above (``supertypes``) or below ``item``."""
        doc = self.ctx.documents.get(item.uri)
        if doc is not None:
            text = doc.buffer.text
        else:
            read = await self.ctx.connections.service(item.system).get_source_v2(
                object_source_url=item.source_url
            )
            text = read.content
        entries = await self._ask(
            item.system, item.source_url, text, item.line, item.column, supertypes
        )
        return [
            self._node(item.system, e, saved=True)
            for e in entries[1:]
            if e.parent_uri.rstrip("/") == item.object_url
        ]

    async def _ask(
        self, system: str, source_url: str, text: str, line: int, column: int, supertypes: bool
    ) -> tuple[HierarchyEntry, ...]:
        structure = self.ctx.connections.workbench(system).source.client.structure
        return await structure.type_hierarchy(
            source_url, text, line + 1, column, super_types=supertypes
        )

    def _node(self, system: str, entry: HierarchyEntry, *, saved: bool) -> TypeNode:
        line = max(entry.line - 1, 0)
        doc = self.ctx.documents.get(make_uri(system, entry.uri)) if saved else None
        if doc is not None:
            moved = doc.buffer.line_of_base(line)
            line = moved if moved is not None else line
        return TypeNode(
            system,
            entry.uri,
            line,
            entry.column,
            entry.name,
            entry.type,
            entry.description,
            entry.package,
        )
