"""Anchor: a bare MCP SDK server over streamable HTTP (stateless, JSON answers), with one
tool that answers a fixed payload of the size of a 100-line read. It is the floor an MCP
server on this SDK and transport cannot go below; the bridge benchmarks run it beside ours.

    python bench/anchors/bare_mcp_server.py PORT [PAYLOAD_BYTES] [freeze]   (streamable HTTP)
    python bench/anchors/bare_mcp_server.py stdio                           (stdio)

With ``freeze`` the objects alive once the app is built are frozen (``gc.freeze()``), as the
bridge does: the floor for latency under load without full collections walking the SDK.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp.server import Server, ServerRequestContext
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

STDIO = sys.argv[1] == "stdio"
PORT = 0 if STDIO else int(sys.argv[1])
SIZE = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
PAYLOAD: dict[str, Any] = {"status": "success", "data": {"content": "x" * SIZE}}


async def list_tools(
    ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
) -> ListToolsResult:
    return ListToolsResult(
        tools=[Tool(name="read", description="fixed answer", input_schema={"type": "object"})]
    )


async def call_tool(
    ctx: ServerRequestContext[Any], params: CallToolRequestParams
) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(PAYLOAD))],
        structured_content=PAYLOAD,
        is_error=False,
    )


server = Server("bare", on_list_tools=list_tools, on_call_tool=call_tool)


async def _stdio() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if STDIO:
    import anyio

    anyio.run(_stdio)
else:
    import uvicorn

    app = server.streamable_http_app(stateless_http=True, json_response=True, host="127.0.0.1")
    if sys.argv[3:] == ["freeze"]:
        import gc

        gc.collect()
        gc.freeze()
    uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning", access_log=False)
