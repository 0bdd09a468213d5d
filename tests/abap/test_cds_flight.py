"""The whole RAP reference scenario (2023 and cloud branches): every CDS-family source and
every table parses without an error, every reference resolves, every element path and
``on`` condition resolves, and the check reports nothing — zero false positives."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.flight import catalog, checkouts

from adt.abap.cds import model as m
from adt.abap.cds.catalog import FAILED, OPEN, Scope
from adt.abap.cds.check import check
from adt.abap.cds.pool import required

CHECKOUTS = checkouts()


def _present(root: Path) -> Path:
    if not (root / "src").is_dir():
        pytest.skip(f"flight scenario not checked out at {root} (ADT_FLIGHT_SCENARIO)")
    return root


@pytest.fixture(params=CHECKOUTS, ids=[p.name for p in CHECKOUTS])
def scenario(request: pytest.FixtureRequest) -> Path:
    return _present(request.param)


def test_every_source_parses_and_checks_clean(scenario: Path) -> None:
    cat = catalog(scenario / "src")
    kinds = {obj.type for obj in cat.sources()}
    assert {"DDLS", "DDLX", "BDEF", "SRVD", "TABL"} <= kinds
    assert len(list(cat.sources())) >= 180
    findings = {
        f"{obj.type} {obj.name}": [(d.message, d.line) for d in check(obj.source, cat)]
        for obj in cat.sources()
    }
    assert {name: found for name, found in findings.items() if found} == {}


def test_every_reference_resolves(scenario: Path) -> None:
    cat = catalog(scenario / "src")
    checked = 0
    for obj in cat.sources():
        for reference in obj.source.references:
            if reference.role in m.ENTITY_ROLES | m.TABLE_ROLES:
                assert cat.exists(reference.name) or cat.named(reference.name), reference
                checked += 1
            elif reference.role == m.BEHAVIOR_POOL:
                assert reference.key in cat.classes, reference
                checked += 1
    assert checked > 350, checked


def test_element_paths_resolve_to_fields_with_types(scenario: Path) -> None:
    cat = catalog(scenario / "src")
    resolved = opaque = 0
    for obj in cat.sources():
        definition = obj.source.definition
        if obj.type != "DDLS" or definition is None or definition.kind == "extension":
            continue
        if not definition.sources:
            continue
        scope = Scope(cat, definition)
        for element in definition.elements:
            if element.path and not element.computed:
                status = scope.resolve(element.path).status
                assert status != FAILED, (obj.name, element.name)
                resolved += status != OPEN
                opaque += status == OPEN
    assert resolved > 700, (resolved, opaque)
    assert opaque < resolved / 10, (resolved, opaque)
    travel = cat.entity("/DMO/C_Travel_A_D")
    assert travel is not None
    price = travel.field("TotalPrice")
    assert price is not None and price.type == "/dmo/total_price" and price.label
    assert travel.target("_Booking") == "/DMO/C_Booking_A_D"


def test_the_behavior_pools_are_read_for_every_handler_the_bdefs_need(scenario: Path) -> None:
    """Not a vacuous clean run: each action, function, determination and validation that
    needs a handler is looked up in a pool whose source was read (44 on the 2023 branch)."""
    cat = catalog(scenario / "src")
    looked_up = 0
    for obj in cat.sources():
        definition = obj.source.definition
        if obj.type != "BDEF" or definition is None:
            continue
        for behavior, _item in required(definition):
            pool = behavior.pool or definition.pool
            assert cat.handlers_of(pool) is not None, (obj.name, pool)
            looked_up += 1
    assert looked_up >= 40, looked_up
