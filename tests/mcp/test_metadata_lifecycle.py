"""An agent creates and deletes the metadata kinds with ``manageObject`` (a service binding
on the service definition it binds), publishes and unpublishes a binding, and changes one
message of a message class with a token-checked ``setObjectSourceV2`` on the class's
document: the message is one line, so adding one is inserting a line."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.emulated import USERS, make_client
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.emulator import Emulator

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
MSAG = "/sap/bc/adt/messageclass/zkinds_msg"
SRVB = "/sap/bc/adt/businessservices/bindings/zui_kinds_trip_o4"
NEW = {
    "dataElement": "/sap/bc/adt/ddic/dataelements/zmcp_new",
    "domain": "/sap/bc/adt/ddic/domains/zmcp_new",
    "tableType": "/sap/bc/adt/ddic/tabletypes/zmcp_new",
    "messageClass": "/sap/bc/adt/messageclass/zmcp_new",
    "serviceBinding": "/sap/bc/adt/businessservices/bindings/zmcp_new",
}


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


async def test_metadata_kinds_created_and_deleted(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        for kind, url in NEW.items():
            basis = {"basedOn": "ZUI_KINDS_TRIP"} if kind == "serviceBinding" else {}
            created = await call(
                client,
                "manageObject",
                action="create",
                kind=kind,
                name="ZMCP_NEW",
                description=f"New {kind}",
                package="$ZKINDS",
                **basis,
            )
            assert created["data"]["objectUrl"] == url and created["data"]["token"]
        facts = await call(client, "objectStructure", objectUrl=NEW["serviceBinding"])
        assert facts["data"]["fields"]["services"][0]["serviceDefinition"] == "ZUI_KINDS_TRIP"
        assert set(NEW.values()) <= set(emulator.objects())
        for url in NEW.values():
            deleted = await call(client, "manageObject", action="delete", objectUrl=url)
            assert deleted["data"] == {"objectUrl": url, "deleted": True}
    assert not set(NEW.values()) & set(emulator.objects())
    assert emulator.locks() == []


async def test_a_binding_published_and_unpublished(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        published = await call(client, "manageObject", action="publish", objectUrl=SRVB)
        assert published["data"]["ok"] and published["data"]["published"], published
        facts = await call(client, "objectStructure", objectUrl=SRVB)
        assert facts["data"]["fields"]["published"] is True
        withdrawn = await call(client, "manageObject", action="unpublish", objectUrl=SRVB)
        assert withdrawn["data"]["ok"] and not withdrawn["data"]["published"]
        facts = await call(client, "objectStructure", objectUrl=SRVB)
        assert facts["data"]["fields"]["published"] is False
        refused = await error(client, "manageObject", action="publish", objectUrl=MSAG)
        assert refused["name"] == "INVALID_ARGUMENT"


async def test_one_message_changed_and_one_added_against_the_token(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        found = await call(client, "grepObjectSource", objectUrl=MSAG, pattern="msgtext=.Status")
        line = found["data"]["matches"][0]["lineNumber"]
        read = (
            await call(client, "getObjectSourceV2", objectUrl=MSAG, startLine=line, endLine=line)
        )["data"]
        old = read["content"].rstrip("\n")
        changed = await call(
            client,
            "setObjectSourceV2",
            objectUrl=MSAG,
            token=read["token"],
            startLine=line,
            endLine=line,
            content=old.replace("is not valid", "is unknown"),
        )
        assert changed["ok"], changed
        stale = await error(
            client,
            "setObjectSourceV2",
            objectUrl=MSAG,
            token=read["token"],
            startLine=line,
            endLine=line,
            content=old,
        )
        assert stale["name"] in {"VERSION_CONFLICT", "TOKEN_MISMATCH"}, stale
        closing = await call(client, "grepObjectSource", objectUrl=MSAG, pattern="</mc:messageC")
        end = closing["data"]["matches"][0]["lineNumber"]  # a new message goes before it
        added = await call(
            client,
            "setObjectSourceV2",
            objectUrl=MSAG,
            token=changed["data"]["token"],
            startLine=end,
            endLine=end - 1,
            content='  <mc:messages mc:msgno="003" mc:msgtext="Trip &amp;1 saved."/>',
        )
        assert added["ok"], added
    async with make_client(emulator) as adt:
        messages = (await adt.dictionary.read(MSAG)).fields["messages"]
    assert {m["number"]: m["text"] for m in messages} == {
        "001": "Trip &1 is unknown.",
        "002": "Status &1 is unknown.",
        "003": "Trip &1 saved.",
    }
    assert emulator.locks() == []
