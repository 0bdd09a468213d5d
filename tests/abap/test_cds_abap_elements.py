"""A CDS element named in ABAP: components of data typed by the entity (declared, a
parameter, a field symbol, a local type, ``LIKE``, inline ``VALUE``; a table's row after
``[ … ]``), the entity's own type (``TYPE zi_travel-x``), ``VALUE zi_travel( x = … )``, SQL
reading the entity — renamed with the element, and a rename can start there. Data whose
type is not the entity (or is not known) keeps its components."""

from __future__ import annotations

import pytest
from support import cds_samples as cs

from adt.abap.cds.renaming import RenameRefused, abap_element_at, element_places
from adt.abap.index import ProgramIndex, Unit

TRAVEL_ID = ("ZI_TRAVEL", "TRAVELID")

#: A report naming ZI_Travel's TravelID (carried by ZC_Travel) in every form, and other
#: ``travelid`` that are not it; :data:`EXPECTED` lists the places of the element.
REPORT = r"""REPORT zr_components.
TYPES ty_travels TYPE SORTED TABLE OF zc_travel WITH UNIQUE KEY travelid.
TYPES ty_travel TYPE zi_travel.
DATA ls_travel TYPE zi_travel.
DATA lt_travels TYPE STANDARD TABLE OF zi_travel WITH EMPTY KEY.
DATA ls_like LIKE ls_travel.
DATA ls_row LIKE LINE OF lt_travels.
DATA ls_booking TYPE zi_booking.
DATA lr_travel TYPE REF TO zi_travel.
DATA travelid TYPE zi_travel-travelid.
CLASS lcl DEFINITION.
  PUBLIC SECTION.
    METHODS m IMPORTING is_travel TYPE ty_travel it_travels TYPE ty_travels.
ENDCLASS.
CLASS lcl IMPLEMENTATION.
  METHOD m.
    FIELD-SYMBOLS <travel> TYPE zc_travel.
    DATA(ls_new) = VALUE zi_travel( travelid = travelid agencyid = is_travel-travelid ).
    DATA(lt_new) = VALUE ty_travels( ( travelid = '1' ) ( travelid = ls_new-travelid ) ).
    LOOP AT it_travels INTO DATA(row).
      WRITE / row-travelid.
    ENDLOOP.
    WRITE / it_travels[ 1 ]-travelid.
    WRITE / <travel>-travelid.
    WRITE / lr_travel->travelid.
  ENDMETHOD.
ENDCLASS.
START-OF-SELECTION.
  ls_travel-travelid = ls_like-travelid.
  ls_row-travelid = ls_booking-travelid.
  SELECT SINGLE t~travelid, b~travelid FROM zi_travel AS t INNER JOIN zi_booking AS b
    ON b~travelid = t~travelid WHERE t~travelid = @ls_booking-travelid
    INTO @DATA(found).
  READ ENTITIES OF zi_travel ENTITY Travel FIELDS ( travelid ) WITH VALUE #( ) RESULT DATA(r)
    ENTITY Travel BY \_Booking FIELDS ( travelid ) WITH VALUE #( ) RESULT DATA(b)
    ENTITY Booking FIELDS ( travelid ) WITH VALUE #( ) RESULT DATA(c).
  READ TABLE lt_travels WITH KEY travelid = travelid INTO DATA(hit).
  SORT lt_travels BY agencyid travelid DESCENDING.
  DELETE lt_travels WHERE travelid = travelid OR NOT ( travelid IS INITIAL ).
  WRITE / lt_travels[ travelid = travelid ]-agencyid && hit-travelid.
  LOOP AT lt_travels REFERENCE INTO DATA(ref).
    WRITE / ref->travelid.
  ENDLOOP.
  LOOP AT lt_travels INTO DATA(grouped) GROUP BY grouped-agencyid INTO DATA(group).
    WRITE / group-travelid.
  ENDLOOP.
  LOOP AT lt_travels ASSIGNING FIELD-SYMBOL(<row>) WHERE travelid IS NOT INITIAL.
    <row>-travelid = 1.
  ENDLOOP.
"""
#: (line, column) of each place that must change (1-based line, 0-based column).
EXPECTED = {
    (2, 64),  # WITH UNIQUE KEY travelid of a table of zc_travel
    (10, 29),  # TYPE zi_travel-travelid (the variable travelid keeps its name)
    (18, 36),  # VALUE zi_travel( travelid = …
    (18, 77),  # is_travel-travelid (through the local type ty_travel)
    (19, 39),  # VALUE ty_travels( ( travelid = …
    (19, 58),
    (19, 76),  # ls_new-travelid (inline VALUE zi_travel)
    (23, 28),  # it_travels[ 1 ]-travelid
    (24, 21),  # <travel>-travelid
    (29, 12),  # ls_travel-travelid
    (29, 31),  # ls_like-travelid (LIKE ls_travel)
    (30, 9),  # ls_row-travelid (LIKE LINE OF lt_travels)
    (31, 18),  # t~travelid
    (32, 22),  # t~travelid of the join condition (b~travelid is ZI_Booking's)
    (32, 39),
    (34, 52),  # EML: ENTITY Travel (the behavior's alias of ZI_Travel) FIELDS ( travelid )
    (21, 18),  # row-travelid: LOOP AT it_travels INTO DATA(row)
    (37, 33),  # READ TABLE lt_travels WITH KEY travelid = (the variable travelid after =)
    (38, 30),  # SORT lt_travels BY agencyid travelid
    (39, 26),  # DELETE lt_travels WHERE travelid = travelid OR NOT ( travelid IS INITIAL )
    (39, 55),
    (40, 22),  # lt_travels[ travelid = travelid ]
    (40, 60),  # hit-travelid (READ TABLE … INTO DATA(hit))
    (47, 57),  # LOOP AT lt_travels ASSIGNING FIELD-SYMBOL(<row>) WHERE travelid …
    (48, 10),  # <row>-travelid
}


def _places(text: str) -> set[tuple[int, int]]:
    places = element_places(cs.catalog(), TRAVEL_ID, {}, [("ZR", text)])
    return {(p.line, p.column) for p in places if p.type == "ABAP"}


def test_every_component_of_data_typed_by_a_carrying_entity_is_placed() -> None:
    found = _places(REPORT)
    lines = REPORT.split("\n")
    assert all(lines[n - 1][c : c + 8] == "travelid" for n, c in found)
    assert sorted(found - EXPECTED) == [], "renamed what is not the element"
    assert sorted(EXPECTED - found) == [], "missed a place of the element"


@pytest.mark.parametrize(
    ("needle", "why"),
    [
        ("ref->travelid", "LOOP AT … REFERENCE INTO DATA(ref): a reference"),
        ("group-travelid", "LOOP AT … GROUP BY … INTO DATA(group): a group"),
        ("ls_booking-travelid", "ZI_Booking's own TravelID is another element"),
        ("lr_travel->travelid", "a reference, not a structure"),
        ("b~travelid", "qualified by another data source"),
        ("_Booking FIELDS ( travelid )", "EML: BY \\_Booking reads ZI_Booking's fields"),
        ("Booking FIELDS ( travelid )", "EML: ENTITY Booking is ZI_Booking"),
        ("DATA travelid", "the program's variable of the same name"),
        ("travelid agencyid", "a value given in VALUE, the variable"),
    ],
)
def test_what_is_not_the_element_keeps_its_name(needle: str, why: str) -> None:
    found = _places(REPORT)
    for number, line in enumerate(REPORT.split("\n"), start=1):
        at = line.find(needle)
        while at >= 0:
            column = at + needle.index("travelid")
            assert (number, column) not in found, why
            at = line.find(needle, at + 1)


def _index() -> ProgramIndex:
    return ProgramIndex("ZR", [Unit("ZR", REPORT)])


def _cursor(needle: str) -> tuple[int, int]:
    for number, line in enumerate(REPORT.split("\n"), start=1):
        if needle in line:
            return number, line.index(needle) + needle.index("travelid") + 2
    raise AssertionError(needle)


@pytest.mark.parametrize(
    "needle",
    [
        "ls_travel-travelid",
        "it_travels[ 1 ]-travelid",
        "VALUE zi_travel( travelid",
        "t~travelid",
        " row-travelid",
        "WHERE travelid",
    ],
)
def test_a_rename_starts_from_the_element_in_abap(needle: str) -> None:
    assert abap_element_at(_index(), "ZR", *_cursor(needle), cs.catalog()) == TRAVEL_ID


@pytest.mark.parametrize("needle", ["group-travelid", "DATA travelid", "lr_travel->travelid"])
def test_other_names_are_left_to_the_abap_rename(needle: str) -> None:
    assert abap_element_at(_index(), "ZR", *_cursor(needle), cs.catalog()) is None


def test_a_table_field_read_in_sql_is_refused() -> None:
    report = "REPORT zr.\nSELECT SINGLE description FROM ztravel INTO @DATA(d).\n"
    index = ProgramIndex("ZR", [Unit("ZR", report)])
    with pytest.raises(RenameRefused, match="description is a field of ztravel"):
        abap_element_at(index, "ZR", 2, 16, cs.catalog())


def test_sql_result_names_and_names_of_other_sources_keep_their_names() -> None:
    report = (
        "REPORT zr_sums.\n"
        "SELECT travelid, SUM( totalprice ) AS totalprice FROM zi_travel\n"
        "  WHERE agencyid IN ( SELECT agencyid FROM zi_agency )\n"
        "  GROUP BY travelid INTO TABLE @DATA(sums).\n"
    )
    price = element_places(cs.catalog(), ("ZI_TRAVEL", "TOTALPRICE"), {}, [("ZR", report)])
    assert [(p.line, p.column) for p in price if p.type == "ABAP"] == [(2, 22)], (
        "not the result's name after AS"
    )
    agency = element_places(cs.catalog(), ("ZI_TRAVEL", "AGENCYID"), {}, [("ZR", report)])
    assert [(p.line, p.column) for p in agency if p.type == "ABAP"] == [], (
        "agencyid is ZI_Travel's or ZI_Agency's: an unqualified name of two sources is left"
    )


def test_eml_control_components_follow_the_element() -> None:
    report = (
        "REPORT zr_eml.\n"
        "MODIFY ENTITIES OF zi_travel ENTITY Travel\n"
        "  CREATE FROM VALUE #( ( %cid = 'T1' TravelID = '1'\n"
        "    %control-TravelID = if_abap_behv=>mk-on %data-TravelID = '1' ) )\n"
        "  MAPPED DATA(mapped).\n"
    )
    places = element_places(cs.catalog(), TRAVEL_ID, {}, [("ZR", report)])
    lines = report.split("\n")
    before = [lines[p.line - 1][: p.column].split()[-1] for p in places if p.type == "ABAP"]
    assert before == ["'T1'", "%control-", "%data-"]
