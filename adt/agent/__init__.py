"""The agent tool core: tools over the source operations, independent of any protocol.

The MCP bridge exposes these tools; the language server runs them for agents that pass their
calls through the editor (see :mod:`adt.agent.channel`). Names are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt._lazy import lazy_names

if TYPE_CHECKING:
    from adt.agent.executor import AgentTools, ToolOutcome
    from adt.agent.policy import WritePolicy
    from adt.agent.registry import DocumentViews, ToolCall, ToolDefinition
    from adt.agent.tools import BY_NAME, TOOLS

_WHERE = {
    "AgentTools": "adt.agent.executor",
    "BY_NAME": "adt.agent.tools",
    "DocumentViews": "adt.agent.registry",
    "TOOLS": "adt.agent.tools",
    "ToolCall": "adt.agent.registry",
    "ToolDefinition": "adt.agent.registry",
    "ToolOutcome": "adt.agent.executor",
    "WritePolicy": "adt.agent.policy",
}

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


__getattr__ = lazy_names(__name__, globals(), _WHERE)
