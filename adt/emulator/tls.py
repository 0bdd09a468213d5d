"""Serving over TLS, and telling the application which client certificate a connection
presented (the ICM's job on a real system, which hands the certificate to the logon layer).

uvicorn verifies client certificates against a CA but does not put them into the ASGI scope;
the protocol below adds the verified subject as the ASGI TLS extension's
``client_cert_name``, per connection."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

Scope = MutableMapping[str, Any]
App = Callable[[Scope, Any, Any], Awaitable[None]]

#: Attribute names of a certificate subject as ``ssl`` reports them, and their short forms.
_SHORT = {
    "commonName": "CN",
    "organizationName": "O",
    "organizationalUnitName": "OU",
    "countryName": "C",
    "localityName": "L",
    "stateOrProvinceName": "ST",
    "emailAddress": "E",
}


@dataclass(frozen=True)
class ServerTls:
    """The emulator's server certificate and key (PEM), and whose client certificates it
    accepts: those issued by ``client_ca``; ``require_client_certificate`` refuses the
    handshake without one (otherwise a certificate is optional)."""

    certificate: Path
    key: Path
    client_ca: Path | None = None
    require_client_certificate: bool = False

    def uvicorn_options(self) -> dict[str, Any]:
        if self.client_ca is None:
            requirement = ssl.CERT_NONE
        elif self.require_client_certificate:
            requirement = ssl.CERT_REQUIRED
        else:
            requirement = ssl.CERT_OPTIONAL
        return {
            "ssl_certfile": str(self.certificate),
            "ssl_keyfile": str(self.key),
            "ssl_ca_certs": str(self.client_ca) if self.client_ca else None,
            "ssl_cert_reqs": requirement,
            "http": CertificateAwareProtocol,
        }


def subject_name(certificate: dict[str, Any]) -> str:
    """A verified peer certificate's subject as RFC 4514 writes it (``CN=…,O=…``)."""
    parts = []
    for rdn in reversed(certificate.get("subject", ())):
        for name, value in rdn:
            parts.append(f"{_SHORT.get(name, name)}={value}")
    return ",".join(parts)


class CertificateAwareProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, plus the client certificate's subject in the scope."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        ssl_object = transport.get_extra_info("ssl_object")
        certificate = ssl_object.getpeercert() if ssl_object is not None else None
        if certificate:
            self.app = _with_certificate(self.app, subject_name(certificate))


def _with_certificate(app: Any, name: str) -> App:
    async def with_certificate(scope: Scope, receive: Any, send: Any) -> None:
        extensions = dict(scope.get("extensions") or {})
        extensions["tls"] = {**extensions.get("tls", {}), "client_cert_name": name}
        scope["extensions"] = extensions
        await app(scope, receive, send)

    return with_certificate


def client_certificate_name(scope: Scope) -> str | None:
    """The verified client certificate's subject of a request, if its connection had one."""
    tls = (scope.get("extensions") or {}).get("tls") or {}
    name = tls.get("client_cert_name")
    return name if isinstance(name, str) else None


__all__ = ["CertificateAwareProtocol", "ServerTls", "client_certificate_name", "subject_name"]
