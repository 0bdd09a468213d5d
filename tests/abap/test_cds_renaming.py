"""Renaming a CDS element: found from any place of it (its alias, a projection, an
annotation, a behavior field), with every place the name travels to — the view's alias and
``$projection``, projections without an alias of their own, metadata extensions, the
behavior, ABAP statements reading those entities — and the new name checked."""

from __future__ import annotations

import pytest
from support import cds_samples as cs

from adt.abap.cds.parse import parse
from adt.abap.cds.renaming import RenameRefused, check_new_name, element_at, element_places

BEHAVIORS = {"ZI_TRAVEL": cs.BEHAVIOR, "ZC_TRAVEL": cs.PROJECTION_BEHAVIOR}
AGENCY = ("ZI_TRAVEL", "AGENCYID")


def _at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    seen = 0
    for number, line in enumerate(text.split("\n"), start=1):
        column = line.find(needle)
        while column >= 0:
            if seen == nth:
                return number, column + 1
            seen += 1
            column = line.find(needle, column + 1)
    raise AssertionError(needle)


@pytest.mark.parametrize(
    ("kind", "text", "needle", "nth"),
    [
        ("DDLS", cs.TRAVEL_VIEW, "AgencyID,", 0),  # the alias
        ("DDLS", cs.TRAVEL_PROJECTION, "AgencyID", 0),  # a projection without alias
        ("DDLX", cs.METADATA, "AgencyID", 0),  # an annotated element
        ("BDEF", cs.BEHAVIOR, "AgencyID", 0),  # a field list
    ],
)
def test_the_element_is_found_from_each_of_its_places(
    kind: str, text: str, needle: str, nth: int
) -> None:
    line, column = _at(text, needle, nth)
    assert element_at(parse(text, kind), cs.catalog(), line, column) == AGENCY


def test_every_place_of_an_alias_is_listed() -> None:
    places = element_places(cs.catalog(), AGENCY, BEHAVIORS, [("ZR", cs.ABAP_REPORT)])
    texts = {**{(n, t): x for (n, t), x in cs.SAMPLES.items()}}
    spelled = {
        (p.object, p.type, p.line): texts[(p.object, p.type)].split("\n")[p.line - 1][
            p.column : p.column + p.length
        ]
        for p in places
    }
    assert set(spelled.values()) == {"AgencyID"}
    assert sorted(spelled) == [
        ("ZC_TRAVEL", "DDLS", 8),  # the projection carries the name on
        ("ZC_TRAVEL", "DDLX", 7),  # …so its annotations follow
        ("ZI_TRAVEL", "BDEF", 13),  # field ( mandatory ) AgencyID
        ("ZI_TRAVEL", "BDEF", 18),  # validation … { field AgencyID; }
        ("ZI_TRAVEL", "DDLS", 7),  # $projection.AgencyID of the association
        ("ZI_TRAVEL", "DDLS", 11),  # the alias
    ]


def test_an_access_condition_on_a_carrying_entity_follows() -> None:
    places = element_places(cs.catalog(), AGENCY, {}, [], {"ZI_TRAVEL": cs.ROLE})
    [condition] = [p for p in places if p.type == "DCLS"]
    line = cs.ROLE.split("\n")[condition.line - 1]
    assert "grant select on ZI_Travel where" in line
    assert line[condition.column : condition.column + condition.length] == "AgencyID"


def test_an_abap_select_of_a_carrying_view_follows() -> None:
    places = element_places(
        cs.catalog(), ("ZI_TRAVEL", "TOTALPRICE"), BEHAVIORS, [("ZR", cs.ABAP_REPORT)]
    )
    [abap] = [p for p in places if p.type == "ABAP"]
    line = cs.ABAP_REPORT.split("\n")[abap.line - 1]
    assert line[abap.column : abap.column + abap.length] == "totalprice"


def test_host_variables_and_into_targets_keep_their_names() -> None:
    report = (
        "REPORT zr_prices.\n"
        "SELECT SINGLE totalprice FROM zc_travel WHERE totalprice > @totalprice\n"
        "  INTO @DATA(found).\n"
        "SELECT SINGLE totalprice FROM zc_travel INTO (totalprice) WHERE travelid = '1'.\n"
    )
    places = element_places(cs.catalog(), ("ZI_TRAVEL", "TOTALPRICE"), BEHAVIORS, [("ZR", report)])
    found = sorted((p.line, p.column) for p in places if p.type == "ABAP")
    lines = report.split("\n")
    fields = [
        (number, column)
        for number, line in enumerate(lines, start=1)
        for column in range(len(line))
        if line.startswith("totalprice", column) and line[column - 1] not in "@("
    ]
    assert found == fields, "the field, not the program's variable of the same name"
    assert len(found) == 3


def test_a_table_field_and_a_taken_name_are_refused() -> None:
    with pytest.raises(RenameRefused, match="name is a field of zagency, not a CDS element"):
        element_at(parse(cs.CLASSIC_VIEW, "DDLS"), cs.catalog(), *_at(cs.CLASSIC_VIEW, "name"))
    with pytest.raises(RenameRefused, match="ZC_TRAVEL has an element TravelID already"):
        check_new_name(cs.catalog(), AGENCY, "TravelID")
    with pytest.raises(RenameRefused, match="not a valid CDS name"):
        check_new_name(cs.catalog(), AGENCY, "Agency Code")
    check_new_name(cs.catalog(), AGENCY, "AgencyCode")


def test_a_mapping_renames_its_element_side_only() -> None:
    mapped = cs.BEHAVIOR.replace(
        "mapping for ztravel corresponding;",
        "mapping for ztravel { AgencyID = agency_id; TravelID = travel_id; }",
    )
    places = element_places(cs.catalog(), AGENCY, {"ZI_TRAVEL": mapped}, [])
    lines = mapped.split("\n")
    mapping = [p for p in places if p.type == "BDEF" and "mapping" in lines[p.line - 1]]
    assert [(lines[p.line - 1][p.column : p.column + p.length]) for p in mapping] == ["AgencyID"]
