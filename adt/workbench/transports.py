"""Transport requests as a developer meets them: does this change need one, which of mine
fit, which one is the object already on, and a new one when none fits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adt.source.errors import InvalidArgument
from adt.source.transports import RequestChoice, transport_check

if TYPE_CHECKING:
    from adt.areas.transport_results import TransportRequest
    from adt.client import AdtClient


@dataclass(frozen=True)
class TransportNeed:
    """What changing one object takes. ``locked_in``: the request the object is already
    on (changes must use it); ``candidates``: the modifiable requests that fit."""

    object_url: str
    package: str
    local: bool
    required: bool
    locked_in: str
    candidates: tuple[RequestChoice, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "package": self.package,
            "local": self.local,
            "required": self.required,
            "lockedIn": self.locked_in,
            "candidates": [c.to_dict() for c in self.candidates],
        }


@dataclass(frozen=True)
class OpenRequest:
    """One of the user's modifiable requests, with the objects it records."""

    number: str
    description: str
    owner: str
    objects: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "description": self.description,
            "owner": self.owner,
            "objects": list(self.objects),
        }


def _open_request(request: TransportRequest) -> OpenRequest:
    objects = tuple(f"{o.type} {o.name}" for o in request.all_objects)
    return OpenRequest(request.number, request.description, request.owner, objects)


class Transports:
    """The transport side of the development loop, for one system."""

    def __init__(self, client: AdtClient) -> None:
        self._client = client

    async def need(self, object_url: str, package: str = "") -> TransportNeed:
        """What a change of ``object_url`` (or a new object there, in ``package``) needs."""
        check = await transport_check(self._client, object_url, package)
        if check is None:  # the check itself failed: ask again without hiding the error
            check = await self._client.transports.check(object_url, package)
        return TransportNeed(
            object_url,
            check.package,
            check.is_local,
            check.needs_request,
            check.locked_in,
            tuple(RequestChoice.from_header(h) for h in check.requests),
        )

    async def open_requests(self, user: str | None = None) -> tuple[OpenRequest, ...]:
        """The user's modifiable workbench requests."""
        requests = await self._client.transports.user_requests(user)
        return tuple(_open_request(r) for r in requests.modifiable)

    async def create(self, description: str, package: str, object_url: str = "") -> str:
        """A new workbench request of the user; returns its number."""
        if not description.strip():
            raise InvalidArgument("a transport request needs a description")
        if len(description) > 60:
            raise InvalidArgument(
                f"a request description has at most 60 characters ({len(description)} given)"
            )
        return await self._client.transports.create(description, package, object_url=object_url)


__all__ = ["OpenRequest", "TransportNeed", "Transports"]
