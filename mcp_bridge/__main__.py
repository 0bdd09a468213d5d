"""``python -m mcp_bridge``: the MCP bridge on stdio (same as ``abap-adt mcp``)."""

import sys

from adt.cli import main

sys.exit(main(["mcp", *sys.argv[1:]]))
