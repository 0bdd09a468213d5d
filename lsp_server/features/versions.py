"""Inactive versions and the version history of a document's source, for the editors'
"compare with" views (``adt/versions``, ``adt/readVersion``)."""

from __future__ import annotations

from typing import Any

from lsp_server.features import Feature
from lsp_server.uris import parse_uri


class Versions(Feature):
    async def versions(self, uri: str) -> dict[str, Any]:
        """Whether the source has an inactive version, and every version, newest first."""
        ref = parse_uri(uri)
        history = self.ctx.connections.workbench(ref.system).history
        entries = await history.versions(ref.source_url)
        revisions = []
        for entry in entries:
            revision = entry.to_dict()
            if not revision["transport"]:
                del revision["transport"]
            revisions.append(revision)
        return {
            "uri": uri,
            "inactive": any(entry.inactive for entry in entries),
            "revisions": revisions,
        }

    async def read_version(self, uri: str, version: str) -> dict[str, Any]:
        """The text of ``active``, ``inactive`` or a revision id of the source."""
        ref = parse_uri(uri)
        history = self.ctx.connections.workbench(ref.system).history
        label, text = await history.read(ref.source_url, version)
        return {"uri": uri, "version": version, "label": label, "text": text}


__all__ = ["Versions"]
