"""Renaming the alias of an exposed entity in a service definition: found from the alias
(in the definition or an extension of the service), written in one place, its new name
checked against every entity set name of the service, its extensions included."""

from __future__ import annotations

import pytest
from support import cds_samples as cs
from support.flight import checkouts, object_name, read

from adt.abap.cds.renaming import RenameRefused
from adt.abap.cds.service_renaming import (
    ServiceAlias,
    alias_at,
    alias_places,
    check_alias_name,
)

EXTENSION = """// agencies join the travel service
extend service ZUI_Travel with {
  expose ZI_Agency   as /ZNS/Agency;  // namespaced, padded like the flight scenario's
}
"""
OTHER = """define service ZUI_Other {
  expose ZC_Travel as Travel;
}
"""
SERVICES = {"ZUI_TRAVEL": cs.SERVICE, "ZUI_TRAVEL_X": EXTENSION, "ZUI_OTHER": OTHER}
TRAVEL = ServiceAlias("ZUI_TRAVEL", "TRAVEL")


def _at(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.split("\n"), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def test_the_alias_is_found_in_the_definition_and_in_an_extension() -> None:
    assert alias_at(cs.SERVICE, *_at(cs.SERVICE, "as Travel")) is None  # on `as`
    line, column = _at(cs.SERVICE, "Travel;")
    assert alias_at(cs.SERVICE, line, column) == TRAVEL
    line, column = _at(EXTENSION, "/ZNS/Agency")
    assert alias_at(EXTENSION, line, column + 6) == ServiceAlias("ZUI_TRAVEL", "/ZNS/AGENCY")


def test_the_entity_and_an_exposure_without_alias_are_refused() -> None:
    with pytest.raises(RenameRefused, match="place the cursor on its alias Travel"):
        alias_at(cs.SERVICE, *_at(cs.SERVICE, "ZC_Travel"))
    with pytest.raises(RenameRefused, match=r"give it one \(expose I_CurrencyStdVH as"):
        alias_at(cs.SERVICE, *_at(cs.SERVICE, "I_CurrencyStdVH"))


def test_only_the_alias_of_that_service_is_placed() -> None:
    places = alias_places(SERVICES, TRAVEL)
    assert [(p.object, p.type, p.line) for p in places] == [("ZUI_TRAVEL", "SRVD", 3)]
    [place] = places
    line = cs.SERVICE.split("\n")[2]
    assert line[place.column : place.column + place.length] == "Travel"
    [agency] = alias_places(SERVICES, ServiceAlias("ZUI_TRAVEL", "/ZNS/AGENCY"))
    assert agency.object == "ZUI_TRAVEL_X" and agency.length == len("/ZNS/Agency")


@pytest.mark.parametrize(
    ("new", "message"),
    [
        ("Booking", "exposes ZC_Booking as Booking already"),
        ("booking", "exposes ZC_Booking as Booking already"),
        ("/zns/agency", r"exposes ZI_Agency as /ZNS/Agency already \(in ZUI_TRAVEL_X\)"),
        ("I_CurrencyStdVH", "exposes I_CurrencyStdVH as I_CurrencyStdVH already"),
        ("Travel Set", "not a valid alias"),
        ("T" * 31, "not a valid alias"),
    ],
)
def test_a_taken_or_invalid_name_is_refused(new: str, message: str) -> None:
    with pytest.raises(RenameRefused, match=message):
        check_alias_name(SERVICES, TRAVEL, new)


def test_a_free_name_a_case_change_and_another_services_name_pass() -> None:
    check_alias_name(SERVICES, TRAVEL, "Trip")
    check_alias_name(SERVICES, TRAVEL, "TRAVEL")
    check_alias_name(SERVICES, ServiceAlias("ZUI_OTHER", "TRAVEL"), "Booking")
    check_alias_name(SERVICES, TRAVEL, "/ZNS/Trip")


FLIGHT = [path for path in checkouts() if (path / "src").is_dir()]


@pytest.mark.skipif(not FLIGHT, reason="flight scenario not checked out (ADT_FLIGHT_SCENARIO)")
def test_the_flight_scenarios_agency_service_and_its_extension() -> None:
    """/DMO/UI_AGENCY exposes Agency; its extension exposes the review entity as
    /DMO/ZZ_Review: the extension's name is taken for the service, and every alias of the
    scenario is found where it is written and is free for its own name."""
    services = {
        object_name(path): read(path) for path in (FLIGHT[0] / "src").rglob("*.srvd.srvdsrv")
    }
    agency = ServiceAlias("/DMO/UI_AGENCY", "AGENCY")
    with pytest.raises(RenameRefused, match=r"/DMO/ZZ_Review already \(in /DMO/ZZ_X_REVIEW"):
        check_alias_name(services, agency, "/dmo/zz_review")
    check_alias_name(services, agency, "TravelAgency")
    aliases = 0
    for name, text in services.items():
        for number, line in enumerate(text.split("\n"), start=1):
            if "expose" not in line or " as " not in line:
                continue
            alias = alias_at(text, number, line.rindex(" as ") + 4)
            assert alias is not None, (name, line)
            [place] = [p for p in alias_places(services, alias) if p.object == name]
            written = line[place.column : place.column + place.length]
            assert place.line == number and written.upper() == alias.name
            check_alias_name(services, alias, written)
            aliases += 1
    assert aliases >= 40
