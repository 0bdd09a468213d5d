"""The edits of metadata objects that are not a patch of their document: one message of a
message class (added or its text changed, token-checked on the whole document) and
publishing or unpublishing a service binding's local endpoint."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adt.errors import StaleDocumentError
from adt.source.errors import InvalidArgument, SourceError, TokenMismatch, as_source_error
from adt.source.transports import is_transport_refusal, transport_required
from adt.urls import object_url as url_of

if TYPE_CHECKING:
    from adt.client import AdtClient


@dataclass(frozen=True)
class Published:
    """A publish or unpublish job's verdict, in the system's words."""

    object_url: str
    published: bool
    ok: bool
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "published": self.published,
            "ok": self.ok,
            "message": self.message,
        }


def _url(code: str, name_or_url: str) -> str:
    text = name_or_url.strip()
    if not text:
        raise InvalidArgument("name the object (its name or object URL)")
    return text if text.startswith("/") else url_of(code, text)


def message_number(number: str) -> str:
    """A message number as systems keep it, three digits (``7`` → ``007``)."""
    digits = number.strip()
    if not digits.isdigit() or len(digits) > 3:
        raise InvalidArgument(f"a message number is 000 to 999, not {number!r}", number=number)
    return digits.zfill(3)


def _refusal(exc: BaseException) -> SourceError:
    if isinstance(exc, StaleDocumentError):
        return TokenMismatch(str(exc), expected=exc.expected, current=exc.current)
    return as_source_error(exc)


class MetadataEdits:
    """One system's message-class and service-binding operations."""

    def __init__(self, client: AdtClient, *, forget: Callable[[str], None]) -> None:
        self._client = client
        self._forget = forget

    async def set_message(
        self,
        message_class: str,
        number: str,
        text: str,
        *,
        token: str,
        transport: str | None = None,
    ) -> dict[str, Any]:
        """Add message ``number`` or change its text; refused (nothing written) when the
        class changed since ``token`` was read, or (``TRANSPORT_REQUIRED`` naming the
        requests that fit) when its package needs a request and ``transport`` gives none.
        Answers the class's new facts and token."""
        if not text.strip():
            raise InvalidArgument("a message needs its text")
        if len(text) > 73:
            raise InvalidArgument(f"a message text has at most 73 characters, not {len(text)}")
        url = _url("MSAG/N", message_class)
        try:
            document = await self._client.dictionary.set_message(
                url, message_number(number), text, token=token, transport=transport
            )
        except Exception as exc:
            if is_transport_refusal(exc):
                raise await transport_required(self._client, url) from exc
            raise _refusal(exc) from exc
        finally:
            self._forget(url)
        return document.to_dict()

    async def publish(self, binding: str, *, publish: bool = True) -> Published:
        """Publish (or unpublish) a service binding's local service endpoint."""
        url = _url("SRVB/SVB", binding)
        try:
            ok, message = await self._client.dictionary.publish(url, publish=publish)
        except Exception as exc:
            raise as_source_error(exc) from exc
        return Published(url, publish, ok, message)


__all__ = ["MetadataEdits", "Published", "message_number"]
