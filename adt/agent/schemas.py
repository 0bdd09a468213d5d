"""The agent tools: names, descriptions and input schemas (JSON Schema, kept compact).

Twelve tools, named as in the V2 design. Every schema forbids unknown arguments, so a typo is a
clear error instead of a silently ignored argument. Descriptions say what the tool is for and
how the tools work together; the parameter texts stay short because every byte here is sent to
the agent with the tool list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

INCLUDES = ["main", "definitions", "implementations", "macros", "testclasses"]

_OBJECT = {"type": "string", "description": "ADT object URL, e.g. /sap/bc/adt/oo/classes/zcl_x"}
_SOURCE = {"type": "string", "description": "Source URL (…/source/main, …/includes/<type>)"}
_INCLUDE = {"type": "string", "enum": INCLUDES, "description": "Class part; ignored otherwise"}
_LINE = {"type": "integer", "minimum": 1}
_TOKEN = {"type": "string", "description": "Token from getObjectSourceV2 or the last write"}
_LOCK = {"type": "string", "description": "From lock; omit to lock just for this write"}
_TRANSPORT = {"type": "string", "description": "Transport request (corrNr)"}
_VERSION = {"type": "string", "enum": ["active", "inactive", "workingArea"]}
COMMON = {
    "system": {"type": "string", "description": "System name; default: the first configured"},
    "workspace": {"type": "string", "description": "Editor workspace to route to"},
}


@dataclass(frozen=True)
class ToolDefinition:
    name: str
    description: str
    properties: dict[str, Any]
    required: tuple[str, ...] = ()
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    writes: bool = False  # refused in read-only mode and outside the allowlist
    one_of: tuple[tuple[str, ...], ...] = field(default=())

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


_TARGET = {"objectUrl": _OBJECT, "objectSourceUrl": _SOURCE, "includeType": _INCLUDE}
_TARGET_REQUIRED = (("objectUrl",), ("objectSourceUrl",))

TOOLS: tuple[ToolDefinition, ...] = (
    ToolDefinition(
        "getObjectSourceV2",
        "Read lines of an ABAP source with its version token. Lines are 1-based and "
        "inclusive; omit startLine/endLine for all. Pass the token to setObjectSourceV2. "
        "A cut answer says truncated and nextStartLine.",
        {**_TARGET, "startLine": _LINE, "endLine": _LINE, "version": _VERSION},
        read_only=True,
        idempotent=True,
        one_of=_TARGET_REQUIRED,
    ),
    ToolDefinition(
        "grepObjectSource",
        "Search an ABAP source on the server (regular expression, per line) and return only "
        "matching lines with their numbers and optional context. truncated means more "
        "matches exist: continue with startLine=nextStartLine.",
        {
            **_TARGET,
            "pattern": {"type": "string", "minLength": 1},
            "caseInsensitive": {"type": "boolean"},
            "contextLines": {"type": "integer", "minimum": 0, "maximum": 50},
            "maxMatches": {"type": "integer", "minimum": 1, "maximum": 1000},
            "startLine": _LINE,
            "endLine": _LINE,
        },
        required=("pattern",),
        read_only=True,
        idempotent=True,
        one_of=_TARGET_REQUIRED,
    ),
    ToolDefinition(
        "setObjectSourceV2",
        'Replace lines startLine..endLine with content ("" deletes; endLine=startLine-1 '
        "inserts), or apply several patches at once, only if the source still matches token: "
        "a stale token is refused with VERSION_CONFLICT and nothing is written. Locks and "
        "unlocks by itself unless lockHandle is given. Returns the new token.",
        {
            **_TARGET,
            "token": _TOKEN,
            "startLine": _LINE,
            "endLine": {"type": "integer", "minimum": 0},
            "content": {"type": "string"},
            "patches": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "startLine": _LINE,
                        "endLine": {"type": "integer", "minimum": 0},
                        "content": {"type": "string"},
                    },
                    "required": ["startLine", "endLine", "content"],
                    "additionalProperties": False,
                },
            },
            "lockHandle": _LOCK,
            "transport": _TRANSPORT,
            "skipConflictCheck": {"type": "boolean", "description": "Not recommended"},
        },
        required=("token",),
        destructive=True,
        writes=True,
        one_of=_TARGET_REQUIRED,
    ),
    ToolDefinition(
        "replaceInObjectSource",
        "Replace the single occurrence of oldString with newString (line endings do not "
        "matter). Zero or several occurrences are an error listing them. With token, only "
        "if the source is unchanged.",
        {
            **_TARGET,
            "oldString": {"type": "string", "minLength": 1},
            "newString": {"type": "string"},
            "token": _TOKEN,
            "lockHandle": _LOCK,
            "transport": _TRANSPORT,
        },
        required=("oldString", "newString"),
        destructive=True,
        writes=True,
        one_of=_TARGET_REQUIRED,
    ),
    ToolDefinition(
        "getObjectSource",
        "V1: read a whole source (no token). Prefer getObjectSourceV2 for large sources.",
        {"objectSourceUrl": _SOURCE, "version": _VERSION},
        required=("objectSourceUrl",),
        read_only=True,
        idempotent=True,
    ),
    ToolDefinition(
        "setObjectSource",
        "V1: replace a whole source without any version check (may overwrite others' "
        "changes). Prefer setObjectSourceV2.",
        {
            "objectSourceUrl": _SOURCE,
            "source": {"type": "string"},
            "lockHandle": _LOCK,
            "transport": _TRANSPORT,
        },
        required=("objectSourceUrl", "source"),
        destructive=True,
        idempotent=True,
        writes=True,
    ),
    ToolDefinition(
        "lock",
        "Lock an object for several writes; returns lockHandle and transport info. Release it "
        "with unLock. Writes without lockHandle lock by themselves.",
        {"objectUrl": _OBJECT},
        required=("objectUrl",),
        idempotent=True,
        writes=True,
    ),
    ToolDefinition(
        "unLock",
        "Release a lock taken with lock.",
        {"objectUrl": _OBJECT, "lockHandle": _LOCK},
        required=("objectUrl",),
        idempotent=True,
    ),
    ToolDefinition(
        "objectStructure",
        "Metadata of an object: name, type, package, change stamps, and for classes the "
        "includes with their source URLs.",
        {"objectUrl": _OBJECT},
        required=("objectUrl",),
        read_only=True,
        idempotent=True,
    ),
    ToolDefinition(
        "searchObjects",
        "Find objects by name (* is the wildcard), e.g. ZCL_*; optional type such as CLAS, "
        "PROG, INTF, FUGR.",
        {
            "query": {"type": "string", "minLength": 1},
            "objectType": {"type": "string"},
            "maxResults": {"type": "integer", "minimum": 1, "maximum": 200},
        },
        required=("query",),
        read_only=True,
        idempotent=True,
    ),
    ToolDefinition(
        "syntaxCheck",
        "Run the ABAP syntax check on the stored source, or on content (unsaved text of one "
        "include). Returns findings with lines.",
        {"objectUrl": _OBJECT, "includeType": _INCLUDE, "content": {"type": "string"}},
        required=("objectUrl",),
        read_only=True,
        idempotent=True,
    ),
    ToolDefinition(
        "activate",
        "Activate an object after writing (unlock first). Returns whether it was activated "
        "and the error messages with lines.",
        {"objectUrl": _OBJECT},
        required=("objectUrl",),
        idempotent=True,
        writes=True,
    ),
)

BY_NAME = {tool.name: tool for tool in TOOLS}
