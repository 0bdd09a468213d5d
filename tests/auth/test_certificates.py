"""X.509 client certificates over real HTTPS: the emulator serves TLS with a test CA,
requires client certificates and maps their subjects to users; the client presents PEM or
PKCS#12 files and says which file or which check failed."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.emulated import GREETER, USERS, no_sleep
from support.pki import NOW, Authority, Pki, write_key, write_pem, write_pkcs12

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator, LogonPolicy, ServerTls
from adt.errors import AdtError, AuthenticationError, ConfigurationError
from adt.logon import CertificateLogon
from adt.secret import Secret
from adt.systems import load_settings

SOURCE = f"{GREETER}/source/main"
PASSPHRASE = "bundle-passphrase-7"
LOGOFF = "/sap/public/bc/icf/logoff"


@pytest.fixture
def pki(tmp_path: Path) -> Pki:
    return Pki.create(tmp_path)


def _emulator(*, basic: bool = False) -> Emulator:
    policy = LogonPolicy(basic=basic, certificate_users={"DEVELOPER": "DEVELOPER"})
    return Emulator(users=USERS, logon=policy)


@pytest.fixture
def strict(pki: Pki) -> Iterator[tuple[Emulator, str]]:
    """Basic authentication off, a client certificate required."""
    emulator = _emulator()
    tls = ServerTls(pki.server_certificate, pki.server_key, pki.ca_file, True)
    with emulator.serve_in_thread(tls=tls) as url:
        yield emulator, url


def _client(url: str, pki: Pki, logon: CertificateLogon | None = None) -> AdtClient:
    profile = ConnectionProfile(
        base_url=url,
        user="DEVELOPER",
        password=Secret("" if logon else USERS["DEVELOPER"]),
        verify=str(pki.ca_file),
        retry_delays=(),
        **({"logon": logon} if logon else {}),  # type: ignore[arg-type]
    )
    return AdtClient(profile, sleep=no_sleep)


async def test_a_good_certificate_logs_on_and_its_lock_window_works(
    strict: tuple[Emulator, str], pki: Pki
) -> None:
    emulator, url = strict
    certificate, key = pki.client("developer")
    async with _client(url, pki, CertificateLogon(certificate, key)) as adt:
        text = (await adt.read_source(SOURCE)).text
        async with adt.locked(GREETER) as lock:
            await adt.write_source(SOURCE, text + "\n* by certificate", lock_handle=lock.handle)
    assert emulator.source(SOURCE) == text + "\n* by certificate"
    logged_on = [e for e in emulator.request_log if e.path != LOGOFF]
    assert {entry.user for entry in logged_on} == {"DEVELOPER"}
    assert emulator.locks() == []


async def test_a_pkcs12_bundle_with_a_passphrase_from_the_environment(
    strict: tuple[Emulator, str], pki: Pki, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    emulator, url = strict
    # Temporary files go to a directory of this test's own, so a parallel worker's key file
    # cannot be mistaken for one left behind here.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    key, certificate = pki.ca.issue("DEVELOPER")
    bundle = write_pkcs12(tmp_path / "developer.p12", key, certificate, PASSPHRASE.encode())
    config = tmp_path / "systems.toml"
    config.write_text(
        f'[systems.BTP]\nurl = "{url}"\nuser = "DEVELOPER"\nlogon = "certificate"\n'
        f'certificate = "{bundle}"\npassphrase_env = "P12_PASSPHRASE"\n'
        f'verify_tls = "{pki.ca_file}"\n'
    )
    settings = load_settings(env={"P12_PASSPHRASE": PASSPHRASE}, config_file=config)
    before = _key_files()
    profile = settings.systems.get("BTP")
    assert PASSPHRASE not in repr(profile)
    async with AdtClient(profile, sleep=no_sleep) as adt:
        await adt.read_source(SOURCE)
    assert [e.user for e in emulator.request_log if e.path != LOGOFF] == ["DEVELOPER"]
    assert _key_files() == before, "no key file is left behind"


def _key_files() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("abap-adt-*.pem"))


async def test_a_wrong_pkcs12_passphrase_names_the_bundle(pki: Pki, tmp_path: Path) -> None:
    key, certificate = pki.ca.issue("DEVELOPER")
    bundle = write_pkcs12(tmp_path / "developer.p12", key, certificate, PASSPHRASE.encode())
    logon = CertificateLogon(bundle, passphrase=Secret("not-it"))
    with pytest.raises(ConfigurationError, match=r"PKCS#12 bundle .*developer\.p12.*passphrase"):
        _client("https://127.0.0.1:1", pki, logon)


async def test_a_certificate_from_another_ca_is_refused_by_the_server(
    strict: tuple[Emulator, str], pki: Pki, tmp_path: Path
) -> None:
    emulator, url = strict
    stranger = Authority.create("Somebody Else's CA")
    key, certificate = stranger.issue("DEVELOPER")
    logon = CertificateLogon(
        write_pem(tmp_path / "stranger.pem", certificate), write_key(tmp_path / "s.key", key)
    )
    async with _client(url, pki, logon) as adt:
        with pytest.raises(AuthenticationError) as caught:
            await adt.read_source(SOURCE)
    message = str(caught.value)
    assert "stranger.pem" in message and "trusts the certificate's issuer" in message
    assert emulator.request_log == [], "no request got through the handshake"


async def test_an_expired_certificate_is_reported_before_connecting(
    strict: tuple[Emulator, str], pki: Pki
) -> None:
    emulator, url = strict
    certificate, key = pki.client(
        "old", not_before=NOW - dt.timedelta(days=60), not_after=NOW - dt.timedelta(days=1)
    )
    with pytest.raises(AuthenticationError, match=r"old\.pem expired on .* renew it"):
        _client(url, pki, CertificateLogon(certificate, key))
    assert emulator.request_log == []


async def test_a_missing_key_file_is_named(pki: Pki) -> None:
    certificate, _ = pki.client("developer")
    missing = pki.folder / "nowhere.key"
    with pytest.raises(ConfigurationError, match=r"key file .*nowhere\.key does not exist"):
        _client("https://127.0.0.1:1", pki, CertificateLogon(certificate, missing))


async def test_a_key_of_another_certificate_names_both_files(pki: Pki) -> None:
    certificate, _ = pki.client("developer")
    _, other_key = pki.client("other")
    with pytest.raises(ConfigurationError, match=r"other\.key does not belong to .*developer"):
        _client("https://127.0.0.1:1", pki, CertificateLogon(certificate, other_key))


async def test_an_encrypted_key_without_a_passphrase_says_so(pki: Pki) -> None:
    key, certificate = pki.ca.issue("DEVELOPER")
    pem = write_pem(pki.folder / "enc.pem", certificate)
    locked = write_key(pki.folder / "enc.key", key, b"secret-passphrase")
    with pytest.raises(ConfigurationError, match="encrypted: configure its passphrase"):
        _client("https://127.0.0.1:1", pki, CertificateLogon(pem, locked))


async def test_a_certificate_mapped_to_no_user_gets_a_401_that_says_so(
    strict: tuple[Emulator, str], pki: Pki
) -> None:
    emulator, url = strict
    certificate, key = pki.client("nobody", common_name="NOBODY")
    async with _client(url, pki, CertificateLogon(certificate, key)) as adt:
        with pytest.raises(AuthenticationError, match="maps no user to its subject"):
            await adt.read_source(SOURCE)
    assert [e.status for e in emulator.request_log if e.path != LOGOFF] == [401]


async def test_no_certificate_where_one_is_required(strict: tuple[Emulator, str], pki: Pki) -> None:
    _, url = strict
    async with _client(url, pki) as adt:
        with pytest.raises(AdtError) as caught:  # no TLS alert from uvicorn: a broken connection
            await adt.read_source(SOURCE)
    assert USERS["DEVELOPER"] not in str(caught.value)


async def test_basic_authentication_refused_by_the_system(pki: Pki) -> None:
    emulator = _emulator(basic=False)
    tls = ServerTls(pki.server_certificate, pki.server_key, pki.ca_file, False)
    with emulator.serve_in_thread(tls=tls) as url:
        async with _client(url, pki) as adt:
            with pytest.raises(AuthenticationError) as caught:
                await adt.read_source(SOURCE)
    message = str(caught.value)
    assert "does not accept them at all" in message and 'logon = "certificate"' in message
    assert USERS["DEVELOPER"] not in message
    assert [e.user for e in emulator.request_log if e.path != LOGOFF] == [None]


async def test_basic_authentication_still_works_where_allowed(pki: Pki) -> None:
    emulator = _emulator(basic=True)
    tls = ServerTls(pki.server_certificate, pki.server_key, pki.ca_file, False)
    with emulator.serve_in_thread(tls=tls) as url:
        async with _client(url, pki) as adt:
            await adt.read_source(SOURCE)
    assert [e.user for e in emulator.request_log if e.path != LOGOFF] == ["DEVELOPER"]
