"""Agent tools over the source operations, independent of any protocol (MCP, LSP channel)."""

from adt.agent.executor import AgentTools, DocumentViews, ToolOutcome
from adt.agent.policy import WritePolicy
from adt.agent.schemas import TOOLS, ToolDefinition

__all__ = ["TOOLS", "AgentTools", "DocumentViews", "ToolDefinition", "ToolOutcome", "WritePolicy"]
