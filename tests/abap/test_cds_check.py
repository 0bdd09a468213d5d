"""The CDS-family syntax check with name resolution: our samples check clean, and each
planted error is reported where it is, with a message in the user's words."""

from __future__ import annotations

import pytest
from support import cds_samples as s

from adt.abap.cds.check import check
from adt.abap.cds.parse import parse


def _findings(name: str, kind: str, text: str) -> list[tuple[str, int, int]]:
    catalog = s.catalog({(name, kind): text})
    return [(d.message, d.line, d.column) for d in check(parse(text, kind), catalog)]


def test_the_samples_check_clean() -> None:
    catalog = s.catalog()
    for (name, kind), text in s.SAMPLES.items():
        assert check(parse(text, kind), catalog) == [], f"{kind} {name}"


PLANTED = [
    (
        "ZI_AGENCY",
        "DDLS",
        s.AGENCY_VIEW.replace("from zagency", "from zagencyx"),
        ("Data source 'zagencyx' does not exist or is not active", 2, 44),
    ),
    (
        "ZI_AGENCY",
        "DDLS",
        s.AGENCY_VIEW.replace("name      as Name", "nmae as Name"),
        ("'nmae' is no element of 'zagency'", 5, 6),
    ),
    (
        "ZI_TRAVEL",
        "DDLS",
        s.TRAVEL_VIEW.replace("_Agency.Name as", "_Agency.Nmae as"),
        ("'Nmae' is no element of 'ZI_Agency'", 20, 14),
    ),
    (
        "ZI_TRAVEL",
        "DDLS",
        s.TRAVEL_VIEW.replace("_Agency.Name as", "_Agnecy.Name as"),
        ("'_Agnecy' is no element of 'ztravel'", 20, 6),
    ),
    (
        "ZI_TRAVEL",
        "DDLS",
        s.TRAVEL_VIEW.replace("= _Agency.AgencyID", "= _Agency.AgencyId2"),
        ("'AgencyId2' is no element of 'ZI_Agency'", 7, 79),
    ),
    (
        "ZI_TRAVEL",
        "DDLS",
        s.TRAVEL_VIEW.replace("$parameters.p_currency", "$parameters.p_curr"),
        ("'p_curr' is not known in $parameters", 19, 18),
    ),
    (
        "ZI_TRAVEL",
        "DDLS",
        s.TRAVEL_VIEW.replace("to ZI_Agency as", "to ZI_Agencies as"),
        ("Association target 'ZI_Agencies' does not exist or is not active", 7, 24),
    ),
    (
        "ZC_TRAVEL",
        "DDLS",
        s.TRAVEL_PROJECTION.replace("  key TravelID,", "      TravelID,"),
        ("Key element 'TravelID' of 'ZI_Travel' must be key in the projection", 7, 6),
    ),
    (
        "ZC_TRAVEL",
        "DDLS",
        s.TRAVEL_PROJECTION.replace("      AgencyID,", "  key AgencyID,"),
        ("'AgencyID' is key here but not in 'ZI_Travel'", 8, 6),
    ),
    (
        "ZC_TRAVEL",
        "DDLS",
        s.TRAVEL_PROJECTION.replace(
            "composition child ZC_Booking", "composition child ZC_Bookings"
        ),
        ("Redirection target 'ZC_Bookings' does not exist or is not active", 12, 49),
    ),
    (
        "ZX_TRAVEL",
        "DDLS",
        s.TRAVEL_EXTENSION.replace("Travel.description", "Travel.descr"),
        ("'descr' is no element of 'ztravel'", 3, 9),
    ),
    (
        "ZI_TRAVEL",
        "BDEF",
        s.BEHAVIOR.replace("for ZI_Booking alias", "for ZI_Bookings alias"),
        ("Behavior entity 'ZI_Bookings' does not exist or is not active", 22, 20),
    ),
    (
        "ZI_TRAVEL",
        "BDEF",
        s.BEHAVIOR.replace("association _Booking {", "association _Bookings {"),
        ("'_Bookings' is no association of 'ZI_Travel'", 14, 14),
    ),
    (
        "ZI_TRAVEL",
        "BDEF",
        s.BEHAVIOR.replace("( mandatory ) AgencyID,", "( mandatory ) Agency,"),
        ("'Agency' is no field of 'ZI_Travel'", 13, 22),
    ),
    (
        "ZI_TRAVEL",
        "BDEF",
        s.BEHAVIOR.replace("class zbp_i_travel", "class zbp_i_travels"),
        ("Behavior pool 'zbp_i_travels' does not exist", 1, 32),
    ),
    (
        "ZI_TRAVEL",
        "BDEF",
        s.BEHAVIOR.replace("persistent table ztravel", "persistent table ztravels"),
        ("Table or structure 'ztravels' does not exist", 5, 17),
    ),
    (
        "ZC_TRAVEL",
        "DDLX",
        s.METADATA.replace("  AgencyID;", "  AgencyId2;"),
        ("'AgencyId2' is no element of 'ZC_Travel'", 7, 2),
    ),
    (
        "ZUI_TRAVEL",
        "SRVD",
        s.SERVICE.replace("expose ZC_Booking as", "expose ZC_Bookng as"),
        ("Exposed entity 'ZC_Bookng' does not exist or is not active", 4, 9),
    ),
    (
        "ZI_TRAVEL",
        "DCLS",
        s.ROLE.replace("entity ZI_Travel;", "entity ZI_Trvl;"),
        ("Inherited entity 'ZI_Trvl' does not exist or is not active", 4, 68),
    ),
]


@pytest.mark.parametrize(("name", "kind", "text", "expected"), PLANTED)
def test_planted_errors_are_reported_where_they_are(
    name: str, kind: str, text: str, expected: tuple[str, int, int]
) -> None:
    assert _findings(name, kind, text) == [expected]


def test_parse_errors_come_first_and_still_resolve_the_rest() -> None:
    text = s.AGENCY_VIEW.replace("name      as Name", "name as Name as Other")
    findings = _findings("ZI_AGENCY", "DDLS", text)
    assert findings and findings[0][0].startswith("',' or '}' expected")
