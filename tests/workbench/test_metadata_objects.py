"""Metadata objects through the development loop (issue 19): data elements, domains, table
types, message classes and service bindings are created from the bodies ADT sends and
deleted again; one message of a class is added or changed against its token; a binding is
published and unpublished."""

from __future__ import annotations

import pytest

from adt.emulator import Emulator
from adt.source.errors import InvalidArgument, TokenMismatch
from adt.workbench import NewObject, Workbench

PACKAGE = "$ZDEMO"
NEW = [
    ("dataElement", "ZWB_DTEL", "/sap/bc/adt/ddic/dataelements/zwb_dtel"),
    ("domain", "ZWB_DOMA", "/sap/bc/adt/ddic/domains/zwb_doma"),
    ("tableType", "ZWB_TTYP", "/sap/bc/adt/ddic/tabletypes/zwb_ttyp"),
    ("messageClass", "ZWB_MSAG", "/sap/bc/adt/messageclass/zwb_msag"),
]


async def _service_definition(workbench: Workbench) -> str:
    created = await workbench.objects.create(
        NewObject("serviceDefinition", "ZWB_SRVD", "Service", PACKAGE)
    )
    return created.object_url


async def test_each_metadata_kind_is_created_and_deleted(
    workbench: Workbench, emulator: Emulator
) -> None:
    for kind, name, url in NEW:
        created = await workbench.objects.create(NewObject(kind, name, f"New {kind}", PACKAGE))
        assert (created.object_url, created.source_url) == (url, "")
        document = await workbench.source.client.dictionary.read(url)
        assert (document.name, document.description) == (name, f"New {kind}")
        assert document.package == PACKAGE
    for _, _, url in NEW:
        await workbench.objects.delete(url)
    present = set(emulator.objects())
    assert not present & {url for _, _, url in NEW}
    assert emulator.locks() == []


async def test_a_binding_binds_its_service_definition(workbench: Workbench) -> None:
    with pytest.raises(InvalidArgument, match="service definition it binds"):
        await workbench.objects.create(NewObject("serviceBinding", "ZWB_SRVB", "UI", PACKAGE))
    with pytest.raises(InvalidArgument, match="ZWB_NOTHERE"):
        await workbench.objects.create(
            NewObject("serviceBinding", "ZWB_SRVB", "UI", PACKAGE, based_on="ZWB_NOTHERE")
        )
    await _service_definition(workbench)
    created = await workbench.objects.create(
        NewObject("serviceBinding", "ZWB_SRVB", "UI", PACKAGE, based_on="ZWB_SRVD")
    )
    assert created.object_url == "/sap/bc/adt/businessservices/bindings/zwb_srvb"
    document = await workbench.source.client.dictionary.read(created.object_url)
    assert document.fields["bindingType"] == "ODATA"
    assert [s["serviceDefinition"] for s in document.fields["services"]] == ["ZWB_SRVD"]


async def test_one_message_added_then_changed_against_its_token(
    workbench: Workbench, emulator: Emulator
) -> None:
    await workbench.objects.create(NewObject("messageClass", "ZWB_MSGS", "Messages", PACKAGE))
    first = await workbench.source.client.dictionary.read("/sap/bc/adt/messageclass/zwb_msgs")
    added = await workbench.metadata.set_message(
        "ZWB_MSGS", "1", "Trip &1 saved", token=first.token
    )
    assert added["messages"] == [{"number": "001", "text": "Trip &1 saved"}]
    with pytest.raises(TokenMismatch):  # the token read before the message was added
        await workbench.metadata.set_message("ZWB_MSGS", "1", "lost", token=first.token)
    changed = await workbench.metadata.set_message(
        "ZWB_MSGS", "001", "Trip &1 was saved", token=added["token"]
    )
    assert changed["messages"] == [{"number": "001", "text": "Trip &1 was saved"}]
    with pytest.raises(InvalidArgument, match="000 to 999"):
        await workbench.metadata.set_message("ZWB_MSGS", "1000", "x", token=changed["token"])
    assert emulator.locks() == []


async def test_a_binding_is_published_and_unpublished(workbench: Workbench) -> None:
    definition = await _service_definition(workbench)
    created = await workbench.objects.create(
        NewObject("serviceBinding", "ZWB_PUB", "UI", PACKAGE, based_on="ZWB_SRVD")
    )
    refused = await workbench.metadata.publish("zwb_pub")  # only its active version is served
    assert not refused.ok and "OData V2" in refused.message
    outcome = await workbench.source.activate(created.object_url, together=[definition])
    assert outcome.to_dict().get("activated", True), outcome.to_dict()
    published = await workbench.metadata.publish("zwb_pub")
    assert (published.ok, published.published) == (True, True), published.message
    facts = await workbench.source.client.dictionary.read(created.object_url)
    assert facts.fields["published"] is True
    withdrawn = await workbench.metadata.publish(created.object_url, publish=False)
    assert withdrawn.ok, withdrawn.message
    facts = await workbench.source.client.dictionary.read(created.object_url)
    assert facts.fields["published"] is False
