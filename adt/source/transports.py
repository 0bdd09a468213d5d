"""Which transport request a change needs, in this layer's words.

A write, a creation or a deletion in a transportable package without a request is refused by
the system with a bare "Parameter corrNr could not be found."; :func:`transport_required`
turns that into :class:`TransportRequired` naming the user's requests that fit, so the caller
can pick one (or create one) and retry without a second round of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adt.errors import AdtError
from adt.source.errors import TransportRequired

if TYPE_CHECKING:
    from adt.areas.transport_results import RequestHeader, TransportCheck
    from adt.client import AdtClient


@dataclass(frozen=True)
class RequestChoice:
    """A request a change can go into."""

    number: str
    description: str
    owner: str
    status: str = "D"

    @classmethod
    def from_header(cls, header: RequestHeader) -> RequestChoice:
        return cls(header.number, header.text, header.owner, header.status or "D")

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "description": self.description, "owner": self.owner}


def is_transport_refusal(exc: BaseException) -> bool:
    """Whether ``exc`` is the system's "this change needs a request" refusal."""
    from adt.areas.transports import TransportRequiredError, transport_error

    return isinstance(exc, AdtError) and isinstance(transport_error(exc), TransportRequiredError)


async def transport_check(
    client: AdtClient, object_url: str, package: str = ""
) -> TransportCheck | None:
    """The system's transport check for changing ``object_url`` (``None`` if it fails)."""
    try:
        return await client.transports.check(object_url, package)
    except AdtError:
        return None


async def transport_required(
    client: AdtClient, object_url: str, package: str = ""
) -> TransportRequired:
    """The refusal with the candidates the system's transport check lists."""
    check = await transport_check(client, object_url, package)
    candidates = [RequestChoice.from_header(h).to_dict() for h in check.requests] if check else []
    package = check.package if check else package
    where = f" {package}" if package else ""
    hint = (
        f"pass one of {', '.join(c['number'] for c in candidates)} as transport, or create one"
        if candidates
        else "create a request and pass it as transport"
    )
    return TransportRequired(
        f"the object is in the transportable package{where}: a change needs a transport "
        f"request; {hint}",
        package=package,
        candidates=candidates,
    )


__all__ = ["RequestChoice", "is_transport_refusal", "transport_check", "transport_required"]
