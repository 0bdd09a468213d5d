"""Which names the data preview asks for: namespaced tables and entities (the flight
scenario's ``/DMO/TRAVEL``), and only objects that have rows (a behavior definition shares
its entity's name, a data element has none)."""

from __future__ import annotations

import pytest

from adt.areas.datapreview import PreviewQueryError, entity_name, entity_of_url

ADT = "/sap/bc/adt"


@pytest.mark.parametrize("name", ["ztravel", "/DMO/I_TRAVEL_M", "/dmo/travel", "T000"])
def test_table_and_entity_names_with_and_without_namespace(name: str) -> None:
    assert entity_name(name) == name.upper()


@pytest.mark.parametrize("name", ["/DMO/", "/DMO/A/B", "a;b", "ZX WHERE 1", "/DMO//X"])
def test_anything_else_is_refused(name: str) -> None:
    with pytest.raises(PreviewQueryError, match="not a table or CDS entity name"):
        entity_name(name)


@pytest.mark.parametrize(
    ("url", "entity"),
    [
        (f"{ADT}/ddic/tables/%2fdmo%2ftravel", "/DMO/TRAVEL"),
        (f"{ADT}/ddic/ddl/sources/%2fdmo%2fi_travel_m/source/main", "/DMO/I_TRAVEL_M"),
    ],
)
def test_tables_and_data_definitions_name_their_entity(url: str, entity: str) -> None:
    assert entity_of_url(url) == entity


@pytest.mark.parametrize(
    ("url", "label"),
    [
        (f"{ADT}/bo/behaviordefinitions/%2fdmo%2fi_travel_m", "Behavior Definition"),
        (f"{ADT}/ddic/dataelements/%2fdmo%2ftravel_id", "Data Element"),
        (f"{ADT}/ddic/structures/%2fdmo%2fs_x/source/main", "Structure"),
    ],
)
def test_other_kinds_have_no_rows(url: str, label: str) -> None:
    with pytest.raises(PreviewQueryError, match=f"\\({label}\\) has no rows to preview"):
        entity_of_url(url)
