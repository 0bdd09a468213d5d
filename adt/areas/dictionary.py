"""``client.dictionary``: the metadata kinds (data elements, domains, message classes,
service bindings, table types) read as compact models and written whole, never over a
change someone else made in between: a write names the token of the document it edited,
and the document is read again under the lock before it is sent."""

from __future__ import annotations

import contextlib

from adt._xml import parse_document
from adt.areas.base import Area
from adt.areas.metadata_documents import (
    MetadataDocument,
    document_token,
    parse_metadata_document,
    with_message,
)
from adt.areas.transports import transport_error
from adt.errors import AdtError, StaleDocumentError
from adt.kinds import KINDS, ObjectKind
from adt.urls import object_url, validate_adt_path

ASX = "http://www.sap.com/abapxml"


def _metadata_kind(url: str) -> ObjectKind:
    kind = KINDS.for_url(url)
    if kind is None or kind.source_based:
        raise ValueError(
            f"{url} is not a metadata object (data element, domain, message class, service "
            "binding, table type); read its source instead"
        )
    return kind


class Dictionary(Area):
    """Metadata objects: read, token-checked whole-document writes, one message of a
    message class, publishing a service binding."""

    async def read(self, url: str, *, stateful: bool = False) -> MetadataDocument:
        """The object's document as a compact model (its ``token`` guards a later write)."""
        path = validate_adt_path(url)
        kind = _metadata_kind(path)
        response = await self._send(
            "GET", path, stateful=stateful, headers={"Accept": kind.media_type}
        )
        return parse_metadata_document(response.content, path)

    async def write(
        self, url: str, document: bytes, *, token: str, transport: str | None = None
    ) -> MetadataDocument:
        """Replace the object's document. Refused with :class:`StaleDocumentError` (nothing
        sent) if the server's document no longer has ``token``; the lock is released on
        every path. The object is inactive afterwards, like a saved source."""
        path = validate_adt_path(url)
        kind = _metadata_kind(path)
        lock = await self._client.lock(path)
        try:
            current = await self.read(path, stateful=True)
            if current.token != token:
                raise StaleDocumentError(path, token, current.token)
            params = {"lockHandle": lock.handle}
            corr_nr = transport or lock.corrnr
            if corr_nr:
                params["corrNr"] = corr_nr
            try:
                await self._send(
                    "PUT",
                    path,
                    stateful=True,
                    params=params,
                    headers={"Content-Type": kind.media_type},
                    content=document,
                )
            except AdtError as exc:
                raise transport_error(exc) from None
        finally:
            with contextlib.suppress(AdtError):
                await self._client.unlock(path, lock.handle)
        return await self.read(path)

    async def set_message(
        self,
        message_class: str,
        number: str,
        text: str,
        *,
        token: str,
        transport: str | None = None,
    ) -> MetadataDocument:
        """Add message ``number`` to a message class, or change its text."""
        url = (
            message_class if message_class.startswith("/") else object_url("MSAG/N", message_class)
        )
        current = await self.read(url)
        if current.token != token:
            raise StaleDocumentError(current.object_url, token, current.token)
        changed = with_message(current.raw, number, text)
        return await self.write(url, changed, token=token, transport=transport)

    async def publish(self, binding: str, *, publish: bool = True) -> tuple[bool, str]:
        """Publish (or unpublish) a service binding's local endpoint: ``(ok, message)``."""
        url = binding if binding.startswith("/") else object_url("SRVB/SVB", binding)
        document = await self.read(url)
        version = str(document.fields.get("bindingVersion") or "V2").lower()
        services = document.fields.get("services") or [{}]
        job = "publishjobs" if publish else "unpublishjobs"
        response = await self._send(
            "POST",
            f"/sap/bc/adt/businessservices/odata{version}/{job}",
            params={
                "servicename": document.name,
                "serviceversion": str(services[0].get("version") or "0001"),
            },
            headers={"Accept": "application/*", "Content-Type": "application/xml"},
            content=_publish_body(document.name),
        )
        data = parse_document(response.content, ASX, "abap").find(f"{{{ASX}}}values/DATA")
        severity = (data.findtext("SEVERITY") if data is not None else "") or ""
        text = (data.findtext("SHORT_TEXT") if data is not None else "") or ""
        return severity.strip().upper() in ("OK", "S", "I"), text.strip()


def _publish_body(name: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><adtcore:objectReferences '
        'xmlns:adtcore="http://www.sap.com/adt/core"><adtcore:objectReference '
        f'adtcore:type="SCGR" adtcore:name="{name}"/></adtcore:objectReferences>'
    ).encode()


__all__ = ["Dictionary", "document_token"]
