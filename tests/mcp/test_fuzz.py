"""Fuzzing the tool arguments: nothing crashes, and every failure is a clear error.

Two kinds: arbitrary arguments (almost all refused by validation, INVALID_ARGUMENT), and
arguments built from each tool's input schema, so that the calls get past validation into
the source operations, the write policy and the emulator."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mcp import Client
from support.emulated import GREETER, LARGE, REPORT, USERS

from adt import AdtClient, ConnectionProfile
from adt.agent import TOOLS, AgentTools
from adt.emulator import Emulator
from adt.source import SourceConfig
from adt.source.errors import ALL_ERRORS
from adt.systems import Connections, SystemsConfig
from mcp_bridge.server import make_bridge

CODES = {cls.code for cls in ALL_ERRORS}
NAMES = [tool.name for tool in TOOLS]
KEYS = sorted({key for tool in TOOLS for key in tool.input_schema["properties"]})

urls = st.sampled_from(
    [
        REPORT,
        f"{REPORT}/source/main",
        "/sap/bc/adt/oo/classes/zcl_demo_greeter",
        "/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/definitions",
        "/sap/bc/adt/programs/programs/znope",
        "/sap/bc/adt/../../etc/passwd",
        "https://evil.example/sap/bc/adt/x",
        "/sap/bc/adt/x\r\nX: 1",
        "",
    ]
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    urls,
    st.sampled_from(["main", "definitions", "0_empty", "1_0123456789abcdef", "(", ".*"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
arguments = st.dictionaries(
    st.one_of(st.sampled_from(KEYS), st.text(max_size=10)), values, max_size=6
)


def _connections(emulator: Emulator) -> Connections:
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=USERS["DEVELOPER"], name="A4H"
    )  # type: ignore[arg-type]
    return Connections(
        SystemsConfig({"A4H": profile}),
        source_config=SourceConfig(retry_delays=(), grep_timeout_s=0.5),
        client_factory=lambda p: AdtClient(
            p.with_options(retry_delays=()), transport=httpx.ASGITransport(app=emulator.app)
        ),
    )


def _assert_clear(name: str, payload: dict[str, Any], ok: bool) -> None:
    json.dumps(payload)  # always serialisable
    assert isinstance(payload["executionTimeMs"], float)
    if ok:
        assert payload["status"] == "success" and "data" in payload
        return
    assert payload["code"] in CODES, payload
    assert isinstance(payload["error"], str) and len(payload["error"]) > 10, payload
    assert not payload["error"].startswith("unexpected"), f"{name}: {payload['error']}"
    assert isinstance(payload["retry"], bool)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.one_of(st.sampled_from(NAMES), st.text(max_size=12)), args=arguments)
def test_random_arguments_get_results_or_clear_errors(name: str, args: dict[str, Any]) -> None:
    emulator = Emulator(users=USERS)
    tools = AgentTools(_connections(emulator), max_response_chars=20_000)

    async def run() -> None:
        try:
            outcome = await tools.call(name, args)
            _assert_clear(name, outcome.payload, outcome.ok)
        finally:
            await tools.connections.close()

    asyncio.run(run())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), args=arguments)
def test_random_arguments_through_the_mcp_client(name: str, args: dict[str, Any]) -> None:
    emulator = Emulator(users=USERS)

    async def run() -> None:
        server = make_bridge(connections=_connections(emulator), passthrough=False)
        async with Client(server, mode="legacy") as client:
            result = await client.call_tool(name, args)
        payload = json.loads(result.content[0].text)  # type: ignore[union-attr]
        _assert_clear(name, payload, not result.is_error)

    asyncio.run(run())


# --- schema-valid arguments ------------------------------------------------------------------

OBJECTS = [
    REPORT,
    GREETER,
    LARGE,
    "/sap/bc/adt/oo/classes/zcl_demo_counter",
    "/sap/bc/adt/oo/interfaces/zif_demo_greeting",
    "/sap/bc/adt/programs/programs/zdemo_tr_report",
    "/sap/bc/adt/programs/includes/zdemo_include",
    "/sap/bc/adt/functions/groups/zdemo_fg",
    "/sap/bc/adt/functions/groups/zdemo_fg/fmodules/z_demo_add",
]
JUNK_PATHS = [
    "/sap/bc/adt/programs/programs/znope",
    "/sap/bc/adt/oo/classes/zcl_nope",
    "/sap/bc/adt/../../etc/passwd",
    "/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/nope",
    "https://evil.example/sap/bc/adt/x",
    "/sap/bc/adt/x\r\nX: 1",
    "/sap/bc/adt/programs/programs/zdemo_report?x=1#y",
    "",
]
SOURCES = [f"{url}/source/main" for url in OBJECTS[:3]] + [
    f"{GREETER}/includes/definitions",
    f"{GREETER}/includes/testclasses",
    f"{REPORT}/includes/definitions",
]
READ_TOKEN = "@read"  # replaced by the token of a fresh read of the call's target
lines = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60)
STRINGS: dict[str, st.SearchStrategy[str]] = {
    "objectUrl": st.sampled_from(OBJECTS) | st.sampled_from(OBJECTS) | st.sampled_from(JUNK_PATHS),
    "objectSourceUrl": st.sampled_from(SOURCES) | st.sampled_from(JUNK_PATHS),
    "token": st.sampled_from([READ_TOKEN, READ_TOKEN, "0_empty", "1_0123456789abcdef", "x"]),
    "pattern": st.sampled_from(["METHOD", "^REPORT", "(a+)+$", "(", "[", "ENDFORM\\.", ".*"])
    | st.text(min_size=1, max_size=8),
    "query": st.sampled_from(["Z*", "ZDEMO*", "ZCL_DEMO_GREETER", "*", "ZNOPE*"])
    | st.text(min_size=1, max_size=8),
    "objectType": st.sampled_from(["CLAS", "PROG", "INTF", "FUGR", "XXXX"]),
    "system": st.sampled_from(["A4H", "A4H", "A4H", "a4h", "PRD"]),
    "lockHandle": st.sampled_from(["", "nonsense", "ABCDEF0123456789"]),
    "transport": st.sampled_from(["", "A4HK900001", "nonsense"]),
    "oldString": st.sampled_from(["REPORT", "ENDFORM.", "WRITE", "\n"]) | lines.filter(bool),
    "content": st.lists(lines, max_size=4).map("\n".join),
    "source": st.lists(lines, max_size=4).map("\n".join),
    "newString": lines,
    "symbol": st.sampled_from(
        ["greet_all", "zif_demo_greeting~greet", "zcl_demo_greeter public section", "write_footer"]
    )
    | st.text(min_size=1, max_size=12),
    "name": st.sampled_from(
        ["ZCL_DEMO_GREETER", "ZCL_DEMO_GREETER=>greet_all", "Z_DEMO_ADD", "ZFUZZ_NEW", "ZNOPE"]
    )
    | st.text(min_size=1, max_size=12),
    "identifier": st.sampled_from(["greet", "mo_formatter", "capitalize", "REPORT", "nothing"])
    | st.text(min_size=1, max_size=8),
    "package": st.sampled_from(["$ZDEMO", "ZDEMO_TR", "$TMP", "ZNOPE", "$ZDEMO"]),
    "description": st.sampled_from(["Fuzzed", "x" * 60]) | st.text(min_size=1, max_size=60),
    "functionGroup": st.sampled_from(["ZDEMO_FG", "ZNOPE"]),
    "against": st.sampled_from(["active", "00000", "99999", "junk"]),
    "variant": st.sampled_from(["DEFAULT", "OBSOLETE_STATEMENTS", "NOPE"]),
}
OPTIONAL = ["workspace"]  # routing only; a bridge without passthrough ignores it
# Keys the operations need together although the schema cannot say so: one group (or, to
# test the refusal, none) is generated, and the other groups' keys are left out.
GROUPS = {
    "setObjectSourceV2": [
        ("startLine", "endLine", "content"),
        ("startLine", "endLine", "delete"),
        ("symbol", "content"),
        ("patches",),
        (),
    ],
    "navigate": [("name",), ("objectUrl", "line", "identifier"), ("objectUrl", "line", "column")],
    "manageObject": [("kind", "name", "description", "package"), ("objectUrl",), ()],
    "syntaxCheck": [("objectUrl",), ("package", "kind")],
}


def _integers(schema: dict[str, Any]) -> st.SearchStrategy[int]:
    """Within the schema's range: small numbers (inside the sources) and large ones."""
    low = schema.get("minimum", -5)
    high = schema.get("maximum", 10**7)
    return st.integers(low, min(high, low + 60)) | st.integers(low, high)


def from_schema(schema: dict[str, Any], name: str = "", tool: str = "") -> st.SearchStrategy[Any]:
    """Values valid against one of our tool schemas (the subset of JSON Schema they use)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):  # e.g. ["string", "null"]
        return st.one_of(
            [st.none() if k == "null" else from_schema({**schema, "type": k}, name) for k in kind]
        )
    if kind == "string":
        if name in STRINGS:
            return STRINGS[name]
        return st.text(min_size=schema.get("minLength", 0), max_size=20)
    if kind == "integer":
        return _integers(schema)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(
            from_schema(schema["items"], name), min_size=schema.get("minItems", 0), max_size=3
        )
    assert kind == "object", schema
    properties: dict[str, Any] = schema["properties"]
    required = set(schema.get("required", ()))
    alternatives = schema.get("anyOf", [{"required": []}])
    groups = GROUPS.get(tool, [()])
    choices = [
        (set(alternative["required"]) | set(group), {k for g in groups for k in g} - set(group))
        for alternative in alternatives
        for group in groups
    ]

    def build(chosen: set[str], left_out: set[str]) -> st.SearchStrategy[dict[str, Any]]:
        keys = sorted(chosen | required)
        return st.fixed_dictionaries(
            {key: from_schema(properties[key], key) for key in keys},
            optional={
                key: from_schema(properties[key], key)
                for key in sorted(properties)
                if key not in keys and key not in left_out and key not in OPTIONAL
            },
        )

    return st.sampled_from(choices).flatmap(lambda choice: build(*choice))


VALIDATORS = {tool.name: Draft202012Validator(tool.input_schema) for tool in TOOLS}
calls = st.lists(
    st.sampled_from(TOOLS).flatmap(
        lambda tool: st.tuples(st.just(tool.name), from_schema(tool.input_schema, tool=tool.name))
    ),
    min_size=1,
    max_size=3,
)


async def _target_token(client: Client, arguments: dict[str, Any]) -> str:
    """The current token of the call's target (or a placeholder when it cannot be read)."""
    target = {
        key: arguments[key]
        for key in ("objectUrl", "objectSourceUrl", "includeType", "system")
        if key in arguments
    }
    result = await client.call_tool("getObjectSourceV2", {**target, "startLine": 1, "endLine": 1})
    payload = json.loads(result.content[0].text)  # type: ignore[union-attr]
    return str(payload["data"]["token"]) if not result.is_error else "0_empty"


def test_schema_valid_arguments_reach_the_operations_and_fail_clearly() -> None:
    outcomes: Counter[str] = Counter()

    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(sequence=calls)
    def run(sequence: list[tuple[str, dict[str, Any]]]) -> None:
        emulator = Emulator(users=USERS)

        async def session() -> None:
            server = make_bridge(
                connections=_connections(emulator), passthrough=False, max_response_chars=8_000
            )
            async with Client(server, mode="legacy") as client:
                for name, arguments in sequence:
                    assert not list(VALIDATORS[name].iter_errors(arguments)), arguments
                    if arguments.get("token") == READ_TOKEN:
                        arguments = {**arguments, "token": await _target_token(client, arguments)}
                    result = await client.call_tool(name, arguments)
                    text = result.content[0].text  # type: ignore[union-attr]
                    assert "Traceback" not in text and "Error executing tool" not in text, text
                    payload = json.loads(text)
                    _assert_clear(name, payload, not result.is_error)
                    outcomes["success" if not result.is_error else str(payload["code"])] += 1
            # Closing the bridge releases every lock its agent took; nothing else is held.
            assert emulator.locks() == [], (sequence, emulator.locks())

        asyncio.run(session())

    run()
    assert outcomes["success"] > 20, outcomes
    past_validation = {code for code in outcomes if code not in ("success", "4012")}
    assert len(past_validation) >= 4, f"few errors past validation: {outcomes}"
