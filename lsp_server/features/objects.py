"""Reading documents and finding objects: ``adt/readDocument``, the base of a document opened
without it, ``adt/openObject``, ``adt/objectStructure``, ``adt/searchObjects``,
``adt/packageContents``."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from adt.urls import object_type_for
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature
from lsp_server.results import DocumentRead, OpenObjectResult
from lsp_server.uris import make_uri, parse_uri

if TYPE_CHECKING:
    from adt.models import TreeNode
    from adt.source import SearchHit


class Objects(Feature):
    def document_opened(self, doc: OpenDocument) -> None:
        if not doc.base_ready.is_set():  # a restored editor tab: fetch its base
            self.ctx.tasks.spawn(self._fetch_base(doc), f"reading {doc.uri}")

    async def _fetch_base(self, doc: OpenDocument) -> None:
        read = await self.ctx.service_for(doc.ref).get_source_v2(
            doc.ref.object_url, include_type=doc.ref.include_type, fresh=True
        )
        if doc.base_token is None:
            doc.adopt_base(read.content, read.token)

    async def read_document(self, uri: str, *, fresh: bool = True) -> DocumentRead:
        """Text, token and metadata of a document, read from the server; the editor opens it
        next, and this read becomes its base."""
        ref = parse_uri(uri)
        service = self.ctx.service_for(ref)
        # who changed it last and whether it is inactive come from the metadata: fetched
        # alongside, never failing the read
        read, last = await asyncio.gather(
            service.get_source_v2(ref.object_url, include_type=ref.include_type, fresh=fresh),
            service.last_change(ref.object_url, ref.include_type),
        )
        self.ctx.documents.remember_read(uri, read, last.inactive)
        return DocumentRead(
            uri=uri,
            system=ref.system,
            text=read.content,
            token=read.token,
            line_count=read.line_count,
            changed_at=read.changed_at,
            changed_by=read.changed_by or last.changed_by,
            object_url=read.object_url,
            source_url=read.source_url,
            object_type=read.object_type,
            include_type=read.include_type,
            inactive=last.inactive,
        )

    async def open_object(
        self,
        name: str,
        *,
        object_type: str | None,
        system: str | None,
        include_type: str | None,
    ) -> OpenObjectResult:
        """Find an object by name and return the URI of its source (or the candidates)."""
        service = self.ctx.connections.service(system)
        hits = await service.search(name, max_results=20, object_type=object_type)
        exact = [h for h in hits if h.name.upper() == name.upper() and object_type_for(h.uri)]
        if not exact and "*" not in name:
            hits = await service.search(f"{name}*", max_results=20, object_type=object_type)
        if len(exact) != 1:
            message = (
                f"{len(exact)} source objects are named {name!r}"
                if exact
                else f"no source object is named {name!r}"
            )
            candidates = [_hit(service.system, h) for h in hits]
            return OpenObjectResult(False, message=message, candidates=candidates)
        hit = exact[0]
        return OpenObjectResult(
            True,
            uri=make_uri(service.system, hit.uri, include_type),
            name=hit.name,
            type=hit.type,
            object_url=hit.uri,
        )

    async def object_structure(self, object_url: str, system: str | None) -> dict[str, Any]:
        """The object's structure with the document URI of the object and of each include."""
        service = self.ctx.connections.service(system)
        structure = (await service.object_structure(object_url)).to_dict()
        for include in structure["includes"]:
            include["uri"] = make_uri(
                service.system, structure["objectUrl"], include["includeType"]
            )
        structure["uri"] = make_uri(service.system, structure["objectUrl"])
        return structure

    async def search(
        self, query: str, *, system: str | None, max_results: int, object_type: str | None
    ) -> list[dict[str, Any]]:
        """Objects by name; those with a source carry their ``documentUri``."""
        service = self.ctx.connections.service(system)
        hits = await service.search(query, max_results=max_results, object_type=object_type)
        return [_hit(service.system, hit) for hit in hits]

    async def package_contents(self, package: str, system: str | None) -> dict[str, Any]:
        """A package's direct children for a package tree: its sub-packages and its objects,
        each object with the ``documentUri`` of its source when it has one."""
        name = package.strip().upper()
        service = self.ctx.connections.service(system)
        tree = await service.client.package_contents(name)
        return {
            "package": name,
            "system": service.system,
            "packages": sorted(
                ({"name": n.name, "description": n.description} for n in tree.sub_packages),
                key=lambda p: p["name"],
            ),
            "objects": sorted(
                (_node(service.system, n) for n in tree.objects),
                key=lambda o: (o["type"], o["name"]),
            ),
        }


def _node(system: str, node: TreeNode) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": node.name,
        "type": node.object_type,
        "description": node.description,
        "uri": node.uri,
    }
    if object_type_for(node.uri):
        data["documentUri"] = make_uri(system, node.uri)
    return data


def _hit(system: str, hit: SearchHit) -> dict[str, Any]:
    data: dict[str, Any] = hit.to_dict()
    if object_type_for(hit.uri):
        data["documentUri"] = make_uri(system, hit.uri)
    return data
