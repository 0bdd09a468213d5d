"""A test PKI made with ``cryptography``: a CA, a server certificate for 127.0.0.1, and
client certificates (good, expired, from another CA; PEM, encrypted PEM and PKCS#12)."""

from __future__ import annotations

import datetime as dt
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

Key = ec.EllipticCurvePrivateKey
NOW = dt.datetime.now(dt.UTC)


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Example Corp"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


@dataclass(frozen=True)
class Authority:
    """A CA that signs certificates."""

    key: Key
    certificate: x509.Certificate

    @classmethod
    def create(cls, name: str) -> Authority:
        key = ec.generate_private_key(ec.SECP256R1())
        certificate = (
            x509.CertificateBuilder()
            .subject_name(_name(name))
            .issuer_name(_name(name))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(NOW - dt.timedelta(days=1))
            .not_valid_after(NOW + dt.timedelta(days=30))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False
            )
            .sign(key, hashes.SHA256())
        )
        return cls(key, certificate)

    def issue(
        self,
        common_name: str,
        *,
        server: bool = False,
        not_before: dt.datetime | None = None,
        not_after: dt.datetime | None = None,
    ) -> tuple[Key, x509.Certificate]:
        key = ec.generate_private_key(ec.SECP256R1())
        usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
        builder = (
            x509.CertificateBuilder()
            .subject_name(_name(common_name))
            .issuer_name(self.certificate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(not_before or NOW - dt.timedelta(days=1))
            .not_valid_after(not_after or NOW + dt.timedelta(days=10))
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                critical=False,
            )
        )
        if server:
            builder = builder.add_extension(
                x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False,
            )
        return key, builder.sign(self.key, hashes.SHA256())


def write_pem(path: Path, certificate: x509.Certificate) -> Path:
    path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return path


def write_key(path: Path, key: Key, passphrase: bytes | None = None) -> Path:
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase)
        if passphrase
        else serialization.NoEncryption()
    )
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    )
    path.chmod(0o600)
    return path


def write_pkcs12(path: Path, key: Key, certificate: x509.Certificate, passphrase: bytes) -> Path:
    path.write_bytes(
        pkcs12.serialize_key_and_certificates(
            b"developer", key, certificate, None, serialization.BestAvailableEncryption(passphrase)
        )
    )
    path.chmod(0o600)
    return path


@dataclass(frozen=True)
class Pki:
    """The files of one test landscape."""

    folder: Path
    ca: Authority
    ca_file: Path
    server_certificate: Path
    server_key: Path

    @classmethod
    def create(cls, folder: Path) -> Pki:
        ca = Authority.create("Example Test CA")
        key, certificate = ca.issue("127.0.0.1", server=True)
        return cls(
            folder,
            ca,
            write_pem(folder / "ca.pem", ca.certificate),
            write_pem(folder / "server.pem", certificate),
            write_key(folder / "server.key", key),
        )

    def client(
        self, name: str, common_name: str = "DEVELOPER", **validity: dt.datetime
    ) -> tuple[Path, Path]:
        """A client certificate and its key, as two PEM files."""
        key, certificate = self.ca.issue(common_name, **validity)
        return (
            write_pem(self.folder / f"{name}.pem", certificate),
            write_key(self.folder / f"{name}.key", key),
        )
