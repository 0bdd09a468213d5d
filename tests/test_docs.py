"""The documentation's examples are real: JSON snippets parse and start the right command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
BLOCK = re.compile(r"```json\n(.*?)```", re.S)


def _snippets(name: str) -> list[str]:
    return BLOCK.findall((DOCS / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("snippet", _snippets("mcp.md"))
def test_mcp_configuration_snippets_are_valid_json(snippet: str) -> None:
    data = json.loads(snippet)
    servers = data.get("mcpServers") or data.get("servers")
    if servers is None:  # an answer example, not a configuration
        assert "status" in data or "error" in data
        return
    entry = servers["abap-adt"]
    if entry.get("type") == "http":
        assert entry["url"].startswith("http://127.0.0.1:") and entry["url"].endswith("/mcp")
        assert entry["headers"]["Authorization"].startswith("Bearer ")
    else:
        assert entry["command"] == "abap-adt" and entry["args"][0] == "mcp"


def test_every_client_in_the_issue_has_a_snippet() -> None:
    text = (DOCS / "mcp.md").read_text(encoding="utf-8")
    for client in ("Claude Desktop", "Claude Code", "Cursor", "VS Code"):
        assert f"**{client}**" in text
    assert len(_snippets("mcp.md")) >= 6


ROOT = DOCS.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
PAGES = sorted(
    [
        *DOCS.rglob("*.md"),
        ROOT / "README.md",
        *ROOT.glob("editors/*/README.md"),
        *ROOT.glob("bench/results/*.md"),
    ]
)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_somewhere(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = [
        target
        for target in LINK.findall(text)
        if "://" not in target
        and not target.startswith("mailto:")
        and not (page.parent / target).exists()
    ]
    assert broken == [], f"{page.name} links to missing files: {broken}"


TOML = re.compile(r"```toml\n(.*?)```", re.S)


@pytest.mark.parametrize("snippet", TOML.findall((DOCS / "systems.md").read_text(encoding="utf-8")))
def test_systems_md_configurations_load(snippet: str, tmp_path: Path) -> None:
    """Every systems.toml example of docs/systems.md is read without a configuration error
    (a service key file it names may be missing: that alone makes the system unusable)."""
    from adt.systems import load_settings
    from adt.systems.passwords import MissingPassword

    config = tmp_path / "systems.toml"
    config.write_text(snippet, encoding="utf-8")
    env = {"DEV_ADT_PASSWORD": "x", "QAS_P12_PASSPHRASE": "x"}
    if "service_key" in snippet:  # a key file of the reader's: absent here
        with pytest.raises(MissingPassword, match=r"service key file .* does not exist"):
            load_settings(env=env, config_file=config, keyring_get=lambda s, u: "x")
        return
    settings = load_settings(env=env, config_file=config, keyring_get=lambda s, u: "x")
    assert settings.systems.names or "[systems." not in snippet
