"""``python -m mcp_bridge``: the MCP bridge on stdio (same as ``abap-adt mcp``)."""

import sys

from adt.heap import pause_collection

pause_collection()  # until the server is built: see adt.heap
from mcp_bridge.arguments import parser  # noqa: E402
from mcp_bridge.server import run_from_args  # noqa: E402

sys.exit(run_from_args(parser().parse_args()))
