"""The default TLS check (``verify = true``) loads its CA bundle with the first TLS
connection, not when a client is built: a system spoken to over plain HTTP never costs the
parsed bundle, and every TLS connection is still checked against it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.emulated import GREETER, USERS, no_sleep
from support.pki import Pki

from adt import AdtClient, ConnectionProfile
from adt.auth.base import default_trust
from adt.emulator import Emulator, LogonPolicy, ServerTls
from adt.errors import AdtError
from adt.secret import Secret

SOURCE = f"{GREETER}/source/main"


@pytest.fixture
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki.create(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def fresh_trust() -> Iterator[None]:
    default_trust.cache_clear()
    yield
    default_trust.cache_clear()


def _client(url: str) -> AdtClient:
    profile = ConnectionProfile(
        base_url=url,
        user="DEVELOPER",
        password=Secret(USERS["DEVELOPER"]),
        verify=True,
        retry_delays=(),
    )
    return AdtClient(profile, sleep=no_sleep)


def _tls_emulator(pki: Pki) -> tuple[Emulator, ServerTls]:
    emulator = Emulator(users=USERS, logon=LogonPolicy(basic=True))
    return emulator, ServerTls(pki.server_certificate, pki.server_key)


@pytest.mark.usefixtures("fresh_trust")
async def test_the_cas_load_with_the_first_tls_connection(
    pki: Pki, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(pki.ca_file))
    emulator, tls = _tls_emulator(pki)
    with emulator.serve_in_thread(tls=tls) as url:
        async with _client(url) as adt:
            trust = default_trust()
            assert trust.cert_store_stats()["x509_ca"] == 0, "nothing loaded for the client"
            await adt.read_source(SOURCE)
            assert trust.cert_store_stats()["x509_ca"] == 1, "the test CA, from SSL_CERT_FILE"


@pytest.mark.usefixtures("fresh_trust")
async def test_a_server_outside_the_bundle_is_still_refused(pki: Pki) -> None:
    emulator, tls = _tls_emulator(pki)
    with emulator.serve_in_thread(tls=tls) as url:
        async with _client(url) as adt:
            with pytest.raises(AdtError):
                await adt.read_source(SOURCE)
    assert default_trust().cert_store_stats()["x509_ca"] > 100, "certifi's CAs were loaded"
    assert emulator.request_log == [], "the handshake failed: no request reached the system"


@pytest.mark.usefixtures("fresh_trust")
async def test_plain_http_never_loads_the_bundle() -> None:
    emulator = Emulator(users=USERS, logon=LogonPolicy(basic=True))
    with emulator.serve_in_thread() as url:
        async with _client(url) as adt:
            await adt.read_source(SOURCE)
    assert default_trust().cert_store_stats()["x509_ca"] == 0
