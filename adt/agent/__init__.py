"""The agent tool core: tools over the source operations, independent of any protocol.

The MCP bridge exposes these tools; the language server runs them for agents that pass their
calls through the editor (see :mod:`adt.agent.channel`).
"""

from adt.agent.executor import AgentTools, ToolOutcome
from adt.agent.policy import WritePolicy
from adt.agent.registry import DocumentViews, ToolCall, ToolDefinition
from adt.agent.tools import BY_NAME, TOOLS

__all__ = [
    "BY_NAME",
    "TOOLS",
    "AgentTools",
    "DocumentViews",
    "ToolCall",
    "ToolDefinition",
    "ToolOutcome",
    "WritePolicy",
]
