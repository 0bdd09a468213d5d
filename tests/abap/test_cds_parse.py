"""Golden tests of the CDS-family parser: one per construct, on our own samples."""

from __future__ import annotations

from support import cds_samples as s

from adt.abap.cds import model as m
from adt.abap.cds.parse import parse
from adt.abap.cds.tokens import tokenize


def _elements(text: str, kind: str = "DDLS") -> list[tuple[str, bool, str, str]]:
    source = parse(text, kind)
    assert source.errors == []
    assert source.definition is not None
    return [
        (e.name, e.key, ".".join(p.name for p in e.path), e.type)
        for e in source.definition.elements
    ]


def _references(text: str, kind: str = "DDLS") -> list[tuple[str, str]]:
    return [(r.name, r.role) for r in parse(text, kind).references]


def test_comments_strings_and_namespaces_are_tokens_of_their_own() -> None:
    tokens = tokenize(
        "select from /DMO/I_Travel -- c\n/* a\n b */ 'it''s' #ENUM // x\n$projection.a"
    )
    assert [(t.text, t.kind) for t in tokens] == [
        ("select", "name"),
        ("from", "name"),
        ("/DMO/I_Travel", "name"),
        ("'it''s'", "string"),
        ("#ENUM", "enum"),
        ("$projection", "name"),
        (".", "op"),
        ("a", "name"),
    ]
    assert (tokens[3].line, tokens[3].column) == (3, 6)


def test_view_entity_with_parameters_associations_and_computed_elements() -> None:
    source = parse(s.TRAVEL_VIEW, "DDLS")
    definition = source.definition
    assert definition is not None and source.errors == []
    assert (definition.kind, definition.name, definition.root) == ("view entity", "ZI_Travel", True)
    assert [(p.name, p.type) for p in definition.parameters] == [("p_currency", "abap.cuky")]
    assert [(d.name, d.alias) for d in definition.sources] == [("ztravel", "Travel")]
    assert [(a.name, a.target, a.cardinality, a.kind) for a in definition.associations] == [
        ("_Booking", "ZI_Booking", "[0..*]", "composition"),
        ("_Agency", "ZI_Agency", "[0..1]", "association"),
        ("_Currency", "I_Currency", "[0..1]", "association"),
    ]
    assert [[p.name for p in path] for path in definition.associations[1].condition] == [
        ["$projection", "AgencyID"],
        ["_Agency", "AgencyID"],
    ]
    assert _elements(s.TRAVEL_VIEW) == [
        ("TravelID", True, "travel_id", ""),
        ("AgencyID", False, "agency_id", ""),
        ("TotalPrice", False, "total_price", ""),
        ("CurrencyCode", False, "currency_code", ""),
        ("PriceDecimal", False, "", "abap.dec(16,2)"),
        ("IsEuro", False, "", ""),
        ("CreatedBy", False, "Travel.created_by", ""),
        ("TargetCurrency", False, "$parameters.p_currency", ""),
        ("AgencyName", False, "_Agency.Name", ""),
        ("_Booking", False, "_Booking", ""),
        ("_Agency", False, "_Agency", ""),
        ("_Currency", False, "_Currency", ""),
    ]
    assert [a.name for a in definition.annotations] == [
        "AccessControl.authorizationCheck",
        "EndUserText.label",
    ]
    assert definition.elements[2].annotations[0].value == "'CurrencyCode'"


def test_projection_with_redirections_and_child_to_parent() -> None:
    projection = parse(s.TRAVEL_PROJECTION, "DDLS").definition
    assert projection is not None
    assert projection.kind == "projection" and projection.root
    redirected = [(e.name, e.redirected_to) for e in projection.elements if e.redirected_to]
    assert redirected == [("_Booking", "ZC_Booking")]
    assert _references(s.TRAVEL_PROJECTION) == [
        ("ZI_Travel", m.PROJECTED),
        ("ZC_Booking", m.REDIRECT),
    ]
    child = parse(s.BOOKING_VIEW, "DDLS").definition
    assert child is not None
    assert [(a.kind, a.target) for a in child.associations] == [("to parent", "ZI_Travel")]


def test_classic_view_with_join_and_sql_view_name() -> None:
    definition = parse(s.CLASSIC_VIEW, "DDLS").definition
    assert definition is not None and definition.kind == "view"
    assert [d.name for d in definition.sources] == ["ztravel", "zagency"]
    assert definition.annotations[0].value == "'ZVTRAVEL'"
    assert _elements(s.CLASSIC_VIEW) == [
        ("travel_id", True, "ztravel.travel_id", ""),
        ("name", False, "zagency.name", ""),
    ]


def test_typed_entities_table_function_and_extension() -> None:
    assert _elements(s.ABSTRACT) == [("discount_percent", False, "", "abap.int1")]
    custom = parse(s.CUSTOM, "DDLS").definition
    assert custom is not None and custom.kind == "custom entity"
    assert [(e.name, e.association) for e in custom.elements] == [
        ("TravelID", False),
        ("Note", False),
        ("_Agency", True),
    ]
    function = parse(s.TABLE_FUNCTION, "DDLS")
    assert function.definition is not None and function.errors == []
    assert function.definition.kind == "table function"
    assert function.definition.implementation == "zcl_travel_amdp"
    assert ("zcl_travel_amdp", m.IMPLEMENTATION) in _references(s.TABLE_FUNCTION)
    extension = parse(s.TRAVEL_EXTENSION, "DDLS").definition
    assert extension is not None
    assert (extension.kind, extension.name) == ("extension", "ZI_Travel")
    assert _elements(s.TRAVEL_EXTENSION) == [("Description", False, "Travel.description", "")]


def test_table_source_with_keys_types_and_include() -> None:
    table = parse(s.TRAVEL_TABLE, "TABL").definition
    assert table is not None and table.kind == "table"
    assert [(e.name, e.key, e.type, e.not_null) for e in table.elements] == [
        ("client", True, "abap.clnt", True),
        ("travel_id", True, "ztravel_id", True),
        ("agency_id", False, "zagency_id", False),
        ("total_price", False, "abap.curr(16,2)", False),
        ("currency_code", False, "abap.cuky", False),
        ("description", False, "abap.char(80)", False),
    ]
    assert table.includes == ["zs_admin"]
    assert table.annotations[1].value == "#TRANSPARENT"


def test_metadata_extension_role_and_service() -> None:
    metadata = parse(s.METADATA, "DDLX").definition
    assert metadata is not None and metadata.kind == "metadata extension"
    assert [(e.name, [a.name for a in e.annotations]) for e in metadata.elements] == [
        ("TravelID", ["UI.lineItem"]),
        ("AgencyID", ["UI"]),
    ]
    assert _references(s.ROLE, "DCLS") == [
        ("ZI_Travel", m.PROTECTED),
        ("ZC_Travel", m.PROTECTED),
        ("ZI_Travel", m.INHERITED),
    ]
    service = parse(s.SERVICE, "SRVD").definition
    assert service is not None
    assert [(e.entity, e.alias) for e in service.exposures] == [
        ("ZC_Travel", "Travel"),
        ("ZC_Booking", "Booking"),
        ("I_CurrencyStdVH", "I_CurrencyStdVH"),
    ]


def test_behavior_definition_items_and_references() -> None:
    source = parse(s.BEHAVIOR, "BDEF")
    definition = source.definition
    assert definition is not None and source.errors == []
    assert (definition.implementation, definition.pool, definition.name) == (
        "managed",
        "zbp_i_travel",
        "ZI_Travel",
    )
    travel, booking = definition.behaviors
    assert (travel.alias, travel.persistent_table, booking.alias) == (
        "Travel",
        "ztravel",
        "Booking",
    )
    assert [(i.kind, i.name) for i in travel.items] == [
        ("operation", "create"),
        ("operation", "update"),
        ("operation", "delete"),
        ("association", "_Booking"),
        ("action", "acceptTravel"),
        ("action", "discount"),
        ("determination", "setTotal"),
        ("validation", "validateAgency"),
    ]
    assert [f.name for f in travel.fields] == ["TravelID", "AgencyID", "CurrencyCode"]
    assert [(r.name, r.role) for r in source.references] == [
        ("zbp_i_travel", m.BEHAVIOR_POOL),
        ("ZI_Travel", m.BEHAVIOR_ENTITY),
        ("ztravel", m.PERSISTENT_TABLE),
        ("ZA_Discount", m.DATA_SOURCE),
        ("ztravel", m.MAPPED_TABLE),
        ("ZI_Booking", m.BEHAVIOR_ENTITY),
        ("zbooking", m.PERSISTENT_TABLE),
    ]


def test_broken_sources_give_errors_not_exceptions() -> None:
    broken = parse("define view entity Z as select from { key a, }", "DDLS")
    assert broken.errors
    assert parse("define behavior for", "BDEF").errors
    assert parse("annotate", "DDLX").errors
    assert parse("", "DDLS").definition is None
    truncated = parse(s.TRAVEL_VIEW[: len(s.TRAVEL_VIEW) // 2], "DDLS")
    assert truncated.definition is not None and truncated.errors
