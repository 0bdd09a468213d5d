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


def _loaded(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    return list(json.loads(result.stdout.strip().splitlines()[-1]))


def test_the_language_server_starts_without_heavy_modules() -> None:
    loaded = _loaded("from lsp_server.factory import create_server\ncreate_server()")
    assert [m for m in (*HEAVY, "adt.agent.executor") if m in loaded] == []
    assert not [m for m in loaded if m == "mcp" or m.startswith("mcp.")], "no MCP at all"


def test_the_bridge_lists_its_tools_without_heavy_modules() -> None:
    code = (
        "from mcp_bridge.server import make_bridge, tool_list\n"
        "make_bridge(passthrough=True)\n"
        "assert len(tool_list()) >= 12\n"
    )
    loaded = _loaded(code)
    assert [m for m in HEAVY if m in loaded] == []
    assert "mcp_bridge.http" not in loaded, "the HTTP transport only when asked for"


def test_a_client_with_basic_logon_loads_no_other_logon_method_nor_the_regex_engine() -> None:
    code = (
        "from adt.client import AdtClient\nfrom adt.profile import ConnectionProfile\n"
        "import lsp_server.workspace, adt.source.service\n"
        "AdtClient(ConnectionProfile(base_url='https://a4h.example', user='U', password='p'))\n"
    )
    loaded = _loaded(code)
    later = ("regex", "adt.auth.oauth", "adt.auth.browser", "adt.auth.certificate", "webbrowser")
    assert [m for m in later if m in loaded] == []
