"""Commands on metadata objects the editor shows as their XML document: add or change one
message of a message class, publish or unpublish a service binding.

A message is changed only on the version the editor shows: an open document with unsaved
edits is refused (saving them is the user's first step, nothing is lost), and one whose base
is no longer the server's is refused as a token mismatch (the class changed since it was
opened). The new document is then moved into the editor as its base. A class in a
transportable package asks the transport question of a save (:mod:`.transports`): the
request chosen earlier for it, ``defaultTransport``, or the user's choice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adt.source.errors import InvalidArgument, TokenMismatch, TransportInvalid, TransportRequired
from lsp_server.context import WorkspaceContext
from lsp_server.features import Feature
from lsp_server.features.transports import TransportChoices, not_chosen
from lsp_server.uris import parse_uri

if TYPE_CHECKING:
    from adt.workbench import Workbench
    from lsp_server.uris import DocumentRef


def _kind_of(ref: DocumentRef, code: str, what: str) -> None:
    from adt.kinds import KINDS

    kind = KINDS.for_url(ref.object_url)
    if kind is None or kind.code != code:
        raise InvalidArgument(f"{ref.object_name} is not a {what}", uri=ref.uri)


class MetadataCommands(Feature):
    def __init__(self, ctx: WorkspaceContext, transports: TransportChoices) -> None:
        super().__init__(ctx)
        self._transports = transports

    async def set_message(self, uri: str, number: str, text: str) -> dict[str, Any]:
        """Add message ``number`` to the message class ``uri`` names, or change its text."""
        ref = parse_uri(uri)
        _kind_of(ref, "MSAG/N", "message class")
        doc = self.ctx.documents.get(uri)
        if doc is not None and doc.dirty:
            raise InvalidArgument(
                f"{ref.object_name} has unsaved changes in the editor; save or undo them, "
                "then change the message",
                uri=uri,
            )
        service = self.ctx.service_for(ref)
        shown = await service.get_source_v2(ref.object_url, fresh=True)
        if doc is not None and doc.base_token not in (None, shown.token):
            raise TokenMismatch(
                f"{ref.object_name} changed on the server since the editor opened it; "
                "reload it, then change the message",
                uri=uri,
            )
        workbench = self.ctx.connections.workbench(ref.system)
        current = await service.client.dictionary.read(ref.object_url)
        result = await self._in_request(workbench, ref, number, text, current.token)
        if doc is not None:
            after = await service.get_source_v2(ref.object_url, fresh=True)
            await self.ctx.documents.move_editor_to(
                doc, after.content, after.token, f"Message {number} of {ref.object_name}"
            )
        return result

    async def _in_request(
        self, workbench: Workbench, ref: DocumentRef, number: str, text: str, token: str
    ) -> dict[str, Any]:
        """The change on the class's request: the one known for it, else the user's choice
        when the system asks for one (then written once more, still against ``token``)."""
        tried = self._transports.remembered(ref.system, ref.object_url)
        try:
            result = await workbench.metadata.set_message(
                ref.object_url, number, text, token=token, transport=tried
            )
        except (TransportRequired, TransportInvalid) as refusal:
            chosen = await self._transports.choose_after(ref.system, ref.object_url, refusal, tried)
            if chosen is None:
                again = "Change the message again"
                raise not_chosen(ref.object_name, refusal, again=again) from refusal
            result = await workbench.metadata.set_message(
                ref.object_url, number, text, token=token, transport=chosen
            )
            tried = chosen
        return {**result, "transport": tried} if tried else result

    async def publish(self, uri: str, publish: bool) -> dict[str, Any]:
        """Publish (``publish``) or unpublish the service binding ``uri`` names."""
        ref = parse_uri(uri)
        _kind_of(ref, "SRVB/SVB", "service binding")
        workbench = self.ctx.connections.workbench(ref.system)
        outcome = await workbench.metadata.publish(ref.object_url, publish=publish)
        return outcome.to_dict()


__all__ = ["MetadataCommands"]
