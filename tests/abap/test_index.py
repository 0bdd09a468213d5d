"""The pure symbol index (adt.abap): lexer, declarations, scope rules, occurrences, completion."""

from __future__ import annotations

from pathlib import Path

import pytest

from adt.abap.completion import complete, prefix_at
from adt.abap.index import ProgramIndex, Unit
from adt.abap.lexer import LITERAL, NAME, lex
from adt.abap.lookup import type_of
from adt.abap.signatures import signature
from adt.abap.symbols import Location, Occurrence, Symbol, SymbolKind
from adt.emulator.large_sample import large_class_includes, large_class_source

SAMPLES = Path(__file__).resolve().parents[2] / "adt" / "emulator" / "samples" / "src" / "$zdemo"


def _read(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8").rstrip("\n")


class SampleLibrary:
    """The seeded repository as declaration-only indexes (what the emulator gives the index)."""

    def __init__(self) -> None:
        self.programs: dict[str, ProgramIndex] = {}
        self.add("ZIF_DEMO_GREETING", {"zif": _read("zif_demo_greeting.intf.abap")})
        self.add("ZCL_DEMO_GREETER", greeter_units())
        self.add("ZCL_DEMO_COUNTER", {"counter": _read("zcl_demo_counter.clas.abap")})
        group = {n: _read(f"zdemo_fg.fugr.{n}.abap") for n in FG_UNITS}
        index = ProgramIndex("SAPLZDEMO_FG", [Unit(k, v) for k, v in group.items()], self)
        self.programs["Z_DEMO_ADD"] = self.programs["Z_DEMO_GREET"] = index

    def add(self, name: str, units: dict[str, str]) -> None:
        parts = [Unit(k, v) for k, v in units.items()]
        self.programs[name] = ProgramIndex(name, parts, self, resolve=False)

    def global_symbol(self, name: str) -> Symbol | None:
        if name == "ZDEMO_INCLUDE":
            return Symbol(SymbolKind.INCLUDE, name, Location("include", 1, 0), None)
        program = self.programs.get(name)
        return program.symbol(name) if program is not None else None

    def global_names(self, prefix: str) -> list[Symbol]:
        found = [self.global_symbol(n) for n in self.programs if n.startswith(prefix.upper())]
        return [s for s in found if s is not None and s.kind is not SymbolKind.FUNCTION]


FG_UNITS = ("saplzdemo_fg", "lzdemo_fgtop", "z_demo_add", "z_demo_greet")


def greeter_units(**override: str) -> dict[str, str]:
    units = {
        "definitions": _read("zcl_demo_greeter.clas.locals_def.abap"),
        "implementations": _read("zcl_demo_greeter.clas.locals_imp.abap"),
        "macros": _read("zcl_demo_greeter.clas.macros.abap"),
        "testclasses": _read("zcl_demo_greeter.clas.testclasses.abap"),
        "main": _read("zcl_demo_greeter.clas.abap"),
    }
    units.update(override)
    return units


@pytest.fixture(scope="module")
def library() -> SampleLibrary:
    return SampleLibrary()


@pytest.fixture(scope="module")
def greeter(library: SampleLibrary) -> ProgramIndex:
    units = [Unit(k, v) for k, v in greeter_units().items()]
    return ProgramIndex("ZCL_DEMO_GREETER", units, library)


@pytest.fixture(scope="module")
def report(library: SampleLibrary) -> ProgramIndex:
    units = [
        Unit("report", _read("zdemo_report.prog.abap")),
        Unit("include", _read("zdemo_include.prog.abap")),
    ]
    return ProgramIndex("ZDEMO_REPORT", units, library)


def _at(index: ProgramIndex, unit: str, line: int, column: int) -> Occurrence:
    found = index.occurrence_at(unit, line, column)
    assert found is not None, (unit, line, column, index.line_text(unit, line))
    return found


def _where(symbol: Symbol) -> tuple[str, int, int]:
    assert symbol.location is not None
    return symbol.location.unit, symbol.location.line, symbol.location.column


def program(text: str, library: SampleLibrary | None = None) -> ProgramIndex:
    return ProgramIndex("ZTEST", [Unit("src", text)], library)


# lexer --------------------------------------------------------------------------------------


def test_lexer_positions_chains_and_templates() -> None:
    lexed = lex(
        'DATA: a TYPE i, b TYPE REF TO /abc/cl_x. " comment\n'
        "* a comment line\n"
        "x = |{ mv_x }, { zif_y=>c }!| && 'it''s'. \"! not doc\n"
        "FIELD-SYMBOLS <fs> TYPE any ##NEEDED.\n"
        "y = a / b."
    )
    first, second, third, fourth, fifth = lexed.statements
    assert [t.text for t in first.tokens] == ["DATA", "a", "TYPE", "i"]
    assert [t.text for t in second.tokens] == ["DATA", "b", "TYPE", "REF", "TO", "/abc/cl_x"]
    assert (second.tokens[5].line, second.tokens[5].column) == (1, 30)
    names = [(t.text, t.column) for t in third.tokens if t.kind == NAME]
    assert names == [("x", 0), ("mv_x", 7), ("zif_y", 17), ("c", 24)]
    assert third.tokens[-1].kind == LITERAL and third.tokens[-1].text == "'it''s'"
    assert fourth.first == "FIELD-SYMBOLS" and fourth.tokens[3].text == "<fs>"
    assert "##NEEDED" not in [t.text for t in fourth.tokens]
    assert [t.text for t in fifth.tokens] == ["y", "=", "a", "/", "b"]
    assert lexed.docs == {}


def test_lexer_keeps_an_unfinished_statement() -> None:
    lexed = lex("REPORT z.\nlo->gr")
    assert lexed.statements[-1].terminated is False
    assert [t.text for t in lexed.statements[-1].tokens] == ["lo", "->", "gr"]


# declarations ----------------------------------------------------------------------------


def test_class_declarations_with_kinds_positions_and_signatures(greeter: ProgramIndex) -> None:
    cls = greeter.symbol("ZCL_DEMO_GREETER")
    assert cls is not None and cls.kind is SymbolKind.CLASS and cls.is_global
    assert _where(cls) == ("main", 1, 6)
    assert cls.implementation == Location("main", 26, 6)
    assert cls.interfaces == ["ZIF_DEMO_GREETING"]
    assert cls.members is not None
    greet_all = cls.members.local("GREET_ALL")
    assert greet_all is not None and greet_all.kind is SymbolKind.METHOD
    assert greet_all.visibility == "public" and greet_all.implementation == Location("main", 44, 9)
    assert [(p.name, p.param_kind, p.typing) for p in greet_all.params] == [
        ("IT_NAMES", "importing", "TYPE STRING_TABLE"),
        ("RT_LINES", "returning", "TYPE STRING_TABLE"),
    ]
    assert signature(greet_all) == (
        "METHODS GREET_ALL IMPORTING IT_NAMES TYPE STRING_TABLE "
        "RETURNING VALUE(RT_LINES) TYPE STRING_TABLE"
    )
    constructor = cls.members.local("CONSTRUCTOR")
    assert constructor is not None
    [salutation] = constructor.params
    assert (salutation.optional, salutation.default) == (True, "`Hello`")
    attribute = cls.members.local("MO_FORMATTER")
    assert attribute is not None and attribute.kind is SymbolKind.ATTRIBUTE
    assert (attribute.visibility, attribute.typing) == ("private", "TYPE REF TO LCL_FORMATTER")
    alias = cls.members.local("GREET")
    assert alias is not None and alias.kind is SymbolKind.ALIAS
    assert alias.alias_for == "ZIF_DEMO_GREETING~GREET"


def test_interface_with_abap_doc_and_constant(library: SampleLibrary) -> None:
    interface = library.global_symbol("ZIF_DEMO_GREETING")
    assert interface is not None and interface.members is not None
    greet = interface.members.local("GREET")
    assert greet is not None and greet.description == (
        "Greets one person, or everybody when no name is given"
    )
    assert [(p.name, p.optional, p.by_value) for p in greet.params] == [
        ("IV_NAME", True, False),
        ("RV_TEXT", False, True),
    ]
    constant = interface.members.local("C_DEFAULT_NAME")
    assert constant is not None and constant.kind is SymbolKind.CONSTANT


def test_function_module_parameters_from_the_interface_comment(library: SampleLibrary) -> None:
    module = library.global_symbol("Z_DEMO_ADD")
    assert module is not None and module.kind is SymbolKind.FUNCTION
    assert _where(module) == ("z_demo_add", 1, 9)
    assert [(p.name, p.param_kind, p.typing, p.by_value) for p in module.params] == [
        ("IV_A", "importing", "TYPE I", True),
        ("IV_B", "importing", "TYPE I", True),
        ("EV_SUM", "exporting", "TYPE I", True),
    ]
    assert _where(module.params[0]) == ("z_demo_add", 5, 13)


def test_function_module_parameters_in_the_statement() -> None:
    index = program(
        "FUNCTION z_x\n  IMPORTING\n    VALUE(iv_a) TYPE i\n    iv_b TYPE string OPTIONAL.\n"
        "  DATA(lv) = iv_a.\nENDFUNCTION."
    )
    module = index.symbol("Z_X")
    assert module is not None
    assert [(p.name, p.optional) for p in module.params] == [("IV_A", False), ("IV_B", True)]
    assert _at(index, "src", 5, 15).symbol is module.params[0]


# references and scope rules ------------------------------------------------------------------


def test_references_across_class_includes_and_objects(
    greeter: ProgramIndex, library: SampleLibrary
) -> None:
    formatter = greeter.symbol("LCL_FORMATTER")
    assert formatter is not None and _where(formatter) == ("definitions", 5, 6)
    assert _at(greeter, "main", 21, 34).symbol is formatter  # TYPE REF TO lcl_formatter
    assert _at(greeter, "main", 30, 23).symbol is formatter  # NEW lcl_formatter( )
    capitalize = _at(greeter, "main", 39, 52).symbol  # mo_formatter->capitalize( )
    assert _where(capitalize) == ("definitions", 7, 12)
    assert capitalize.implementation == Location("implementations", 6, 9)
    interface = library.global_symbol("ZIF_DEMO_GREETING")
    assert _at(greeter, "main", 37, 40).symbol is interface
    constant = _at(greeter, "main", 37, 60).symbol
    assert constant.name == "C_DEFAULT_NAME" and _where(constant) == ("zif", 4, 12)
    implemented = _at(greeter, "main", 34, 30)
    assert implemented.role == "implementation" and _where(implemented.symbol) == ("zif", 7, 10)
    assert _at(greeter, "main", 36, 9).symbol.name == "IV_NAME"  # parameter of zif~greet
    assert _at(greeter, "main", 26, 10).role == "anchor"  # CLASS zcl IMPLEMENTATION


def test_locals_inline_declarations_macros_and_aliases(greeter: ProgramIndex) -> None:
    name = _at(greeter, "main", 45, 33)
    assert name.role == "declaration" and name.symbol.kind is SymbolKind.VARIABLE
    assert _at(greeter, "main", 46, 30).symbol is name.symbol
    assert _at(greeter, "main", 47, 8).symbol.kind is SymbolKind.MACRO
    assert _at(greeter, "main", 47, 26).symbol.name == "LV_LINE"
    alias = _at(greeter, "main", 46, 24).symbol
    assert alias.kind is SymbolKind.ALIAS and _where(alias) == ("main", 9, 12)
    usages = [(o.unit, o.line, o.column) for o in greeter.usages(alias)]
    assert usages == [("main", 46, 22), ("testclasses", 24, 54), ("testclasses", 29, 54)]


def test_test_classes_see_the_global_class(greeter: ProgramIndex) -> None:
    cls = greeter.symbol("ZCL_DEMO_GREETER")
    assert cls is not None
    assert _at(greeter, "testclasses", 8, 30).symbol is cls
    method = _at(greeter, "testclasses", 34, 30).symbol
    assert method.name == "GREET_ALL" and _where(method) == ("main", 14, 12)
    lines = _at(greeter, "testclasses", 35, 55).symbol
    assert lines.name == "LT_LINES" and _where(lines) == ("testclasses", 34, 9)


def test_report_include_function_module_and_form(
    report: ProgramIndex, library: SampleLibrary
) -> None:
    module = library.global_symbol("Z_DEMO_ADD")
    call = _at(report, "report", 19, 20)
    assert call.symbol is module and (call.column, call.length) == (17, 10)
    assert _at(report, "report", 21, 7).symbol.name == "IV_A"
    assert _where(_at(report, "report", 24, 7).symbol) == ("z_demo_add", 8, 13)
    form = _at(report, "report", 27, 12).symbol
    assert form.kind is SymbolKind.FORM and _where(form) == ("include", 6, 5)
    assert _at(report, "report", 29, 12).symbol.kind is SymbolKind.INCLUDE
    greeter = _at(report, "report", 13, 30).symbol
    assert greeter.name == "ZCL_DEMO_GREETER"
    lo_greeter = _at(report, "report", 16, 13).symbol
    assert type_of(lo_greeter) is greeter
    assert _at(report, "report", 16, 26).symbol.kind is SymbolKind.ALIAS
    assert _at(report, "include", 7, 6).symbol.name == "IV_SUM"


def test_scope_rules_locals_before_parameters_before_members() -> None:
    index = program(
        "CLASS lcl_base DEFINITION.\n"  # 1
        "  PUBLIC SECTION.\n"
        "    DATA mv_x TYPE i.\n"  # 3
        "    METHODS run IMPORTING iv_x TYPE i.\n"  # 4
        "ENDCLASS.\n"
        "CLASS lcl_sub DEFINITION INHERITING FROM lcl_base.\n"  # 6
        "  PUBLIC SECTION.\n"
        "    DATA iv_x TYPE i.\n"  # 8
        "    METHODS run REDEFINITION.\n"
        "    METHODS go IMPORTING iv_x TYPE i.\n"  # 10
        "ENDCLASS.\n"
        "CLASS lcl_sub IMPLEMENTATION.\n"
        "  METHOD go.\n"  # 13
        "    DATA mv_x TYPE string.\n"  # 14
        "    mv_x = iv_x.\n"  # 15
        "    me->mv_x = 1.\n"  # 16
        "    super->run( iv_x = 1 ).\n"  # 17
        "  ENDMETHOD.\n"
        "  METHOD run.\n"
        "    mv_x = iv_x.\n"  # 20
        "  ENDMETHOD.\n"
        "ENDCLASS."
    )
    local = _at(index, "src", 15, 4)
    assert _where(local.symbol) == ("src", 14, 9) and local.write
    assert _where(_at(index, "src", 15, 12).symbol) == ("src", 10, 25)  # parameter, not attribute
    assert _where(_at(index, "src", 16, 9).symbol) == ("src", 3, 9)  # me-> skips the local
    assert _where(_at(index, "src", 17, 12).symbol) == ("src", 4, 12)  # super->run
    assert _where(_at(index, "src", 17, 16).symbol) == ("src", 4, 26)  # formal parameter
    assert _where(_at(index, "src", 20, 4).symbol) == ("src", 3, 9)  # inherited attribute
    assert _where(_at(index, "src", 20, 11).symbol) == ("src", 4, 26)  # the redefined signature
    assert _where(_at(index, "src", 9, 12).symbol) == ("src", 4, 12)  # METHODS run REDEFINITION
    implementations = [(o.line, o.role) for o in index.usages(_at(index, "src", 9, 12).symbol)]
    assert implementations == [(9, "reference"), (17, "reference"), (19, "implementation")]
    assert _where(_at(index, "src", 6, 42).symbol) == ("src", 1, 6)  # INHERITING FROM


def test_interface_components_structures_and_field_symbols(library: SampleLibrary) -> None:
    index = program(
        "TYPES: BEGIN OF ty_pair,\n"  # 1
        "         key TYPE string,\n"  # 2
        "         val TYPE i,\n"
        "       END OF ty_pair.\n"
        "DATA ls_pair TYPE ty_pair.\n"  # 5
        "DATA lo_greeter TYPE REF TO zcl_demo_greeter.\n"  # 6
        "DATA lo_if TYPE REF TO zif_demo_greeting.\n"  # 7
        "FIELD-SYMBOLS <ls_pair> TYPE ty_pair.\n"  # 8
        "START-OF-SELECTION.\n"
        "  ls_pair-key = lo_greeter->zif_demo_greeting~greet( iv_name = `x` ).\n"  # 10
        "  ASSIGN ls_pair TO <ls_pair>.\n"  # 11
        "  <ls_pair>-val = strlen( lo_if->greet( ) ).\n"  # 12
        "  WRITE zif_demo_greeting=>c_default_name.\n",  # 13
        library,
    )
    key = _at(index, "src", 10, 11).symbol
    assert key.kind is SymbolKind.COMPONENT and _where(key) == ("src", 2, 9)
    assert _at(index, "src", 10, 30).symbol.kind is SymbolKind.INTERFACE
    greet = _at(index, "src", 10, 50).symbol
    assert _where(greet) == ("zif", 7, 10)
    assert _where(_at(index, "src", 10, 55).symbol) == ("zif", 8, 14)
    assert _where(_at(index, "src", 11, 21).symbol) == ("src", 8, 14)
    assert _at(index, "src", 12, 13).symbol.name == "VAL"
    assert _at(index, "src", 12, 34).symbol is greet
    assert _at(index, "src", 13, 29).symbol.name == "C_DEFAULT_NAME"


def test_keywords_are_no_references_unless_used_as_operands() -> None:
    index = program(
        "CLASS lcl DEFINITION.\n"
        "  PUBLIC SECTION.\n"
        "    METHODS value RETURNING VALUE(rv) TYPE i.\n"  # 3
        "ENDCLASS.\n"
        "CLASS lcl IMPLEMENTATION.\n"
        "  METHOD value.\n"
        "    DATA lt TYPE STANDARD TABLE OF i WITH EMPTY KEY.\n"
        "    lt = VALUE #( ( 1 ) ).\n"  # 8
        "    rv = value( ).\n"  # 9
        "  ENDMETHOD.\n"
        "ENDCLASS."
    )
    assert index.occurrence_at("src", 8, 10) is None
    assert _where(_at(index, "src", 9, 10).symbol) == ("src", 3, 12)
    assert _at(index, "src", 3, 34).symbol.name == "RV"  # VALUE(rv) declares the parameter


def test_unfinished_method_still_resolves() -> None:
    index = program(
        "CLASS lcl DEFINITION.\n  PUBLIC SECTION.\n    METHODS m.\n    DATA mv TYPE i.\nENDCLASS.\n"
        "CLASS lcl IMPLEMENTATION.\n  METHOD m.\n    DATA lv_count TYPE i.\n    lv_count = mv"
    )
    assert _where(_at(index, "src", 9, 5).symbol) == ("src", 8, 9)
    assert _where(_at(index, "src", 9, 16).symbol) == ("src", 4, 9)


def test_usages_exclude_the_declaration(greeter: ProgramIndex) -> None:
    salutation = greeter.symbol("ZCL_DEMO_GREETER")
    assert salutation is not None and salutation.members is not None
    attribute = salutation.members.local("MV_SALUTATION")
    assert attribute is not None
    usages = greeter.usages(attribute)
    assert [(o.line, o.column, o.write) for o in usages] == [
        (29, 4, True),
        (37, 19, False),
        (39, 19, False),
    ]
    assert all(o.role == "reference" for o in usages)


def test_occurrence_at_touching_the_end_and_on_blanks(greeter: ProgramIndex) -> None:
    assert _at(greeter, "main", 29, 17).symbol.name == "MV_SALUTATION"  # just past the name
    assert greeter.occurrence_at("main", 29, 18) is None  # on "="
    assert greeter.occurrence_at("main", 27, 0) is None  # a blank line


# completion --------------------------------------------------------------------------------


def test_completion_of_members_after_selectors(library: SampleLibrary) -> None:
    index = program(
        "DATA lo TYPE REF TO zcl_demo_greeter.\nSTART-OF-SELECTION.\n  lo->gr\n"
        "  zif_demo_greeting=>\n",
        library,
    )
    result = complete(index, "src", 3, 8)
    assert result.prefix == "gr"
    assert [p.identifier for p in result.proposals] == ["GREET", "GREET_ALL"]
    statics = complete(index, "src", 4, 21)
    assert [p.identifier for p in statics.proposals] == ["C_DEFAULT_NAME"]
    assert complete(index, "src", 3, 6).proposals  # right after "->": every public member


def test_completion_of_visible_names_globals_and_keywords(greeter: ProgramIndex) -> None:
    result = complete(greeter, "main", 46, 33)  # "… greet( lv_n" → LV_NAME
    assert result.prefix == "lv_n"
    assert [p.identifier for p in result.proposals] == ["LV_NAME"]
    members = complete(greeter, "main", 29, 6)  # "mv" inside the constructor
    assert [p.identifier for p in members.proposals][:1] == ["MV_SALUTATION"]
    globals_ = complete(program("DATA x TYPE REF TO zif_d", greeter.library), "src", 1, 24)
    assert [p.identifier for p in globals_.proposals] == ["ZIF_DEMO_GREETING"]
    keywords = complete(program("LOO"), "src", 1, 3)
    assert [p.identifier for p in keywords.proposals] == ["LOOP"]
    assert keywords.proposals[0].is_keyword


def test_completion_limit_and_prefix_rules() -> None:
    text = "\n".join(f"DATA lv_{i:03d} TYPE i." for i in range(80)) + "\nlv_"
    result = complete(program(text), "src", 81, 3, limit=50)
    assert len(result.proposals) == 50 and result.truncated
    assert prefix_at("  ASSIGN x TO <ls", 17) == "<ls"
    assert prefix_at("  WRITE: /", 10) == ""
    assert prefix_at("x = /abc/cl_", 12) == "/abc/cl_"


# scale -------------------------------------------------------------------------------------


def test_the_large_class_indexes_completely() -> None:
    """What the index finds in the 10,000-line class; how long that takes is measured
    beside its anchor in bench/index_build.py (a timed test flakes on a loaded machine)."""
    includes = large_class_includes()
    units = [Unit("main", large_class_source())] + [Unit(k, v) for k, v in includes.items()]
    index = ProgramIndex("ZCL_DEMO_LARGE", units)
    method = index.symbol("ZCL_DEMO_LARGE")
    assert method is not None and method.members is not None
    calc = method.members.local("CALC_0554")
    assert calc is not None and calc.implementation is not None
    assert len(index.usages(calc)) == 1
    first = method.members.local("CALC_0001")
    assert first is not None
    assert [(o.unit, o.role) for o in index.usages(first)] == [
        ("main", "implementation"),
        ("testclasses", "reference"),
    ]
