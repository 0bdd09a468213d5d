"""Renaming a CDS element through the workbench: ADT's rename refactoring with the cursor on
an alias plans every place of the name (the view, its projection, the metadata extension,
the behavior); we write all of them token-checked under our locks — or none — and
activate them together."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import cds_samples as cs
from support.cds_loop import cds_emulator
from support.emulated import make_client

from adt.emulator import Emulator
from adt.source import SourceService
from adt.source.errors import VersionConflict
from adt.urls import object_url
from adt.workbench import Workbench

VIEW = object_url("DDLS/DF", "ZI_TRAVEL") + "/source/main"
PROJECTION = object_url("DDLS/DF", "ZC_TRAVEL") + "/source/main"
METADATA = object_url("DDLX/EX", "ZC_TRAVEL") + "/source/main"
BEHAVIOR = object_url("BDEF/BDO", "ZI_TRAVEL") + "/source/main"
ROLE = object_url("DCLS/DL", "ZI_TRAVEL") + "/source/main"


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


@pytest.fixture
def workbench(emulator: Emulator) -> Workbench:
    return Workbench(SourceService(make_client(emulator), system="A4H"))


async def _propose(workbench: Workbench, new: str) -> object:
    line = next(n for n, text in enumerate(cs.TRAVEL_VIEW.split("\n"), 1) if "as AgencyID" in text)
    column = cs.TRAVEL_VIEW.split("\n")[line - 1].index("AgencyID")
    return await workbench.renaming.propose(VIEW, line, column, column + 8, new)


async def test_an_alias_is_renamed_in_every_object_and_activated(
    workbench: Workbench, emulator: Emulator
) -> None:
    proposal = await _propose(workbench, "AgencyCode")
    assert proposal.old_name == "AgencyID"  # type: ignore[attr-defined]
    sources = {a.source_url: len(a.replacements) for a in proposal.affected}  # type: ignore[attr-defined]
    assert sources == {VIEW: 2, PROJECTION: 1, METADATA: 1, BEHAVIOR: 2, ROLE: 1}
    edits = await workbench.renaming.saved_edits(proposal)  # type: ignore[arg-type]
    outcome = await workbench.renaming.write_all(edits)
    assert outcome.activation is not None and outcome.activation.success, outcome
    view = emulator.source(VIEW, "active") or ""
    assert "agency_id     as AgencyCode," in view
    assert "$projection.AgencyCode = _Agency.AgencyID" in view, "the target's own element stays"
    assert "      AgencyCode," in (emulator.source(PROJECTION, "active") or "")
    assert "  AgencyCode;" in (emulator.source(METADATA, "active") or "")
    behavior = emulator.source(BEHAVIOR, "active") or ""
    assert "field ( mandatory ) AgencyCode, CurrencyCode;" in behavior
    assert "{ create; field AgencyCode; }" in behavior
    assert "AgencyID" not in behavior
    assert "where AgencyCode = '070001';" in (emulator.source(ROLE, "active") or "")
    assert emulator.locks() == []


async def test_a_colleagues_change_in_the_behavior_stops_the_element_rename(
    workbench: Workbench, emulator: Emulator
) -> None:
    proposal = await _propose(workbench, "AgencyCode")
    edits = await workbench.renaming.saved_edits(proposal)  # type: ignore[arg-type]
    theirs = (emulator.source(BEHAVIOR) or "") + "\n// reviewed"
    emulator.write_as("COLLEAGUE", BEHAVIOR, theirs)
    with pytest.raises(VersionConflict) as refused:
        await workbench.renaming.write_all(edits)
    assert refused.value.details["objects"] == ["ZI_TRAVEL"]
    assert "AgencyCode" not in (emulator.source(VIEW) or "")
    assert "AgencyCode" not in (emulator.source(PROJECTION) or "")
    assert emulator.locks() == []


async def test_a_taken_element_name_is_refused(workbench: Workbench) -> None:
    with pytest.raises(Exception, match="ZC_TRAVEL has an element TravelID already"):
        await _propose(workbench, "TravelID")
