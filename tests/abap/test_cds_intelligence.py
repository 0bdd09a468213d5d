"""Completion, element info, go-to-definition, where-used, outline and folds of CDS-family
sources, on our samples."""

from __future__ import annotations

from support import cds_samples as s

from adt.abap.cds.complete import complete
from adt.abap.cds.info import element_info
from adt.abap.cds.navigate import abap_data_source_at, definition_at, where_used
from adt.abap.cds.outline import folds, outline
from adt.abap.cds.parse import parse


def _cursor(text: str, marker: str) -> tuple[str, int, int]:
    """The text without ``marker`` and the (line, column) where it was."""
    before = text[: text.index(marker)]
    line = before.count("\n") + 1
    column = len(before.split("\n")[-1])
    return text.replace(marker, "", 1), line, column


def _labels(text: str, kind: str = "DDLS") -> list[str]:
    clean, line, column = _cursor(text, "|")
    return [item.label for item in complete(clean, kind, line, column, s.catalog())]


def test_data_sources_are_proposed_after_from_and_association_to() -> None:
    assert _labels("define view entity ZX as select from ZI_|") == [
        "ZI_Agency",
        "ZI_Booking",
        "ZI_Travel",
    ]
    text = s.TRAVEL_VIEW.replace("to ZI_Agency as", "to zag| as")
    assert _labels(text) == ["zagency"]
    assert "ZC_Travel" in _labels("define service Z { expose ZC_|")


def test_fields_and_associations_after_a_path_and_in_the_element_list() -> None:
    assert _labels(s.TRAVEL_VIEW.replace("_Agency.Name as", "_Agency.|Name as")) == [
        "AgencyID",
        "Name",
    ]
    after_alias = _labels(s.TRAVEL_VIEW.replace("Travel.created_by", "Travel.cr|"))
    assert after_alias == ["created_by"]
    in_list = _labels(s.TRAVEL_VIEW.replace("      agency_id     as AgencyID,", "      ag|"))
    assert in_list == ["agency_id"]
    associations = _labels(s.TRAVEL_VIEW.replace("      _Agency,\n", "      _|\n"))
    assert associations == ["_Agency", "_Booking", "_Currency"]
    assert _labels(s.TRAVEL_VIEW.replace("$parameters.p_currency", "$parameters.|")) == [
        "p_currency"
    ]


def test_annotations_by_name_and_bdef_fields() -> None:
    assert _labels("@EndUser|\ndefine view entity Z as select from zagency { key agency_id }") == [
        "EndUserText.label",
        "EndUserText.quickInfo",
    ]
    bdef = _labels(s.BEHAVIOR.replace("( readonly ) TravelID;", "( readonly ) Trav|;"), "BDEF")
    assert bdef == ["TravelID"]


def test_element_info_has_type_label_and_origin() -> None:
    catalog = s.catalog()
    text, line, column = _cursor(
        s.TRAVEL_PROJECTION.replace("  key TravelID", "  key Trav|elID"), "|"
    )
    info = element_info(parse(text, "DDLS"), catalog, line, column)
    assert info is not None
    assert (info.name, info.kind, info.type, info.label, info.owner) == (
        "TravelID",
        "key field",
        "ztravel_id (NUMC(8))",
        "Travel ID",
        "ZI_Travel",
    )
    text, line, column = _cursor(s.TRAVEL_VIEW.replace("to ZI_Agency as", "to ZI_Age|ncy as"), "|")
    entity = element_info(parse(text, "DDLS"), catalog, line, column)
    assert entity is not None
    assert (entity.name, entity.kind, entity.label, entity.keys) == (
        "ZI_Agency",
        "view entity",
        "Agency",
        ["AgencyID"],
    )
    assert "Travel ID" in info.markdown()


def test_go_to_definition_from_cds_bdef_and_abap() -> None:
    catalog = s.catalog()
    text, line, column = _cursor(s.TRAVEL_PROJECTION.replace("on ZI_Travel", "on ZI_Tr|avel"), "|")
    target = definition_at(parse(text, "DDLS"), catalog, line, column)
    assert target is not None
    assert (target.object_name, target.object_type, target.line) == ("ZI_TRAVEL", "DDLS", 3)
    text, line, column = _cursor(s.TRAVEL_VIEW.replace("_Agency.Name as", "_Agency.Na|me as"), "|")
    field = definition_at(parse(text, "DDLS"), catalog, line, column)
    assert field is not None
    assert (field.object_name, field.line, field.column) == ("ZI_AGENCY", 5, 19)
    text, line, column = _cursor(
        s.BEHAVIOR.replace("class zbp_i_travel", "class zbp_i_t|ravel"), "|"
    )
    pool = definition_at(parse(text, "BDEF"), catalog, line, column)
    assert pool is not None and (pool.object_name, pool.object_type) == ("ZBP_I_TRAVEL", "CLAS")
    text, line, column = _cursor(s.ABAP_REPORT.replace("FROM zc_travel", "FROM zc_tr|avel"), "|")
    assert abap_data_source_at(text, line, column) == "zc_travel"


def test_where_used_across_kinds() -> None:
    uses = where_used("ZC_Travel", s.catalog(), [("ZR_TRAVELS", "PROG/P", s.ABAP_REPORT)])
    assert [(u.object_name, u.object_type, u.role) for u in uses] == [
        ("ZC_TRAVEL", "BDEF", "behavior entity"),
        ("ZI_TRAVEL", "DCLS", "protected entity"),
        ("ZC_BOOKING", "DDLS", "redirection target"),
        ("ZC_TRAVEL", "DDLX", "annotated entity"),
        ("ZR_TRAVELS", "PROG/P", "selected in ABAP"),
        ("ZUI_TRAVEL", "SRVD", "exposed entity"),
    ]
    travel = where_used("ZI_Travel", s.catalog(), [("ZR_TRAVELS", "PROG/P", s.ABAP_REPORT)])
    assert ("ZR_TRAVELS", "selected in ABAP") in {(u.object_name, u.role) for u in travel}
    assert ("ZC_TRAVEL", "projected entity") in {(u.object_name, u.role) for u in travel}


def test_outline_and_folds() -> None:
    [view] = outline(parse(s.TRAVEL_VIEW, "DDLS"))
    assert (view.name, view.kind, view.detail) == ("ZI_Travel", "entity", "view entity")
    kinds = [(c.name, c.kind) for c in view.children]
    assert kinds[:4] == [
        ("p_currency", "parameter"),
        ("_Booking", "association"),
        ("_Agency", "association"),
        ("_Currency", "association"),
    ]
    assert ("TotalPrice", "field") in kinds
    travel, booking = outline(parse(s.BEHAVIOR, "BDEF"))
    assert (travel.name, travel.detail) == ("ZI_Travel", "Travel")
    assert [(c.name, c.kind) for c in travel.children][-3:] == [
        ("discount", "action"),
        ("setTotal", "determination"),
        ("validateAgency", "validation"),
    ]
    assert travel.end[0] == 20 and booking.start[0] == 22
    assert folds(s.TRAVEL_VIEW) == [(9, 24)]


def test_more_places_that_name_an_object_and_a_path_through_a_filter() -> None:
    """Found by the flight audit: classes after ``implementation in class``, the parent
    after ``association to parent``, an entity after ``extension using interface`` and after
    an action's ``parameter``; the elements after a filtered step ``_Agency[ … ].``."""
    header = s.BEHAVIOR.split("\n", 1)[0]
    assert "ZBP_I_TRAVEL" in _labels(header.replace("class zbp_i_travel", "class zbp|"), "BDEF")
    parent = s.BOOKING_VIEW.replace("to parent ZI_Travel as", "to parent ZI_Tr| as")
    assert _labels(parent) == ["ZI_Travel"]
    assert _labels("extension using interface ZI_Tr|", "BDEF") == ["ZI_Travel"]
    action = "managed;\ndefine behavior for ZI_Travel\n{\n  action a parameter ZA_|;\n}"
    assert _labels(action, "BDEF") == ["ZA_Discount"]
    filtered = s.TRAVEL_VIEW.replace("_Agency.Name as", "_Agency[ 1: Name = 'x' ].|Name as")
    assert _labels(filtered) == ["AgencyID", "Name"]


def test_after_a_cardinality_in_words_and_a_hierarchys_source() -> None:
    """Release 2023's ``association of many to one X``/``to many X`` and a hierarchy's
    ``source X`` (found by the flight audit on the cloud branch)."""
    words = s.TRAVEL_VIEW.replace("[0..1] to ZI_Agency as", "of many to one ZI_Ag| as")
    assert _labels(words) == ["ZI_Agency"]
    assert _labels(s.TRAVEL_VIEW.replace("[0..1] to ZI_Agency as", "to many ZI_Ag| as")) == [
        "ZI_Agency"
    ]
    hierarchy = "define hierarchy ZH as parent child hierarchy( source ZI_Tr|"
    assert _labels(hierarchy) == ["ZI_Travel"]


def test_nothing_inside_a_comment_or_an_open_string() -> None:
    """The family's lexer says where the cursor is: a path or a ``from`` in a comment or a
    string being typed proposes nothing."""
    assert (
        _labels(s.TRAVEL_VIEW.replace("_Agency.Name as", "// see _Agency.| \n _Agency.Name as"))
        == []
    )
    assert _labels("define view entity ZX as select from ZI_Agency /* from ZI_| */") == []
    assert _labels("@EndUserText.label: 'from ZI_|\ndefine view entity ZX") == []
    assert _labels("define view entity ZX as select from ZI_|") != []
