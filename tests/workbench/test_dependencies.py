"""The inactive objects an activation needs with it (``Workbench.dependencies``): what a
source builds on, transitively and dependencies first, among the user's inactive objects;
nothing is asked of the system for an ABAP object."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cds_loop import TABLE, VIEW, cds_emulator, new_inactive_table_and_view
from support.emulated import ServiceFactory

from adt.emulator import Emulator
from adt.workbench import Workbench


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


async def test_a_view_names_its_inactive_table_a_table_nothing(
    workbench: Workbench, emulator: Emulator
) -> None:
    await new_inactive_table_and_view(emulator)
    under = await workbench.dependencies.inactive_under(VIEW)
    assert [(e.name, e.type, e.object_url) for e in under] == [("ZTRIP", "TABL/DT", TABLE)]
    assert await workbench.dependencies.inactive_under(TABLE) == ()
    assert (await workbench.source.client.activate([TABLE])).success
    assert await workbench.dependencies.inactive_under(VIEW) == ()  # the table is active now


async def test_an_abap_object_costs_no_request(
    make_service: ServiceFactory, emulator: Emulator
) -> None:
    bench = Workbench(make_service())
    before = len(emulator.request_log)
    assert await bench.dependencies.inactive_under("/sap/bc/adt/programs/programs/zr_travels") == ()
    assert len(emulator.request_log) == before
