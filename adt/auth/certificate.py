"""X.509 client certificates (mutual TLS): no password at all; the system maps the
certificate's subject to the SAP user.

The certificate is checked before the first connection (files there, key matching, passphrase
right, within its validity), so a mistake is reported with the file and the check, not as a
broken connection. What only the server can tell (it does not trust our issuer, it wants a
certificate) is read from the TLS alert it sends."""

from __future__ import annotations

import contextlib
import os
import secrets
import ssl
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from adt.auth.base import Authenticator, server_trust
from adt.errors import AuthenticationError, ConfigurationError
from adt.logon import CertificateLogon
from adt.profile import ConnectionProfile

Clock = Callable[[], datetime]

#: TLS alerts a server sends about our certificate, and what they mean to the user.
ALERTS: tuple[tuple[str, str], ...] = (
    ("CERTIFICATE_REQUIRED", "the system asked for a client certificate and got none"),
    ("UNKNOWN_CA", "the system does not trust the certificate's issuer (its CA)"),
    ("CERTIFICATE_EXPIRED", "the system says the certificate has expired"),
    ("CERTIFICATE_REVOKED", "the system says the certificate was revoked"),
    ("BAD_CERTIFICATE", "the system refused the certificate"),
    ("CERTIFICATE_UNKNOWN", "the system refused the certificate"),
    ("ACCESS_DENIED", "the system refused the certificate's subject"),
)


def _crypto() -> Any:
    """The ``cryptography`` package, or None: the local checks and PKCS#12 need it."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.serialization import pkcs12
    except ImportError:
        return None
    return (x509, serialization, pkcs12)


@dataclass(frozen=True)
class _Loaded:
    """The context with our certificate, and the certificate's validity for the checks."""

    context: ssl.SSLContext
    not_before: datetime | None
    not_after: datetime | None


class CertificateAuthenticator(Authenticator):
    """Presents the configured certificate in every TLS handshake."""

    def __init__(self, profile: ConnectionProfile, *, clock: Clock | None = None) -> None:
        super().__init__(profile)
        if not isinstance(profile.logon, CertificateLogon):
            raise TypeError("a CertificateAuthenticator needs a CertificateLogon")
        if not profile.base_url.startswith("https://"):
            raise ConfigurationError(
                f"system {profile.system_id}: a client certificate needs an https:// URL"
            )
        self.method = profile.logon
        self._clock = clock or (lambda: datetime.now(UTC))
        self._loaded: _Loaded | None = None

    def tls(self) -> ssl.SSLContext:
        if self._loaded is None:
            self._loaded = self._load()
        self._check_validity(self._loaded)
        return self._loaded.context

    def http_auth(self) -> None:
        return None

    def refused(self, response: httpx.Response) -> AuthenticationError:
        return AuthenticationError(
            f"logon to {self.profile.base_url} with the certificate {self.method.certificate} "
            "failed (HTTP 401): the system maps no user to its subject, or the user is "
            "locked; ask the system's administrator to map the certificate (transaction "
            "CERTRULE or table USREXTID)"
        )

    def transport_refusal(
        self, exc: httpx.TransportError, *, first_contact: bool
    ) -> AuthenticationError | None:
        text = str(exc).upper()
        where = f"logon to {self.profile.base_url} with the certificate {self.method.certificate}"
        for marker, meaning in ALERTS:
            if marker in text:
                alert = marker.lower().replace("_", " ")
                return AuthenticationError(f"{where} failed: {meaning} (TLS alert {alert})")
        if first_contact and _broken_off(exc):
            return AuthenticationError(
                f"{where} failed: the system broke off the connection at the TLS handshake "
                "without an answer, which is how a server refuses a client certificate it "
                "does not trust; check that the system trusts the certificate's issuer and "
                "that the certificate has not expired or been revoked"
            )
        return None

    # --- loading ------------------------------------------------------------------------

    def _load(self) -> _Loaded:
        method = self.method
        for label, path in (("certificate", method.certificate), ("key", method.key)):
            if path is not None and not path.is_file():
                raise ConfigurationError(f"{label} file {path} does not exist")
        context = server_trust(self.profile.verify)
        if method.is_pkcs12:
            return self._load_pkcs12(context)
        passphrase = method.passphrase.reveal() if method.passphrase else ""
        try:
            # a callable, so OpenSSL never prompts on the terminal for an encrypted key
            context.load_cert_chain(method.certificate, method.key, password=lambda: passphrase)
        except ssl.SSLError as exc:
            raise ConfigurationError(self._explain(exc)) from None
        not_before, not_after = self._validity_of_pem(method.certificate)
        return _Loaded(context, not_before, not_after)

    def _explain(self, exc: ssl.SSLError) -> str:
        """Which check failed: OpenSSL often says no more than "PEM lib", so the key file
        is looked at to tell a missing or wrong passphrase from a file that holds no key."""
        method = self.method
        key = method.key or method.certificate
        if "KEY_VALUES_MISMATCH" in f"{exc.reason} {exc}".upper():
            return f"the key in {key} does not belong to the certificate in {method.certificate}"
        if _encrypted(key):
            if method.passphrase is None:
                return f"the key in {key} is encrypted: configure its passphrase (passphrase_env)"
            return f"the passphrase does not unlock the key in {key}"
        if method.key is None:
            return (
                f"{method.certificate} must hold a PEM certificate and its key, or name the "
                "key file with key = ..."
            )
        return (
            f"cannot use the certificate {method.certificate} with the key {key}: one of them "
            "is not PEM (a .p12/.pfx bundle is read as PKCS#12)"
        )

    def _validity_of_pem(self, path: Path) -> tuple[datetime | None, datetime | None]:
        crypto = _crypto()
        if crypto is None:  # the server checks it then
            return None, None
        x509 = crypto[0]
        try:
            certificate = x509.load_pem_x509_certificate(path.read_bytes())
        except ValueError:
            return None, None
        return certificate.not_valid_before_utc, certificate.not_valid_after_utc

    def _load_pkcs12(self, context: ssl.SSLContext) -> _Loaded:
        crypto = _crypto()
        method = self.method
        if crypto is None:
            raise ConfigurationError(
                f"{method.certificate} is a PKCS#12 bundle: reading it needs the "
                "'cryptography' package (pip install cryptography), or convert it to PEM"
            )
        _, serialization, pkcs12 = crypto
        passphrase = method.passphrase.reveal().encode() if method.passphrase else None
        try:
            key, certificate, chain = pkcs12.load_key_and_certificates(
                method.certificate.read_bytes(), passphrase
            )
        except ValueError:
            raise ConfigurationError(
                f"cannot open the PKCS#12 bundle {method.certificate}: wrong passphrase "
                "(passphrase_env) or not a PKCS#12 file"
            ) from None
        if key is None or certificate is None:
            raise ConfigurationError(
                f"the PKCS#12 bundle {method.certificate} holds no key or no certificate"
            )
        # ssl loads keys from files only: the key goes there encrypted under a one-time
        # passphrase that never leaves this process, and the file is removed at once.
        once = secrets.token_urlsafe(32).encode()
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(once),
        ) + b"".join(c.public_bytes(serialization.Encoding.PEM) for c in (certificate, *chain))
        with _private_file(pem) as path:
            context.load_cert_chain(path, password=lambda: once)
        return _Loaded(context, certificate.not_valid_before_utc, certificate.not_valid_after_utc)

    def _check_validity(self, loaded: _Loaded) -> None:
        now = self._clock()
        where = f"the certificate {self.method.certificate}"
        if loaded.not_after is not None and now > loaded.not_after:
            raise AuthenticationError(
                f"{where} expired on {loaded.not_after:%Y-%m-%d %H:%M} UTC: renew it"
            )
        if loaded.not_before is not None and now < loaded.not_before:
            raise AuthenticationError(
                f"{where} is not valid before {loaded.not_before:%Y-%m-%d %H:%M} UTC "
                "(check this computer's clock)"
            )


def _encrypted(path: Path) -> bool:
    """Whether a PEM file holds an encrypted key (PKCS#8 or the traditional form)."""
    try:
        head = path.read_bytes()[:65_536]
    except OSError:
        return False
    return b"ENCRYPTED PRIVATE KEY" in head or b"Proc-Type: 4,ENCRYPTED" in head


def _broken_off(exc: httpx.TransportError) -> bool:
    """A connection closed or reset during or right after the handshake, before any answer."""
    if isinstance(exc, httpx.ReadError):
        return True
    text = str(exc).upper()
    return isinstance(exc, httpx.RemoteProtocolError | httpx.ConnectError) and (
        "WITHOUT SENDING A RESPONSE" in text or "UNEXPECTED_EOF" in text or "EOF OCCURRED" in text
    )


@contextlib.contextmanager
def _private_file(content: bytes) -> Iterator[str]:
    """A file only this user can read, removed when the block ends."""
    descriptor, path = tempfile.mkstemp(prefix="abap-adt-", suffix=".pem")
    try:
        os.chmod(path, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
        yield path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


__all__ = ["ALERTS", "CertificateAuthenticator"]
