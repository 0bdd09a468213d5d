"""The logon method of a system, from systems.toml, the editor's options and ADT_LOGON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adt.errors import ConfigurationError
from adt.logon import BasicLogon, BrowserLogon, CertificateLogon, OAuthLogon, Remember
from adt.source.errors import AuthFailed
from adt.systems import load_settings


def _keyring(service: str, user: str) -> str | None:
    return {("abap-adt", "DEV:certificate"): "from-keyring"}.get((service, user))


def _load(tmp_path: Path, text: str, env: dict[str, str] | None = None) -> object:
    path = tmp_path / "systems.toml"
    path.write_text(text)
    return load_settings(env=env or {}, config_file=path, keyring_get=_keyring).systems


def test_basic_stays_the_default(tmp_path: Path) -> None:
    systems = _load(
        tmp_path,
        '[systems.DEV]\nurl = "https://d"\nuser = "U"\npassword_env = "P"\n',
        {"P": "pw"},
    )
    assert isinstance(systems.get("DEV").logon, BasicLogon)  # type: ignore[attr-defined]


def test_a_certificate_needs_no_password_and_reads_its_passphrase_from_the_keyring(
    tmp_path: Path,
) -> None:
    systems = _load(
        tmp_path,
        '[systems.DEV]\nurl = "https://d"\nuser = "U"\nlogon = "certificate"\n'
        'certificate = "~/dev.p12"\npassphrase_keyring = true\n',
    )
    profile = systems.get("DEV")  # type: ignore[attr-defined]
    assert isinstance(profile.logon, CertificateLogon)
    assert profile.logon.certificate == Path("~/dev.p12").expanduser()
    assert profile.logon.is_pkcs12 and profile.logon.passphrase.reveal() == "from-keyring"
    assert "from-keyring" not in repr(profile)


def test_a_clear_text_passphrase_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="clear-text passphrase"):
        _load(
            tmp_path,
            '[systems.DEV]\nurl = "https://d"\nuser = "U"\nlogon = "certificate"\n'
            'certificate = "c.pem"\npassphrase = "oops"\n',
        )


def test_an_unknown_method_names_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="logon must be one of basic, certificate, oauth"):
        _load(tmp_path, '[systems.DEV]\nurl = "https://d"\nuser = "U"\nlogon = "kerberos"\n')


def test_a_missing_service_key_makes_only_that_system_unusable(tmp_path: Path) -> None:
    systems = _load(
        tmp_path,
        'default = "DEV"\n[systems.DEV]\nurl = "https://d"\nuser = "U"\npassword_env = "P"\n'
        f'[systems.BTP]\nuser = "U"\nlogon = "oauth"\nservice_key = "{tmp_path}/none.json"\n',
        {"P": "pw"},
    )
    with pytest.raises(AuthFailed, match=r"service key file .*none\.json does not exist"):
        systems.get("BTP")  # type: ignore[attr-defined]


def test_the_environment_chooses_oauth_with_a_service_key(tmp_path: Path) -> None:
    key = tmp_path / "key.json"
    key.write_text(
        json.dumps(
            {
                "url": "https://btp.example",
                "uaa": {"url": "https://uaa.example", "clientid": "c", "clientsecret": "s3"},
            }
        )
    )
    env = {"ADT_URL": "https://btp.example", "ADT_USER": "U", "ADT_LOGON": "oauth",
           "ADT_SERVICE_KEY": str(key), "ADT_TOKEN_FILE": str(tmp_path / "t.json")}  # fmt: skip
    profile = load_settings(env=env, config_file=tmp_path / "none.toml").systems.get()
    assert isinstance(profile.logon, OAuthLogon)
    assert profile.logon.service_key.uaa_url == "https://uaa.example"
    assert profile.logon.remember.file == tmp_path / "t.json"
    assert "s3" not in repr(profile)


def test_the_environment_chooses_a_certificate(tmp_path: Path) -> None:
    env = {"ADT_URL": "https://d", "ADT_USER": "U", "ADT_LOGON": "certificate",
           "ADT_CERTIFICATE": "/c.pem", "ADT_CERTIFICATE_KEY": "/c.key",
           "ADT_CERTIFICATE_PASSPHRASE": "pp"}  # fmt: skip
    profile = load_settings(env=env, config_file=tmp_path / "none.toml").systems.get()
    assert profile.logon == CertificateLogon(
        Path("/c.pem"), Path("/c.key"), profile.logon.passphrase
    )  # type: ignore[union-attr]
    assert profile.logon.passphrase.reveal() == "pp"  # type: ignore[union-attr]


TEAM = """
[systems.DEV]
url = "https://dev.example"
user = "OPERATOR"
logon = "certificate"
certificate = "/etc/abap-adt/operator.pem"

[team.alice]
tokenSha256 = "{digest}"
user = "ALICE"
{alice}
"""


def _team(tmp_path: Path, alice: str) -> object:
    from adt.systems import token_digest

    path = tmp_path / "systems.toml"
    path.write_text(TEAM.format(digest=token_digest("a" * 40), alice=alice))
    return load_settings(env={"ALICE_PW": "alice-pw"}, config_file=path).team


def test_a_team_member_never_borrows_the_systems_certificate(tmp_path: Path) -> None:
    team = _team(tmp_path, 'passwordEnv = "ALICE_PW"')
    (alice,) = team.members  # type: ignore[attr-defined]
    profile = alice.systems.get("DEV")
    assert isinstance(profile.logon, BasicLogon), "the member's own password, not the certificate"
    assert (profile.user, profile.password.reveal()) == ("ALICE", "alice-pw")


def test_a_team_member_may_log_on_with_a_certificate_of_their_own(tmp_path: Path) -> None:
    team = _team(tmp_path, 'logon = "certificate"\ncertificate = "/home/alice/alice.pem"')
    (alice,) = team.members  # type: ignore[attr-defined]
    assert alice.systems.get("DEV").logon == CertificateLogon(Path("/home/alice/alice.pem"))


def test_a_team_members_browser_logon_must_be_remembered(tmp_path: Path) -> None:
    team = _team(tmp_path, 'logon = "browser"\ntoken_file = "/srv/bridge/tokens.json"')
    (alice,) = team.members  # type: ignore[attr-defined]
    assert alice.systems.get("DEV").logon == BrowserLogon(
        remember=Remember(keyring=True, file=Path("/srv/bridge/tokens.json"))
    )
    with pytest.raises(ConfigurationError, match="must be remembered on the bridge's machine"):
        _team(tmp_path, 'logon = "browser"\nremember_logon = false')
