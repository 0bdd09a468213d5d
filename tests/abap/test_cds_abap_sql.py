"""Fields of CDS entities and tables proposed inside an ABAP ``SELECT`` (on our samples):
every data source's elements in the field list, ``WHERE`` and after ``FIELDS``, only the
aliased source's after ``alias~``, nothing at a data source name, a host variable or
outside ``SELECT``."""

from __future__ import annotations

from support import cds_samples as s

from adt.abap.cds.abap_sql import select_fields

METHOD = """CLASS lcl DEFINITION.
  PUBLIC SECTION.
    METHODS m.
ENDCLASS.
CLASS lcl IMPLEMENTATION.
  METHOD m.
    {statement}
  ENDMETHOD.
ENDCLASS."""


def _fields(statement: str) -> list[str] | None:
    text = METHOD.format(statement=statement)
    before = text[: text.index("|")]
    line, column = before.count("\n") + 1, len(before.split("\n")[-1])
    return select_fields(text.replace("|", "", 1), line, column, s.catalog)


def test_the_entitys_elements_in_the_field_list_where_and_after_fields() -> None:
    assert _fields("SELECT SINGLE Ag| FROM ZI_Agency INTO @DATA(a).") == ["AgencyID"]
    assert _fields("SELECT FROM ZI_Agency FIELDS |AgencyID INTO TABLE @DATA(a).") == [
        "AgencyID",
        "Name",
    ]
    assert _fields("SELECT * FROM zagency WHERE na| = 'x' INTO TABLE @DATA(a).") == ["name"]


def test_after_an_alias_only_that_sources_fields() -> None:
    found = _fields(
        "SELECT a~|name FROM zagency AS a INNER JOIN zbooking AS b ON a~client = b~client "
        "INTO TABLE @DATA(x)."
    )
    assert found == ["client", "agency_id", "name"]
    both = _fields(
        "SELECT pr| FROM zagency AS a INNER JOIN zbooking AS b ON a~client = b~client "
        "INTO TABLE @DATA(x)."
    )
    assert both == ["price"]


def test_nothing_at_a_data_source_a_host_variable_or_outside_select() -> None:
    assert _fields("SELECT * FROM ZI_Ag| INTO TABLE @DATA(a).") is None
    assert _fields("SELECT * FROM zagency WHERE name = @na| INTO TABLE @DATA(a).") is None
    assert _fields("DATA(n| ) = 1.") is None
    assert _fields("SELECT * FROM zunknown WHERE na| = 1 INTO TABLE @DATA(a).") is None


def test_inside_an_aggregate_but_not_an_inline_declaration() -> None:
    assert _fields("SELECT SINGLE FROM zagency FIELDS MAX( na| ) INTO @DATA(m).") == ["name"]
    assert _fields("SELECT SINGLE FROM zagency FIELDS name INTO @DATA( na| ).") is None


def test_a_window_of_the_source_keeps_its_line_numbers() -> None:
    lines = METHOD.format(statement="SELECT SINGLE na FROM zagency INTO @DATA(a).").split("\n")
    window = "\n".join(lines[5:8])  # from the METHOD line on, as line 6 of the source
    assert select_fields(window, 7, len("    SELECT SINGLE na"), s.catalog, first=6) == ["name"]
