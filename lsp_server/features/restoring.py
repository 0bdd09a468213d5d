"""Restoring a document after a language-server restart (``adt/restoreDocument``).

An editor that reopens a buffer with unsaved edits in a fresh server sends ``didOpen`` with
the buffer's text and then the token of the version the buffer was read at. Without it the
new server would take the *current* server version as the base, and the save would turn a
colleague's change made meanwhile back into the editor's old lines. With it the base stays
the version the edits were made on: the save is checked against that token, a change in
between is the usual conflict, and a merge works from the base's text, which comes from the
editor (checked against the token's content hash), from this server's memory, or from the
server itself when nothing changed. When no one knows the base's text any more, the document
says so (``base_unknown``) and a merge marks every difference instead of guessing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from adt.source.errors import TokenInvalid
from adt.source.token import EMPTY_TOKEN, content_hash, is_valid_token, same_content, token_hash
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature
from lsp_server.results import RestoreResult, RestoreStatus

if TYPE_CHECKING:
    from adt.source import SourceRead

log = logging.getLogger("lsp_server.restoring")


def text_matches(text: str, token: str) -> bool:
    """Whether ``text`` is the content version ``token`` names (its hash is in the token)."""
    if token == EMPTY_TOKEN:
        return text == ""
    return token_hash(token) == content_hash(text)


class Restoring(Feature):
    async def restore(self, uri: str, base_token: str, base_text: str | None) -> RestoreResult:
        """Make ``base_token`` the base of the open document ``uri`` again and say whether
        the server's version is still that one."""
        if not is_valid_token(base_token):
            raise TokenInvalid(
                f"malformed base token {base_token!r}; pass the token of the version the "
                "buffer was read at",
                token=base_token,
            )
        doc = self.ctx.documents.require(uri)
        async with doc.save_lock:  # a save sent right behind this request waits for it
            try:
                result = await self._restore(doc, base_token, base_text)
            except Exception as exc:
                doc.restore_failed = str(exc)
                raise
            doc.restore_failed = None
            return result

    async def _restore(
        self, doc: OpenDocument, base_token: str, base_text: str | None
    ) -> RestoreResult:
        service = self.ctx.service_for(doc.ref)
        current = await service.get_source_v2(
            doc.ref.object_url, include_type=doc.ref.include_type, fresh=True
        )
        last = await service.last_change(doc.ref.object_url, doc.ref.include_type)
        doc.inactive = last.inactive
        if same_content(current.token, base_token):
            status = RestoreStatus.CURRENT
            doc.adopt_base(current.content, current.token)
        else:
            status = self._rebase_behind(doc, base_token, base_text, current)
        log.info("%s restored at %s: %s", doc.uri, base_token, status)
        return RestoreResult(
            doc.uri,
            status,
            current.token,
            current.changed_by or last.changed_by,
            current.changed_at,
        )

    def _rebase_behind(
        self, doc: OpenDocument, base_token: str, base_text: str | None, current: SourceRead
    ) -> RestoreStatus:
        """The server moved on since ``base_token``: base the document on that version, with
        its text when anyone knows it."""
        if base_text is not None and not text_matches(base_text, base_token):
            log.warning("%s: the base text sent does not match its token; ignored", doc.uri)
            base_text = None
        if base_text is None:
            base_text = self.ctx.documents.known_base(base_token)
        status = RestoreStatus.BASE_UNKNOWN if base_text is None else RestoreStatus.CHANGED
        if doc.buffer.text == current.content:
            # the buffer already shows the server's version: nothing to save, nothing lost
            doc.adopt_base(current.content, current.token)
            return status
        if base_text is None:
            # The server's text stands in for the lost base: the save's token check still
            # refuses it (a conflict), and a merge marks every difference (Conflicts).
            doc.adopt_base(current.content, base_token)
            doc.base_unknown = True
            doc.behind = True
            return RestoreStatus.BASE_UNKNOWN
        doc.adopt_base(base_text, base_token)
        doc.behind = True
        return RestoreStatus.CHANGED
