"""MCP bridge: the V2 source operations as MCP tools, shareable with a running editor."""
