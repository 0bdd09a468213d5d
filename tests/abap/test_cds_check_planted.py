"""Errors planted into the RAP reference scenario's own sources are each found where they
are: names inside computed elements (``case``, ``cast``, arithmetic, functions, paths
through associations), a behavior pool missing the handler of an action, validation or
determination or of the feature, authorization or lock control an entity asks for (a
warning), an unknown entity in a BDEF, a projection whose keys differ
from its base. The unplanted scenario checks clean (``test_cds_flight.py``)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from support.flight import catalog, checkouts, handler_reader

from adt.abap.cds.catalog import Catalog, CatalogObject
from adt.abap.cds.check import check
from adt.abap.cds.parse import parse

SCENARIOS = [p for p in checkouts() if (p / "src" / "managed").is_dir()]
pytestmark = pytest.mark.skipif(not SCENARIOS, reason="no flight scenario checkout")

TRAVEL = ("DDLS", "/DMO/I_TRAVEL_M", "managed/#dmo#i_travel_m.ddls.asddls")
BEHAVIOR = ("BDEF", "/DMO/I_TRAVEL_M", "managed/#dmo#i_travel_m.bdef.asbdef")
PROJECTION = ("DDLS", "/DMO/C_TRAVEL_PROCESSOR_M", "managed/#dmo#c_travel_processor_m.ddls.asddls")
ELEMENT = "      description,"

#: (source, text replaced, replacement, marked name) → the message the check must give at
#: the line and column of the marked name in the planted text.
PLANTED = {
    "case": (
        TRAVEL,
        ELEMENT,
        f"{ELEMENT}\n      case overall_status when 'A' then 1 when stauts then 2 else 0 end as P,",
        "stauts",
        "'stauts' is no element of '/dmo/travel_m'",
    ),
    "cast": (
        TRAVEL,
        ELEMENT,
        f"{ELEMENT}\n      cast( total_pric as abap.dec( 16, 2 ) ) as P,",
        "total_pric",
        "'total_pric' is no element of '/dmo/travel_m'",
    ),
    "arithmetic": (
        TRAVEL,
        ELEMENT,
        f"{ELEMENT}\n      total_price + booking_fe * 2 as P,",
        "booking_fe",
        "'booking_fe' is no element of '/dmo/travel_m'",
    ),
    "function with a path": (
        TRAVEL,
        ELEMENT,
        f"{ELEMENT}\n      concat( _Agency.Nmae, abap.char'-' ) as P,",
        "Nmae",
        "'Nmae' is no element of '/DMO/I_Agency'",
    ),
    "path through two associations": (
        TRAVEL,
        ELEMENT,
        f"{ELEMENT}\n      coalesce( _Agency._Cuntry.Name, 'none' ) as P,",
        "_Cuntry",
        "'_Cuntry' is no association of '/DMO/I_Agency'",
    ),
    "missing validation handler": (
        BEHAVIOR,
        "  validation validateDates ",
        "  validation validateTrip on save { create; }\n  validation validateDates ",
        "validateTrip",
        "No handler method for validation 'validateTrip' of 'travel' in behavior pool "
        "'/DMO/BP_TRAVEL_M' (a method FOR VALIDATE ON SAVE … FOR travel~validateTrip)",
    ),
    "renamed action": (
        BEHAVIOR,
        "acceptTravel result",
        "acceptTrip result",
        "acceptTrip",
        "No handler method for action 'acceptTrip' of 'travel' in behavior pool "
        "'/DMO/BP_TRAVEL_M' (a method FOR MODIFY … FOR ACTION travel~acceptTrip)",
    ),
    "validation handler for a determination": (
        BEHAVIOR,
        "  validation validateDates ",
        "  determination validateDates on modify { create; }\n  validation validateDates ",
        "validateDates",
        "The handler method of determination 'validateDates' of 'travel' in behavior pool "
        "'/DMO/BP_TRAVEL_M' is declared FOR VALIDATE ON SAVE … FOR; a determination's is "
        "FOR DETERMINE ON MODIFY … FOR",
    ),
    "validation handler for a function": (
        BEHAVIOR,
        "  validation validateDates ",
        "  function validateDates result [1] $self;\n  validation validateDates ",
        "validateDates",
        "The handler method of function 'validateDates' of 'travel' in behavior pool "
        "'/DMO/BP_TRAVEL_M' is declared FOR VALIDATE ON SAVE … FOR; a function's is "
        "FOR READ … FOR FUNCTION",
    ),
    "instance authorization without its handler": (
        BEHAVIOR,
        "alias travel\n",
        "alias travel\nauthorization master ( instance )\n",
        "instance",
        "No handler method for the authorization master ( instance ) of 'travel' in behavior "
        "pool '/DMO/BP_TRAVEL_M' (a method FOR INSTANCE AUTHORIZATION … FOR travel)",
    ),
    "unmanaged lock without its handler": (
        BEHAVIOR,
        "lock master\nearly numbering",
        "lock master unmanaged\nearly numbering",
        "lock",
        "No handler method for the lock master unmanaged of 'travel' in behavior pool "
        "'/DMO/BP_TRAVEL_M' (a method FOR LOCK … FOR LOCK travel)",
    ),
    "global features without their handler": (
        BEHAVIOR,
        "travel entity\n  create;",
        "travel entity\n  create ( features : global );",
        "features",
        "No handler method for the features : global of 'travel' in behavior pool "
        "'/DMO/BP_TRAVEL_M' (a method FOR GLOBAL FEATURES … FOR travel)",
    ),
    "instance features without their handler": (
        BEHAVIOR,
        "  association _Booking { }\n}",
        "  association _Booking { create ( features : instance ); }\n}",
        "features",
        "No handler method for the features : instance of 'booksuppl' in behavior pool "
        "'/DMO/BP_BOOKINGSUPPLEMENT_M' (a method FOR INSTANCE FEATURES … FOR booksuppl)",
    ),
    "unknown entity": (
        BEHAVIOR,
        "define behavior for /DMO/I_Booking_M",
        "define behavior for /DMO/I_Bookings_M",
        "/DMO/I_Bookings_M",
        "Behavior entity '/DMO/I_Bookings_M' does not exist or is not active",
    ),
    "key mismatch in a projection": (
        PROJECTION,
        "  key travel_id          as TravelID,",
        "      travel_id          as TravelID,",
        "travel_id",
        "Key element 'travel_id' of '/DMO/I_Travel_M' must be key in the projection",
    ),
}


@functools.cache
def _objects(root: Path) -> tuple[CatalogObject, ...]:
    return tuple(catalog(root / "src").sources())


@functools.cache
def _catalog(root: Path) -> Catalog:
    return catalog(root / "src")


def _position(text: str, name: str, after: str) -> tuple[int, int]:
    """Line (1-based) and column of ``name`` at or after the planted text ``after``."""
    at = text.index(name, text.index(after))
    before = text[:at]
    return before.count("\n") + 1, len(before.split("\n")[-1])


@pytest.mark.parametrize("root", SCENARIOS, ids=[p.name for p in SCENARIOS])
@pytest.mark.parametrize("case", sorted(PLANTED))
def test_each_planted_error_is_found_at_its_place(root: Path, case: str) -> None:
    (kind, name, file), old, new, marked, message = PLANTED[case]
    original = (root / "src" / file).read_text(encoding="utf-8-sig")
    assert original.count(old) == 1, (case, old)
    text = original.replace(old, new)
    base = _catalog(root)
    assert not [d for d in check(parse(original, kind), base) if d.severity == "error"]
    planted = CatalogObject(name, kind, parse(text, kind))
    others = [o for o in _objects(root) if (o.type, o.name) != (kind, name)]
    pools = handler_reader(root / "src")
    cat = Catalog([*others, planted], base.data_elements.values(), base.classes, pools)
    line, column = _position(text, marked, new)
    found = [(d.message, d.line, d.column) for d in check(planted.source, cat)]
    assert found == [(message, line, column)]
