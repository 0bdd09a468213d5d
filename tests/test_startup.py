"""Start-up imports only what the first answer needs: the language server answers
``initialize`` and the bridge ``tools/list`` without loading the HTTP client, the XML parser,
the schema validator, the regex engine or the emulator — a session may never need them."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "httpx",
    "lxml.etree",
    "jsonschema",
    "regex",
    "adt.client",
    "adt._session",
    "adt.emulator",
)


def _snapshots(code: str) -> list[list[str]]:
    """The loaded modules at each ``print(json.dumps(sorted(sys.modules)))`` of ``code`` and
    at its end."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    lines = result.stdout.strip().splitlines()
    return [list(json.loads(line)) for line in lines if line.startswith("[")]


def _loaded(code: str) -> list[str]:
    return _snapshots(code)[-1]


def test_the_language_server_starts_without_heavy_modules() -> None:
    code = (
        "from lsp_server.factory import create_server\ncreate_server()\n"
        "import json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
        # then what opening a document loads: a client with basic logon, the workspace
        "from adt.client import AdtClient\nfrom adt.profile import ConnectionProfile\n"
        "import lsp_server.workspace, adt.source.service\n"
        "AdtClient(ConnectionProfile(base_url='https://a4h.example', user='U', password='p'))\n"
    )
    at_start, loaded = _snapshots(code)
    assert [m for m in (*HEAVY, "adt.agent.executor") if m in at_start] == []
    assert not [m for m in at_start if m == "mcp" or m.startswith("mcp.")], "no MCP at all"
    # the semantic tokens' legend is announced at start; the index behind them loads later
    assert [m for m in ("adt.abap.highlight", "adt.abap.index") if m in at_start] == []
    # the regex engine loads with the first grep, other logon methods when a profile uses them
    later = ("regex", "adt.auth.oauth", "adt.auth.browser", "adt.auth.certificate", "webbrowser")
    # and the ADT areas beyond reading sources with their first use (3.4 MB together)
    later += tuple(f"adt.areas.{area}" for area in ("atc", "unit", "refactoring", "navigation"))
    later += tuple(f"adt.areas.{area}" for area in ("completion", "transports", "dictionary"))
    assert "adt.client" in loaded and [m for m in later if m in loaded] == []


def test_the_bridge_lists_its_tools_without_heavy_modules() -> None:
    code = (
        "from mcp_bridge.server import make_bridge, tool_list\n"
        "make_bridge(passthrough=True)\n"
        "assert len(tool_list()) >= 12\n"
    )
    loaded = _loaded(code)
    assert [m for m in HEAVY if m in loaded] == []
    assert "mcp_bridge.http" not in loaded, "the HTTP transport only when asked for"
