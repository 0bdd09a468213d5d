"""How an agent tool is declared: its name, description, input schema and handler, together.

Every tool is one :class:`ToolDefinition` in one of the modules of :mod:`adt.agent.tools`,
next to the function that runs it; the executor, the MCP face and the passthrough channel all
read the same definitions. Every schema forbids unknown arguments, so a typo is a clear error
instead of a silently ignored argument.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from adt.source.errors import READ_SOURCE, TRANSPORT_ACTION

if TYPE_CHECKING:
    from adt.source import SourceService, WriteOutcome
    from adt.workbench import Workbench

WORDS = {READ_SOURCE: "getObjectSourceV2", TRANSPORT_ACTION: "transports"}
"""How agents call the source layer's operations (``retryAction`` in error answers)."""

INCLUDES = ["main", "definitions", "implementations", "macros", "testclasses"]

OBJECT = {"type": "string", "description": "URL or TYPE:NAME"}
SOURCE = {"type": "string", "description": ".../source/main or .../includes/<type>"}
INCLUDE = {"type": "string", "enum": INCLUDES}
LINE = {"type": "integer", "minimum": 1}
TOKEN = {"type": "string", "description": "Token from getObjectSourceV2 or the last write"}
LOCK = {"type": "string", "description": "From lock; omit to lock just for this write"}
TRANSPORT = {"type": "string", "description": "Transport request (corrNr)"}
VERSION = {"type": "string", "enum": ["active", "inactive", "workingArea"]}
TARGET = {"objectUrl": OBJECT, "objectSourceUrl": SOURCE, "includeType": INCLUDE}
TARGET_REQUIRED = (("objectUrl",), ("objectSourceUrl",))
COMMON = {"system": {"type": "string"}, "workspace": {"type": "string"}}
"""Taken by every tool; what they mean is said once, in the bridge's instructions."""

Build = Callable[[str], str]


class DocumentViews(Protocol):
    """An editor's view of open documents (the language server implements it): writes to an
    open document go through the editor so its unsaved edits are respected and it shows the
    result."""

    def view(self, system: str, object_url: str, include: str) -> Any | None: ...

    async def write_through(
        self,
        view: Any,
        token: str | None,
        build: Build,
        *,
        lock_handle: str | None,
        transport: str | None,
    ) -> WriteOutcome: ...

    def lock_owner(self, object_url: str) -> str | None: ...


@dataclass(frozen=True)
class ToolCall:
    """What one tool call runs with: the system's service, who owns the locks it takes, its
    response limit and the editor's documents (in passthrough)."""

    service: SourceService
    owner: str
    limit: int
    views: DocumentViews | None = None
    workbench_of: Callable[[], Workbench] | None = field(default=None, repr=False)
    data_preview: bool = False
    #: The write policy for one more object a call changes (a rename's other objects).
    may_write: Callable[[str], Awaitable[None]] | None = field(default=None, repr=False)
    #: The write policy for an object a call creates (URL, name, package): a renamed class.
    may_create: Callable[[str, str, str], Awaitable[None]] | None = field(default=None, repr=False)

    @property
    def workbench(self) -> Workbench:
        """The development-loop operations of this call's system."""
        if self.workbench_of is None:
            from adt.workbench import Workbench

            return Workbench(self.service)
        return self.workbench_of()

    def view(self, url: str | None, include: str | None) -> Any | None:
        """The editor's open document for this source, if any."""
        if self.views is None:
            return None
        ref = self.service.resolve(url, None, include).ref
        return self.views.view(self.service.system, ref.object_url, ref.include)

    def lock_owner(self, object_url: str) -> str:
        """Whom a write's own short lock belongs to: shared with the editor where there is
        one (so the agent can write under the editor's lock), else this call's owner."""
        shared = self.views.lock_owner(object_url) if self.views else None
        return shared or self.owner

    def lock_handle(self, object_url: str, given: str | None) -> str | None:
        """The lock a write runs under: the one passed, else the one this agent took with
        ``lock`` (None: the write locks for itself)."""
        if given:
            return given
        held = self.service.locks_of(self.owner).get(object_url)
        return held.lock_handle if held is not None else None


Handler = Callable[[ToolCall, dict[str, Any]], Awaitable[Any]]
Fit = Callable[[dict[str, Any], int], None]
WritesIf = Callable[[dict[str, Any]], bool]
PolicyTarget = Callable[[dict[str, Any]], "tuple[str, str, str] | None"]
"""(object URL, name, package) of an object a call changes that the system does not know yet
(a creation); ``None``: ask the system, as for any existing object."""


@dataclass(frozen=True)
class ToolDefinition:
    """One agent tool. ``writes``: refused in read-only mode and outside the allowlist
    (``writes_if``: only the calls it says yes to, for tools with read and write actions).
    ``fit`` shrinks an answer that exceeds the response limit (cut lists say how to go on)."""

    name: str
    description: str
    properties: dict[str, Any]
    handler: Handler = field(repr=False, compare=False)
    required: tuple[str, ...] = ()
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    writes: bool = False
    one_of: tuple[tuple[str, ...], ...] = ()
    fit: Fit | None = field(default=None, repr=False, compare=False)
    writes_if: WritesIf | None = field(default=None, repr=False, compare=False)
    policy_target: PolicyTarget | None = field(default=None, repr=False, compare=False)
    #: the handler checks every object it writes itself (``ToolCall.may_write``), as a call
    #: by name finds them only while it runs: no object named in the arguments is checked
    #: up front then
    checks_each_write: bool = False

    def changes(self, args: dict[str, Any]) -> bool:
        """Whether this call changes something (and so answers to the write policy)."""
        if self.writes_if is not None:
            return self.writes_if(args)
        return self.writes

    @property
    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {**self.properties, **COMMON},
            "additionalProperties": False,
        }
        if self.required:
            schema["required"] = list(self.required)
        if self.one_of:
            schema["anyOf"] = [{"required": list(names)} for names in self.one_of]
        return schema
