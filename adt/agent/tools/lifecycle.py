"""``manageObject``: create an object of a kind the development loop creates (class …
function module, the CDS and RAP sources, tables and structures: ``adt.workbench.objects``)
in a package, or delete one. The write policy applies to both; a transportable
package without ``transport`` is TRANSPORT_REQUIRED naming the candidates, and nothing is
created."""

from __future__ import annotations

import re
from typing import Any

from adt.agent.registry import OBJECT, TRANSPORT, ToolCall, ToolDefinition
from adt.kinds import KINDS as ALL_KINDS
from adt.source.errors import InvalidArgument, WriteRefused
from adt.workbench.objects import KINDS

KIND_NAMES = list(KINDS)  # the registry's creatable kinds (adt.workbench.objects)

#: Kinds created here but never deleted here: a database table holds data.
_KEPT = frozenset({"TABL/DT"})
DELETABLE_KINDS = [name for name, code in KINDS.items() if code not in _KEPT]


async def manage(call: ToolCall, args: dict[str, Any]) -> Any:
    if args["action"] == "delete":
        if "objectUrl" not in args:
            raise InvalidArgument("delete needs objectUrl")
        url = call.service.resolve(args["objectUrl"]).ref.object_url
        refuse_undeletable(url)
        await call.workbench.objects.delete(url, transport=args.get("transport"))
        return {"objectUrl": url, "deleted": True}
    return await _create(call, args)


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
    created = await call.workbench.objects.create(
        NewObject(
            args["kind"],
            args["name"],
            args["description"],
            args.get("package", ""),
            args.get("transport"),
            args.get("functionGroup"),
            bool(args.get("testClasses", False)),
        )
    )
    data: dict[str, Any] = created.to_dict()
    read = await call.service.get_source_v2(created.object_url)
    data.update(token=read.token, lineCount=read.line_count)
    if created.test_classes_url:
        tests = await call.service.get_source_v2(created.object_url, include_type="testclasses")
        data.update(testClassesToken=tests.token, testClassesLineCount=tests.line_count)
    data["notes"] = [
        "created inactive with the system's skeleton; write it with setObjectSourceV2 "
        "(this token; testClassesToken for the test-class include), then activate"
    ]
    return data


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
        "inactive: write, then activate. TRANSPORT_REQUIRED lists candidates.",
        {
            "action": {"type": "string", "enum": ["create", "delete"]},
            "kind": {"type": "string", "enum": KIND_NAMES},
            "name": {"type": "string", "minLength": 1, "maxLength": 40},
            "description": {"type": "string", "minLength": 1, "maxLength": 60},
            "package": {"type": "string", "minLength": 1, "maxLength": 30},
            "functionGroup": {"type": "string", "minLength": 1, "maxLength": 26},
            "testClasses": {"type": "boolean"},
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
