"""``manageObject create`` with the source: one call creates, writes (checked against the
fresh skeleton's token) and, asked to, activates; bad text is refused before anything is
created."""

from __future__ import annotations

from support.mcp_calls import LOOP_CLASS, LOOP_MAIN, LOOP_TESTS, call, error
from support.mcp_memory import bridge

from adt.emulator import Emulator


async def test_a_class_with_its_test_classes_in_one_call(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        created = await call(
            client,
            "manageObject",
            action="create",
            kind="class",
            name="ZCL_AGENT_LOOP",
            description="Loop",
            package="$ZDEMO",
            source=LOOP_MAIN,
            testClasses=LOOP_TESTS,
            activate=True,
        )
        assert created["ok"], created
        data = created["data"]
        assert data["activation"]["activated"] is True, data["activation"]
        assert emulator.source(f"{LOOP_CLASS}/source/main") == LOOP_MAIN
        assert emulator.source(f"{LOOP_CLASS}/includes/testclasses") == LOOP_TESTS
        read = await call(client, "getObjectSourceV2", objectUrl=LOOP_CLASS, startLine=1, endLine=1)
        assert read["data"]["token"] == data["token"], "the answer's token is the current one"
        assert data["lineCount"] == len(LOOP_MAIN.split("\n"))
    assert emulator.locks() == []


async def test_a_program_with_its_source_stays_inactive_without_activate(
    emulator: Emulator,
) -> None:
    url = "/sap/bc/adt/programs/programs/zagent_new"
    text = "REPORT zagent_new.\nWRITE / 'created with its source'."
    async with bridge(emulator) as client:
        created = await call(
            client,
            "manageObject",
            action="create",
            kind="program",
            name="ZAGENT_NEW",
            description="x",
            package="$ZDEMO",
            source=text,
        )
        assert created["ok"], created
        assert "activation" not in created["data"] and "your source" in created["data"]["notes"][0]
        assert emulator.source(f"{url}/source/main") == text
    assert emulator.locks() == []


async def test_bad_source_is_refused_before_anything_is_created(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        refused = await error(
            client,
            "manageObject",
            action="create",
            kind="program",
            name="ZAGENT_BAD",
            description="x",
            package="$ZDEMO",
            source="REPORT zagent_bad.\nWRITE 'a\x00b'.",
        )
        assert refused["name"] == "INVALID_ARGUMENT" and refused["details"]["line"] == 2
        tests_on_program = await error(
            client,
            "manageObject",
            action="create",
            kind="program",
            name="ZAGENT_BAD",
            description="x",
            package="$ZDEMO",
            testClasses="CLASS ltcl DEFINITION FOR TESTING.\nENDCLASS.",
        )
        assert tests_on_program["name"] == "INVALID_ARGUMENT"
        nothing = await call(client, "searchObjects", query="ZAGENT_BAD")
        assert nothing["data"]["count"] == 0
    assert emulator.locks() == []
