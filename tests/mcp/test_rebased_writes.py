"""Rebased writes through the official MCP client: a colleague's change of another method
costs the agent nothing (one call, rebasedOver says what changed); ``rebase: false`` is the
strict check of earlier versions."""

from __future__ import annotations

from support.emulated import GREETER
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.emulator import Emulator
from adt.source.symbols import locate

GREETER_SOURCE = f"{GREETER}/source/main"


def _with_method(text: str, name: str, body: str) -> str:
    part = locate(text, name, for_write=True)
    lines = text.split("\n")
    lines[part.start_line - 1 : part.end_line] = [f"  METHOD {name}.", body, "  ENDMETHOD."]
    return "\n".join(lines)


async def test_a_colleagues_other_method_is_merged_in_one_call(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        read = (await call(client, "getObjectSourceV2", objectUrl=GREETER, symbol="greet"))["data"]
        stored = emulator.source(GREETER_SOURCE) or ""
        theirs = _with_method(stored, "greet_all", '    " colleague')
        emulator.write_as("COLLEAGUE", GREETER_SOURCE, theirs)
        written = await call(
            client,
            "setObjectSourceV2",
            objectUrl=GREETER,
            token=read["token"],
            symbol="greet",
            content='  METHOD greet.\n    " agent\n  ENDMETHOD.',
        )
        assert written["ok"], written
        over = written["data"]["rebasedOver"]
        assert over["changedBy"] == "COLLEAGUE" and over["fromToken"] == read["token"]
        after = emulator.source(GREETER_SOURCE) or ""
        assert after == _with_method(theirs, "greet", '    " agent')
        again = await call(client, "getObjectSourceV2", objectUrl=GREETER, startLine=1, endLine=1)
        assert again["data"]["token"] == written["data"]["token"]
    assert emulator.locks() == []


async def test_rebase_false_refuses_any_change_since_the_token(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        read = (await call(client, "getObjectSourceV2", objectUrl=GREETER, symbol="greet"))["data"]
        theirs = _with_method(emulator.source(GREETER_SOURCE) or "", "greet_all", "    .")
        emulator.write_as("COLLEAGUE", GREETER_SOURCE, theirs)
        refused = await error(
            client,
            "setObjectSourceV2",
            objectUrl=GREETER,
            token=read["token"],
            symbol="greet",
            content="  METHOD greet.\n  ENDMETHOD.",
            rebase=False,
        )
        assert refused["name"] == "VERSION_CONFLICT" and "overlap" not in refused["details"]
        assert emulator.source(GREETER_SOURCE) == theirs
    assert emulator.locks() == []


async def test_a_replacement_beside_a_colleagues_method_is_merged_in_one_call(
    emulator: Emulator,
) -> None:
    async with bridge(emulator) as client:
        read = (await call(client, "getObjectSourceV2", objectUrl=GREETER, symbol="greet"))["data"]
        theirs = _with_method(emulator.source(GREETER_SOURCE) or "", "greet_all", '    " colleague')
        emulator.write_as("COLLEAGUE", GREETER_SOURCE, theirs)
        old = "rv_text = |{ mv_salutation }, { mo_formatter->capitalize( iv_name ) }!|."
        args = {"objectUrl": GREETER, "token": read["token"], "oldString": old}
        strict = await error(client, "replaceInObjectSource", **args, newString="x.", rebase=False)
        assert strict["name"] == "VERSION_CONFLICT" and emulator.source(GREETER_SOURCE) == theirs
        new = "rv_text = |{ mv_salutation }, { iv_name }!|."
        written = await call(client, "replaceInObjectSource", **args, newString=new)
        assert written["ok"], written
        assert written["data"]["rebasedOver"]["changedBy"] == "COLLEAGUE"
        assert emulator.source(GREETER_SOURCE) == theirs.replace(old, new)
    assert emulator.locks() == []
