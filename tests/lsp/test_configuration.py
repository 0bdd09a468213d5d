"""Configuration errors reach the editor as a message naming the key; the server keeps
running (on defaults) instead of dying with a traceback."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import client_capabilities
from support.lsp_editor import EditorClient, server_config


@pytest_lsp.fixture(
    config=server_config("config", MCP_CACHE_TTL="abc"),
)
async def client(lsp_client: EditorClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options={"pollInterval": 0, "lockMode": "onEdit"},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_a_bad_environment_value_is_shown_and_the_server_runs_on(
    client: EditorClient,
) -> None:
    await client.until(lambda: bool(client.messages))
    shown = client.messages[0]
    assert shown.type == types.MessageType.Error
    assert "MCP_CACHE_TTL (for cacheTtl) must be a whole number" in shown.message
    assert "using the defaults" in shown.message
    with pytest.raises(JsonRpcException, match="no SAP system is configured"):
        await client.protocol.send_request_async("adt/searchObjects", {"query": "Z*"})


async def test_a_bad_runtime_setting_is_shown(client: EditorClient) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"abap-adt": {"lockMode": "sometimes"}})
    )
    await client.until(lambda: any("lockMode" in m.message for m in client.messages))
    message = next(m for m in client.messages if "lockMode" in m.message)
    assert message.type == types.MessageType.Error
    assert "setting lockMode must be onSave or onEdit" in message.message
