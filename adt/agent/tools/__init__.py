"""Every agent tool, in the order agents see them. A new tool is a :class:`ToolDefinition`
beside its handler in one of these modules (or a new one), listed here once."""

from adt.agent.registry import ToolDefinition
from adt.agent.tools import history, lifecycle, navigation, objects, source, transports

TOOLS: tuple[ToolDefinition, ...] = (
    *source.TOOLS,
    *objects.TOOLS,
    *navigation.TOOLS,
    *lifecycle.TOOLS,
    *transports.TOOLS,
    *history.TOOLS,
)
BY_NAME = {tool.name: tool for tool in TOOLS}

__all__ = ["BY_NAME", "TOOLS"]
