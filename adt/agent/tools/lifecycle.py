"""``manageObject``: create an object of a kind the development loop creates (class …
function module, the CDS and RAP sources, tables and structures, the metadata kinds:
``adt.workbench.objects``) in a package, delete one, or publish or unpublish a service
binding. The write policy applies to all; a transportable package without ``transport`` is
TRANSPORT_REQUIRED naming the candidates, and nothing is created."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from adt.agent.registry import OBJECT, TRANSPORT, ToolCall, ToolDefinition
from adt.kinds import KINDS as ALL_KINDS
from adt.source.changes import Change, check_patch_lines
from adt.source.errors import InvalidArgument, WriteRefused
from adt.source.lines import Patch
from adt.workbench.objects import KINDS

if TYPE_CHECKING:
    from adt.source import SourceRead, WriteOutcome

KIND_NAMES = list(KINDS)  # the registry's creatable kinds (adt.workbench.objects)

#: Kinds created here but never deleted here: a database table holds data.
_KEPT = frozenset({"TABL/DT"})
DELETABLE_KINDS = [name for name, code in KINDS.items() if code not in _KEPT]


async def manage(call: ToolCall, args: dict[str, Any]) -> Any:
    action = args["action"]
    if action == "create":
        return await _create(call, args)
    if "objectUrl" not in args:
        raise InvalidArgument(f"{action} needs objectUrl")
    url = call.service.resolve(args["objectUrl"]).ref.object_url
    if action in _PUBLISHING:
        return await _publish(call, url, action == "publish")
    refuse_undeletable(url)
    await call.workbench.objects.delete(url, transport=args.get("transport"))
    return {"objectUrl": url, "deleted": True}


_PUBLISHING = ("publish", "unpublish")


async def _publish(call: ToolCall, url: str, publish: bool) -> Any:
    """A service binding's local endpoint published or withdrawn (the system's verdict)."""
    kind = ALL_KINDS.for_url(url)
    if kind is None or kind.code != "SRVB/SVB":
        raise InvalidArgument(f"only a service binding is published, not {url}", objectUrl=url)
    outcome = await call.workbench.metadata.publish(url, publish=publish)
    return outcome.to_dict()


def _collection_pattern(code: str) -> str:
    kind = ALL_KINDS.get(code)
    assert kind is not None, code
    return re.escape(kind.collection).replace(re.escape("{group}"), "[^/]+")


_DELETABLE = re.compile(
    r"^/sap/bc/adt/(?:"
    + "|".join(_collection_pattern(KINDS[name]) for name in DELETABLE_KINDS)
    + r")/[^/]+$"
)


def refuse_undeletable(object_url: str) -> None:
    """Only the kinds this tool creates (a database table excepted) may be deleted through
    it: never a package, a transport request or anything else an object URL could name."""
    if not _DELETABLE.match(object_url):
        raise WriteRefused(
            f"manageObject delete refused: {object_url} is not a {', '.join(DELETABLE_KINDS)}; "
            "packages, transport requests, database tables and other objects are deleted in "
            "SAP's own tools",
            tool="manageObject",
            objectUrl=object_url,
            deletableKinds=DELETABLE_KINDS,
        )


async def _create(call: ToolCall, args: dict[str, Any]) -> Any:
    from adt.workbench.objects import NewObject

    missing = [k for k in ("kind", "name", "description") if k not in args]
    if missing:
        raise InvalidArgument(f"create needs {', '.join(missing)}")
    tests = args.get("testClasses")
    if isinstance(tests, str) and args["kind"] != "class":
        raise InvalidArgument("testClasses holds a class's test classes: only for kind class")
    if args.get("activate") and "source" not in args:
        raise InvalidArgument("activate needs source: a new object is only its skeleton")
    sources = _texts(args)
    for text in sources:  # refused before anything is created
        check_patch_lines(Patch.from_content(1, 0, text))
    created = await call.workbench.objects.create(
        NewObject(
            args["kind"],
            args["name"],
            args["description"],
            args.get("package", ""),
            args.get("transport"),
            args.get("functionGroup"),
            bool(tests),
            template="basedOn" in args,
            based_on=args.get("basedOn", "").upper(),
        )
    )
    data: dict[str, Any] = created.to_dict()
    parts: list[tuple[str | None, str, str, object]] = [
        (None, "token", "lineCount", args.get("source"))
    ]
    if created.test_classes_url:
        parts.append(("testclasses", "testClassesToken", "testClassesLineCount", tests))
    for include, token_key, count_key, given in parts:
        read = await call.service.get_source_v2(created.object_url, include_type=include)
        data.update({token_key: read.token, count_key: read.line_count})
        if isinstance(given, str):
            written = await _write_skeleton(call, created.object_url, include, read, given)
            data.update({token_key: written.token, count_key: written.line_count})
    if args.get("activate"):
        data["activation"] = (await call.service.activate(created.object_url)).to_dict()
        return data
    written_note = "written with your source" if sources else "with the system's skeleton"
    data["notes"] = [
        f"created inactive, {written_note}; change it with setObjectSourceV2 (this token; "
        "testClassesToken for the test-class include), then activate"
    ]
    return data


def _texts(args: dict[str, Any]) -> list[str]:
    """The sources given for the new object (checked before anything is created)."""
    tests = args.get("testClasses")
    return [t for t in (args.get("source"), tests) if isinstance(t, str)]


async def _write_skeleton(
    call: ToolCall, object_url: str, include: str | None, read: SourceRead, text: str
) -> WriteOutcome:
    """Replace the fresh skeleton with ``text``, checked against the skeleton's token (a
    colleague who got there first is a conflict, not overwritten)."""
    whole = Change.of(1, read.line_count, text, None, None, False)
    return await call.service.set_source_v2(
        object_url,
        token=read.token,
        include_type=include,
        change=whole,
        owner=call.lock_owner(object_url),
    )


def _new_target(args: dict[str, Any]) -> tuple[str, str, str] | None:
    """A new object is not known to the system yet: check its own name and package."""
    if args.get("action") != "create" or "name" not in args:
        return None
    from adt.urls import object_url

    code = KINDS.get(args.get("kind", ""))
    if code is None:
        return None
    url = object_url(code, args["name"], group=args.get("functionGroup"))
    return url, args["name"].upper(), args.get("package", "").upper()


TOOLS = (
    ToolDefinition(
        "manageObject",
        "Create (kind, name, description, package; transport if transportable; functionGroup "
        "of a function module; testClasses) or delete (objectUrl) an object. New objects are "
        "inactive; source (and testClasses as text) is written at once, activate: true "
        "activates; basedOn: a CDS template's data source, a binding's service definition. "
        "(Un)publish a service binding. TRANSPORT_REQUIRED lists candidates.",
        {
            "action": {"type": "string", "enum": ["create", "delete", *_PUBLISHING]},
            "kind": {"type": "string", "enum": KIND_NAMES},
            "name": {"type": "string", "minLength": 1, "maxLength": 40},
            "description": {"type": "string", "minLength": 1, "maxLength": 60},
            "package": {"type": "string", "minLength": 1, "maxLength": 30},
            "functionGroup": {"type": "string", "minLength": 1, "maxLength": 26},
            "testClasses": {"type": ["boolean", "string"]},
            "source": {"type": "string"},
            "activate": {"type": "boolean"},
            "basedOn": {"type": "string", "minLength": 1, "maxLength": 40},
            "objectUrl": OBJECT,
            "transport": TRANSPORT,
        },
        manage,
        required=("action",),
        destructive=True,
        writes=True,
        policy_target=_new_target,
    ),
)
