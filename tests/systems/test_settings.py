"""The one settings layer: typed sections, camelCase keys, three sources, errors naming the key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adt.errors import ConfigurationError
from adt.systems import (
    BridgeSettings,
    EditorSettings,
    LockMode,
    SourceSettings,
    load_settings,
)
from adt.systems.settings import keys, load_section


def test_defaults_are_the_documented_ones(tmp_path: Path) -> None:
    settings = load_settings(env={}, config_file=tmp_path / "none.toml")
    assert settings.source == SourceSettings()
    assert settings.source.cache_ttl == 300_000 and settings.source.cache_size == 100
    assert settings.source.conflict_check is True and settings.source.strict_cache is False
    assert settings.editor.lock_mode is LockMode.ON_SAVE
    assert settings.editor.poll_interval == 30.0 and settings.editor.agent_channel is True
    assert settings.bridge.max_response_chars == 80_000 and settings.bridge.read_only is False
    assert settings.systems.names == []


def test_the_v2_design_environment_variables() -> None:
    env = {
        "MCP_CACHE_TTL": "1000",
        "MCP_CACHE_SIZE": "3",
        "MCP_CACHE_CLEANUP_INTERVAL": "10",
        "MCP_ENABLE_CONFLICT_CHECK": "false",
        "MCP_MAX_MATCHES": "7",
        "MCP_STRICT_CACHE": "true",
    }
    config = load_section(SourceSettings, env=env).to_config()
    assert (config.cache_ttl_ms, config.cache_size, config.cleanup_interval_ms) == (1000, 3, 10)
    assert (config.conflict_check, config.max_matches, config.strict_cache) == (False, 7, True)


def test_editor_options_beat_the_environment_which_beats_the_file(tmp_path: Path) -> None:
    path = tmp_path / "systems.toml"
    path.write_text(
        "[source]\ncacheTtl = 5\ncacheSize = 9\nmaxMatches = 4\n"
        '[editor]\nlockMode = "onEdit"\npollInterval = 2\n'
        "[bridge]\nmaxResponseChars = 20000\n"
    )
    settings = load_settings(
        init_options={"cacheTtl": 7, "checkDelay": 0.25},
        env={"MCP_CACHE_TTL": "6", "MCP_CACHE_SIZE": "8"},
        config_file=path,
    )
    assert settings.source.cache_ttl == 7  # the editor's option
    assert settings.source.cache_size == 8  # the environment
    assert settings.source.max_matches == 4  # the file
    assert settings.editor.lock_mode is LockMode.ON_EDIT and settings.editor.poll_interval == 2.0
    assert settings.editor.check_delay == 0.25
    assert settings.bridge.max_response_chars == 20_000


@pytest.mark.parametrize(
    ("options", "env", "message"),
    [
        ({}, {"MCP_CACHE_TTL": "abc"}, r"MCP_CACHE_TTL \(for cacheTtl\) must be a whole number"),
        ({}, {"MCP_CACHE_SIZE": "0"}, r"MCP_CACHE_SIZE \(for cacheSize\) must be at least 1"),
        ({}, {"MCP_ENABLE_CONFLICT_CHECK": "maybe"}, r"conflictCheck\) must be true or false"),
        ({"lockMode": "always"}, {}, r"setting lockMode must be onSave or onEdit"),
        ({"pollInterval": -1}, {}, r"setting pollInterval must be at least 0"),
        ({"pollInterval": "soon"}, {}, r"setting pollInterval must be a number"),
        ({"cacheTtl": 1.5}, {}, r"setting cacheTtl must be a whole number"),
        ({"saveOnDidSave": "yes please"}, {}, r"setting saveOnDidSave must be true or false"),
        ({"checkDelay": float("nan")}, {}, r"setting checkDelay must be a finite number"),
    ],
)
def test_a_bad_value_names_its_key_and_where_it_came_from(
    tmp_path: Path, options: dict[str, object], env: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigurationError, match=message):
        load_settings(init_options=options, env=env, config_file=tmp_path / "none.toml")


def test_a_bad_file_value_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "systems.toml"
    path.write_text("[editor]\npollInterval = true\n")
    with pytest.raises(ConfigurationError, match=rf"pollInterval in {path} must be a number"):
        load_settings(env={}, config_file=path)
    path.write_text('editor = "fast"\n')
    with pytest.raises(ConfigurationError, match=r"\[editor\] must be a table"):
        load_settings(env={}, config_file=path)


def test_lists_from_the_environment_and_from_options() -> None:
    bridge = load_section(BridgeSettings, env={"MCP_WRITE_ALLOWLIST": " $ZDEMO, ,zcl_* ,$ZDEMO"})
    assert bridge.write_allowlist == ("$ZDEMO", "zcl_*")
    assert load_section(BridgeSettings, options={"writeAllowlist": ["A", "B"]}).write_allowlist == (
        "A",
        "B",
    )
    with pytest.raises(ConfigurationError, match="writeAllowlist must be a list of names"):
        load_section(BridgeSettings, options={"writeAllowlist": 3})


def test_a_runtime_change_keeps_what_it_does_not_name() -> None:
    base = EditorSettings(lock_mode=LockMode.ON_EDIT, poll_interval=5.0)
    changed = load_section(EditorSettings, options={"checkDelay": 1}, base=base)
    assert changed == EditorSettings(lock_mode=LockMode.ON_EDIT, poll_interval=5.0, check_delay=1.0)


def test_every_key_is_camel_case_and_unique() -> None:
    names = [
        key for section in (SourceSettings, EditorSettings, BridgeSettings) for key in keys(section)
    ]
    assert len(names) == len(set(names))
    assert all(name[0].islower() and "_" not in name for name in names)


def test_the_documented_settings_are_exactly_the_model() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "systems.md").read_text()
    documented = re.findall(r"^\| (source|editor|bridge) \| `(\w+)` \|", docs, flags=re.M)
    sections = {"source": SourceSettings, "editor": EditorSettings, "bridge": BridgeSettings}
    expected = [(name, key) for name, section in sections.items() for key in keys(section)]
    assert documented == expected


def test_the_default_transport_is_a_trimmed_string() -> None:
    assert EditorSettings().default_transport == ""
    loaded = load_section(EditorSettings, options={"defaultTransport": " A4HK900103 "})
    assert loaded.default_transport == "A4HK900103"
    with pytest.raises(ConfigurationError, match="defaultTransport must be a string"):
        load_section(EditorSettings, options={"defaultTransport": 900103})


def test_inlay_hints_are_off_unless_a_boolean_turns_them_on() -> None:
    assert EditorSettings().inlay_hints is False
    assert load_section(EditorSettings, options={"inlayHints": True}).inlay_hints is True
    with pytest.raises(ConfigurationError, match="inlayHints"):
        load_section(EditorSettings, options={"inlayHints": "sometimes"})
