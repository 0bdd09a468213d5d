"""``abap-adt emulator`` with the logon options docs/systems.md shows: HTTPS, client
certificates mapped to users, basic authentication off, an OAuth client."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.emulated import GREETER, no_sleep
from support.pki import Pki

from adt import AdtClient
from adt.app.cli import build_parser
from adt.emulator.server import logon_from_args
from adt.systems import load_settings


def _parse(*options: str) -> object:
    return logon_from_args(build_parser().parse_args(["emulator", *options]))


def test_the_logon_options_become_a_policy_and_tls(tmp_path: Path) -> None:
    policy, tls = _parse(  # type: ignore[misc]
        "--tls-certificate", "s.pem", "--tls-key", "s.key", "--client-ca", "ca.pem",
        "--require-client-certificate", "--certificate-user", "CN=Dev,O=Example=DEVELOPER",
        "--no-basic", "--oauth-client", "sb-adt:se:cret",
    )  # fmt: skip
    assert policy.basic is False
    assert policy.certificate_users == {"CN=Dev,O=Example": "DEVELOPER"}
    assert policy.oauth_clients == {"sb-adt": "se:cret"}
    assert tls is not None and tls.require_client_certificate
    assert tls.uvicorn_options()["ssl_cert_reqs"] == 2  # ssl.CERT_REQUIRED


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--client-ca", "ca.pem"], "need HTTPS"),
        (["--tls-certificate", "s.pem"], "needs --tls-key"),
        (["--oauth-client", "nosecret"], "expects ID:SECRET"),
        (["--certificate-user", "DEVELOPER"], "expects SUBJECT=USER"),
    ],
)
def test_wrong_logon_options_say_what_is_missing(options: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _parse(*options)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Pki]]:
    pki = Pki.create(tmp_path)
    command = [
        sys.executable, "-m", "adt.app", "emulator",
        "--tls-certificate", str(pki.server_certificate), "--tls-key", str(pki.server_key),
        "--client-ca", str(pki.ca_file), "--require-client-certificate",
        "--certificate-user", "DEVELOPER=DEVELOPER", "--no-basic",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "listening on https://" in line, process.stderr.read() if process.stderr else line
        yield line.split("listening on ", 1)[1].split()[0], pki
    finally:
        process.terminate()
        process.wait(timeout=30)


async def test_a_certificate_logon_against_the_emulator_command(
    served: tuple[str, Pki], tmp_path: Path
) -> None:
    url, pki = served
    certificate, key = pki.client("developer")
    config = tmp_path / "systems.toml"
    config.write_text(
        f'[systems.DEV]\nurl = "{url}"\nuser = "DEVELOPER"\nlogon = "certificate"\n'
        f'certificate = "{certificate}"\nkey = "{key}"\nverify_tls = "{pki.ca_file}"\n'
    )
    profile = load_settings(env={}, config_file=config).systems.get("DEV")
    async with AdtClient(profile, sleep=no_sleep) as adt:
        metadata = await adt.object_metadata(GREETER)
    assert metadata.name.upper() == "ZCL_DEMO_GREETER"
