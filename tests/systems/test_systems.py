"""System configuration: editor options, config file, environment; passwords never from the file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support.emulated import REPORT, make_client

from adt.emulator import Emulator
from adt.errors import ConfigurationError
from adt.source.config import SourceConfig
from adt.source.errors import AuthFailed, UnknownSystem
from adt.systems import Connections, SystemsConfig, default_config_path

FILE = """
default = "QAS"

[systems.DEV]
url = "https://dev.example:44300"
user = "DEVELOPER"
client = "100"
password_env = "DEV_PASSWORD"

[systems.QAS]
url = "https://qas.example:44300"
user = "TESTER"
keyring = true
verify_tls = "/etc/ssl/qas-ca.pem"
"""


def _keyring(service: str, user: str) -> str | None:
    return {("abap-adt", "QAS:TESTER"): "from-keyring"}.get((service, user))


def test_all_three_sources_in_order(tmp_path: Path) -> None:
    path = tmp_path / "systems.toml"
    path.write_text(FILE)
    config = SystemsConfig.load(
        init_options={
            "systems": [
                {
                    "name": "EDITOR",
                    "url": "http://127.0.0.1:1",
                    "user": "U",
                    "password": "in-memory",
                }
            ]
        },
        env={
            "DEV_PASSWORD": "dev-pw",
            "ADT_URL": "https://env.example",
            "ADT_USER": "E",
            "ADT_PASSWORD": "env-pw",
            "ADT_SYSTEM": "ENV",
        },
        config_file=path,
        keyring_get=_keyring,
    )
    assert config.names == ["EDITOR", "DEV", "QAS", "ENV"]
    assert config.get().name == "QAS", "the file names the default"
    dev = config.get("dev")
    assert (dev.client, dev.password.reveal(), dev.verify) == ("100", "dev-pw", True)
    qas = config.get("QAS")
    assert qas.password.reveal() == "from-keyring" and qas.verify == "/etc/ssl/qas-ca.pem"
    assert config.get("ENV").password.reveal() == "env-pw"


def test_first_configured_is_the_default_without_a_name() -> None:
    config = SystemsConfig.load(
        env={"ADT_URL": "https://env.example", "ADT_USER": "E", "ADT_PASSWORD": "p"},
        config_file=Path("/nonexistent/systems.toml"),
    )
    assert config.names == ["default"] and config.get().base_url == "https://env.example"


def test_unknown_system_lists_the_available_ones(tmp_path: Path) -> None:
    config = SystemsConfig.load(
        init_options={
            "systems": [{"name": "A4H", "url": "http://x", "user": "U", "password": "p"}]
        },
        env={},
        config_file=tmp_path / "none.toml",
    )
    with pytest.raises(UnknownSystem) as caught:
        config.get("PRD")
    assert caught.value.details["available"] == ["A4H"] and "A4H" in caught.value.message
    with pytest.raises(UnknownSystem, match="no SAP system"):
        SystemsConfig().get()


def test_clear_text_passwords_in_the_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "systems.toml"
    path.write_text('[systems.X]\nurl = "https://x"\nuser = "U"\npassword = "oops"\n')
    with pytest.raises(ConfigurationError, match="clear-text password"):
        SystemsConfig.load(env={}, config_file=path)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[systems.X]\nurl = "https://x"\nuser = "U"\npassword_env = "MISSING"\n', "MISSING"),
        ('[systems.X]\nurl = "https://x"\nuser = "U"\n', "no password source"),
        ('[systems.X]\nuser = "U"\npassword_env = "P"\n', "needs 'url'"),
        ("[systems\n", "systems.toml"),
        ('default = "Y"\n[systems.X]\nurl = "https://x"\nuser = "U"\nkeyring = true\n', "unknown"),
    ],
)
def test_bad_files_give_clear_errors(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "systems.toml"
    path.write_text(body)
    with pytest.raises((ConfigurationError, UnknownSystem), match=message):
        SystemsConfig.load(env={"P": "p"}, config_file=path, keyring_get=lambda s, u: "k")


def test_config_path_follows_the_environment() -> None:
    assert default_config_path({"ABAP_ADT_CONFIG": "/tmp/x.toml"}) == Path("/tmp/x.toml")
    assert default_config_path({"XDG_CONFIG_HOME": "/cfg"}) == Path("/cfg/abap-adt/systems.toml")


async def test_connections_create_one_service_per_system() -> None:
    config = SystemsConfig.load(
        init_options={
            "systems": [
                {"name": "A", "url": "http://127.0.0.1:9", "user": "U", "password": "p"},
                {"name": "B", "url": "http://127.0.0.1:9", "user": "U", "password": "p"},
            ]
        },
        env={},
        config_file=Path("/nonexistent"),
    )
    pool = Connections(config)
    assert pool.service() is pool.service("A") and pool.service("B") is not pool.service("A")
    assert pool.service("b").system == "B"
    await pool.close()
    assert pool.open_services() == []


async def test_services_from_the_pool_drop_expired_cache_entries_on_their_own() -> None:
    emulator = Emulator()
    profile = make_client(emulator).profile
    pool = Connections(
        SystemsConfig({"A4H": profile}),
        source_config=SourceConfig(cache_ttl_ms=30, cleanup_interval_ms=10),
        client_factory=lambda p: make_client(emulator),
    )
    service = pool.service("A4H")
    try:
        await service.get_source_v2(REPORT, start_line=1, end_line=1)
        assert service.cache.stats().size == 1
        for _ in range(100):  # no read in between: only the cleanup task can drop it
            await asyncio.sleep(0.01)
            if service.cache.stats().size == 0:
                break
        assert service.cache.stats().size == 0 and service.cache.stats().expirations == 1
    finally:
        await pool.close()


@pytest.mark.parametrize(("mode", "who"), [(0o666, "everyone"), (0o620, "its group")])
def test_a_file_others_may_change_is_refused_like_ssh_does(
    tmp_path: Path, mode: int, who: str
) -> None:
    path = tmp_path / "systems.toml"
    path.write_text(FILE)
    path.chmod(mode)
    with pytest.raises(ConfigurationError) as refused:
        SystemsConfig.load(env={"DEV_PASSWORD": "p"}, config_file=path, keyring_get=_keyring)
    assert f"{path} is writable by {who}" in str(refused.value)
    assert f"run: chmod go-w {path}" in str(refused.value)
    path.chmod(0o600)
    assert SystemsConfig.load(env={"DEV_PASSWORD": "p"}, config_file=path, keyring_get=_keyring)


def test_a_missing_password_of_another_system_is_reported_when_it_is_used(
    tmp_path: Path,
) -> None:
    path = tmp_path / "systems.toml"
    path.write_text(FILE.replace('default = "QAS"', 'default = "DEV"'))
    systems = SystemsConfig.load(env={"DEV_PASSWORD": "p"}, config_file=path, keyring_get=_keyring)
    assert systems.get().name == "DEV"
    assert systems.get("QAS").user == "TESTER"  # the keyring has it
    nothing = SystemsConfig.load(
        env={"DEV_PASSWORD": "p"}, config_file=path, keyring_get=lambda s, u: None
    )
    assert nothing.get().name == "DEV", "the default system works"
    with pytest.raises(
        AuthFailed, match=r"system 'QAS' cannot be used: .*no password in the keyring"
    ):
        nothing.get("QAS")
    with pytest.raises(ConfigurationError, match="DEV_PASSWORD"):  # the default: nothing works
        SystemsConfig.load(env={}, config_file=path, keyring_get=_keyring)
