"""``python -m mcp_bridge``: the MCP bridge on stdio (same as ``abap-adt mcp``)."""

import sys

from mcp_bridge.arguments import parser
from mcp_bridge.server import run_from_args

sys.exit(run_from_args(parser().parse_args()))
