"""The pretty printer: A4H's recorded answer, the rules one by one, and properties over the
seeded sources and generated snippets (idempotent, same tokens, comments and literals
untouched, same statements for the independent scanner)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.abaplint import abaplint

from adt.abap.format.pretty import STYLES, PrinterSettings, pretty_print, split_text
from adt.abap.format.tokens import LineKind, TokenKind, lex
from adt.abap.scanner import statements
from adt.emulator.large_sample import large_class_source

SAMPLES = Path(__file__).parents[2] / "adt" / "emulator" / "samples" / "src"
SEEDED = sorted(SAMPLES.rglob("*.abap"))

# A4H capture 963 (abapsmith live-captured): the request body, and the SHA-256 of the 327-byte
# answer with the settings indentation=true, style=keywordUpper, keepIdentifier=true.
A4H_963_REQUEST = (
    "class zcl_i91_probe definition public final create public.\n"
    "  public section.\n"
    "    methods run importing iv_times type i default 1 returning value(rv_total) type i.\n"
    "endclass.\n"
    "\n"
    "class zcl_i91_probe implementation.\n"
    "  method run.\n"
    "    data lv_x type i. lv_x = 1.\n"
    "      rv_total = lv_x * iv_times.\n"
    "  endmethod.\n"
    "endclass.\n"
)
A4H_963_SHA256 = "a1b3fc9775fc2ed5a397a3c5778588eaff730a57ce9b82a81a5d957a637493c9"

ALL_SETTINGS = [
    PrinterSettings(),
    PrinterSettings(indentation=False, style="none"),
    PrinterSettings(style="toLower", keep_identifier=False),
    PrinterSettings(style="toUpper", keep_identifier=False),
    PrinterSettings(style="keywordLower", keep_identifier=False),
    PrinterSettings(style="keywordAuto"),
]


def _pp(text: str, **options: object) -> str:
    return pretty_print(text, PrinterSettings(**options))  # type: ignore[arg-type]


# --- the recorded answer ------------------------------------------------------------------


def test_reproduces_the_a4h_answer_byte_for_byte() -> None:
    printed = pretty_print(A4H_963_REQUEST)
    wire = printed.replace("\n", "\r\n").encode("utf-8")
    assert len(wire) == 327
    assert hashlib.sha256(wire).hexdigest() == A4H_963_SHA256
    assert pretty_print(printed) == printed  # 964: the answer posted again comes back as is


# --- statements, blocks and continuation lines --------------------------------------------


def test_two_statements_on_a_line_are_split_and_the_comment_stays_with_the_last() -> None:
    assert _pp('a = 1. b = 2. " two\n') == 'a = 1.\nb = 2. " two\n'


def test_the_final_line_break_is_kept_or_left_out_as_it_was() -> None:
    assert _pp("write x.") == "WRITE x."
    assert _pp("write x.\r\n") == "WRITE x.\n"
    assert _pp("") == ""


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "if a = 1.\nx = 1.\nelseif a = 2.\nx = 2.\nelse.\nx = 3.\nendif.",
            "IF a = 1.\n  x = 1.\nELSEIF a = 2.\n  x = 2.\nELSE.\n  x = 3.\nENDIF.",
        ),
        (
            "case a.\nwhen 1.\nx = 1.\nwhen others.\nx = 2.\nendcase.",
            "CASE a.\n  WHEN 1.\n    x = 1.\n  WHEN OTHERS.\n    x = 2.\nENDCASE.",
        ),
        (
            "try.\nx = 1.\ncatch cx_root.\nx = 2.\ncleanup.\nx = 3.\nendtry.",
            "TRY.\n    x = 1.\n  CATCH cx_root.\n    x = 2.\n  CLEANUP.\n    x = 3.\nENDTRY.",
        ),
        (
            "do 3 times.\nwhile a < 3.\nloop at t into w.\nx = 1.\nendloop.\nendwhile.\nenddo.",
            "DO 3 TIMES.\n  WHILE a < 3.\n    LOOP AT t INTO w.\n      x = 1.\n    ENDLOOP.\n"
            "  ENDWHILE.\nENDDO.",
        ),
        (
            "class c definition.\npublic section.\nmethods m.\nprivate section.\n"
            "data d type i.\nendclass.",
            "CLASS c DEFINITION.\n  PUBLIC SECTION.\n    METHODS m.\n  PRIVATE SECTION.\n"
            "    DATA d TYPE i.\nENDCLASS.",
        ),
        (
            "form f.\nx = 1.\nendform.\nfunction z_f.\nx = 1.\nendfunction.",
            "FORM f.\n  x = 1.\nENDFORM.\nFUNCTION z_f.\n  x = 1.\nENDFUNCTION.",
        ),
        (
            "select * from t into @data(w).\nx = 1.\nendselect.\n"
            "select single * from t into @w.\nx = 2.",
            "SELECT * FROM t INTO @DATA(w).\n  x = 1.\nENDSELECT.\n"
            "SELECT SINGLE * FROM t INTO @w.\nx = 2.",
        ),
        (
            "start-of-selection.\nperform f.\nform f.\nendform.",
            "START-OF-SELECTION.\n  PERFORM f.\nFORM f.\nENDFORM.",
        ),
        (
            "types begin of ty.\ntypes a type i.\ntypes end of ty.",
            "TYPES BEGIN OF ty.\n  TYPES a TYPE i.\nTYPES END OF ty.",
        ),
        (
            "interface zif.\nmethods m.\nendinterface.",
            "INTERFACE zif.\n  METHODS m.\nENDINTERFACE.",
        ),
        (
            "class c definition deferred.\nx = 1.",
            "CLASS c DEFINITION DEFERRED.\nx = 1.",
        ),
    ],
)
def test_blocks_are_indented_two_blanks_per_level(source: str, expected: str) -> None:
    assert _pp(source) == expected


def test_chained_statements_align_their_elements_after_the_colon() -> None:
    source = "data: a type i,\nb type i,\nbegin of s,\nc type i,\nend of s.\n"
    assert _pp(source) == (
        "DATA: a TYPE i,\n      b TYPE i,\n      BEGIN OF s,\n        c TYPE i,\n      END OF s.\n"
    )


def test_other_continuation_lines_move_with_their_statement_never_left_of_it() -> None:
    source = (
        "method m.\n      call method o->x\n        exporting a = 1.\nx = value #(\n).\nendmethod."
    )
    assert _pp(source) == (
        "METHOD m.\n  CALL METHOD o->x\n    EXPORTING a = 1.\n  x = VALUE #(\n  ).\nENDMETHOD."
    )


def test_comment_lines_follow_the_next_statement_or_stay_in_the_block_before_an_end() -> None:
    source = 'if a = 1.\n" before x\nx = 1.\n      " before else\nelse.\nendif.\n'
    assert _pp(source) == 'IF a = 1.\n  " before x\n  x = 1.\n  " before else\nELSE.\nENDIF.\n'


def test_comment_lines_with_a_star_and_blank_lines_stay() -> None:
    source = "* star   \n  \nif a = 1.\n*   inside\nendif."
    assert _pp(source) == "* star   \n\nIF a = 1.\n*   inside\nENDIF."


def test_a_line_starting_with_a_star_never_becomes_a_comment() -> None:
    assert _pp("  x = a\n  * b.") == "x = a\n * b."
    assert _pp("a = 1. *b = 2.") == "a = 1.\n *b = 2."


def test_without_indentation_only_case_and_splitting_change() -> None:
    assert _pp("   if a = 1.\n x = 1. y = 2.\n endif.   ", indentation=False) == (
        "   IF a = 1.\n x = 1.\n y = 2.\n ENDIF."
    )


# --- case ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "keep", "expected"),
    [
        ("keywordUpper", True, "DATA Lv_X TYPE I.\nLv_X = VALUE #( )."),
        ("keywordUpper", False, "DATA lv_x TYPE i.\nlv_x = VALUE #( )."),
        ("keywordLower", False, "data LV_X type I.\nLV_X = value #( )."),
        ("toUpper", False, "DATA LV_X TYPE I.\nLV_X = VALUE #( )."),
        ("toLower", False, "data lv_x type i.\nlv_x = value #( )."),
        ("toLower", True, "data Lv_X type I.\nLv_X = value #( )."),
        ("none", False, "Data Lv_X type I.\nLv_X = vaLue #( )."),
    ],
)
def test_case_styles(style: str, keep: bool, expected: str) -> None:
    assert _pp("Data Lv_X type I. Lv_X = vaLue #( ).", style=style, keep_identifier=keep) == (
        expected
    )


def test_keyword_auto_writes_keywords_the_way_most_are_written() -> None:
    assert _pp("data x type i.\nwrite x.\nIF x = 1.\nendif.", style="keywordAuto") == (
        "data x type i.\nwrite x.\nif x = 1.\nendif."
    )


def test_words_in_the_place_of_names_stay_names() -> None:
    printed = _pp(
        "methods value importing data type ref to data returning value(rv) type string.\n"
        "data: type type i.\ncall method o->m exporting value = 1 data = 2.\n"
        "data(x) = 1. loop at t into @data(w). endloop.",
        keep_identifier=False,
    )
    assert printed == (
        "METHODS value IMPORTING DATA TYPE REF TO data RETURNING VALUE(rv) TYPE string.\n"
        "DATA: type TYPE i.\nCALL METHOD o->m EXPORTING value = 1 data = 2.\n"
        "DATA(x) = 1.\nLOOP AT t INTO @DATA(w).\nENDLOOP."
    )


def test_comments_literals_and_templates_never_change() -> None:
    source = (
        "write: 'if x', `else`, |data { a } type|.  \" data type i\n"
        "* data type i\nx = |{ b\n     }| && 'x'. y = 1.\n"
    )
    assert _pp(source, style="toUpper", keep_identifier=False) == (
        "WRITE: 'if x', `else`, |data { a } type|.  \" data type i\n"
        "* data type i\nX = |{ b\n     }| && 'x'. y = 1.\n"
    )


def test_native_sql_and_sqlscript_are_left_as_they_are() -> None:
    source = (
        "exec sql.\n  select a.b from dual\nendexec.\n"
        "method m by database procedure for hdb language sqlscript.\n"
        "  lt = select a.col from t;  -- is it\nendmethod."
    )
    assert _pp(source) == (
        "EXEC SQL.\n  select a.b from dual\nENDEXEC.\n"
        "METHOD m BY DATABASE PROCEDURE FOR HDB LANGUAGE SQLSCRIPT.\n"
        "  lt = select a.col from t;  -- is it\nENDMETHOD."
    )


@pytest.mark.parametrize("before", ["data a type i.", "write 'x'."])
def test_a_native_section_opened_after_another_statement_on_its_line(before: str) -> None:
    source = f"{before} exec sql.\n  select a.b from dual\nendexec."
    printed = _pp(source).split("\n")
    assert printed[2:] == ["  select a.b from dual", "ENDEXEC."]


def test_a_line_with_an_unterminated_literal_is_left_as_it_is() -> None:
    assert _pp("if a = 1.\n  x = 'open. y = 2.   \nendif.") == (
        "IF a = 1.\n  x = 'open. y = 2.   \n  ENDIF."
    )


def test_unknown_styles_are_refused() -> None:
    with pytest.raises(ValueError, match="style"):
        PrinterSettings(style="shout")
    assert "keywordAuto" in STYLES


# --- properties ---------------------------------------------------------------------------


def _signature(text: str) -> list[tuple[str, str]]:
    """Every token (words upper case), star line and verbatim line, in order."""
    found: list[tuple[str, str]] = []
    for line in lex(split_text(text)[0]):
        if line.kind is LineKind.STAR:
            found.append(("star", line.text))
        elif line.verbatim:
            found.append(("verbatim", line.text.strip(" \t")))
        else:
            for token in line.tokens:
                value = token.text.upper() if token.kind is TokenKind.WORD else token.text
                if token.kind is TokenKind.COMMENT:
                    value = value.rstrip(" \t")
                if token.kind is TokenKind.TEMPLATE:
                    value = _without_line_end_blanks(value)
                found.append((token.kind.value, value))
    return found


def _without_line_end_blanks(template: str) -> str:
    """A template that spans lines breaks only inside an embedded expression ``{ }``, where
    blanks before the line end mean nothing (and the system trims them anyway)."""
    return "\n".join(line.rstrip(" \t") for line in template.split("\n"))


def _untouchable(text: str) -> list[str]:
    """Comments, literals and templates, in order (comments without trailing blanks)."""
    kinds = (TokenKind.COMMENT, TokenKind.LITERAL, TokenKind.TEMPLATE, TokenKind.BROKEN)
    return [
        t.text.rstrip(" \t")
        if t.kind is TokenKind.COMMENT
        else _without_line_end_blanks(t.text)
        if t.kind is TokenKind.TEMPLATE
        else t.text
        for line in lex(split_text(text)[0])
        for t in line.tokens
        if t.kind in kinds
    ]


def _scanned(text: str) -> list[tuple[list[str], bool]]:
    """The scanner's statements; those without words are left out (its line-by-line fast
    path and its character path disagree on whether ``:.`` is a statement)."""
    return [(s.words, s.terminated) for s in statements(text) if s.words]


def _check(source: str, options: PrinterSettings) -> None:
    printed = pretty_print(source, options)
    assert pretty_print(printed, options) == printed
    assert _signature(printed) == _signature(source)
    assert _untouchable(printed) == _untouchable(source)
    assert _scanned(printed) == _scanned(source)  # the independent statement scanner agrees


@pytest.mark.parametrize("options", ALL_SETTINGS, ids=repr)
@pytest.mark.parametrize("path", SEEDED, ids=lambda p: p.name)
def test_seeded_sources_keep_their_meaning(path: Path, options: PrinterSettings) -> None:
    _check(path.read_text(encoding="utf-8"), options)


def test_the_large_class_is_already_printed() -> None:
    source = large_class_source()
    assert pretty_print(source) == source


KEYWORDS = ["data", "if", "endif", "else", "loop at", "endloop", "write:", "case", "when", "try"]
KEYWORDS += ["catch", "endtry", "method", "endmethod", "class", "definition", "endclass", "type"]
NAMES = ["lv_x", "ls-comp", "lo->m( )", "<fs>", "zcl_x=>c", "value", "data(x)", "@data(y)"]
PIECES = ["'it''s'", "`b`", "|t{ a }|", "|{ b", "}|", '" note', ":", ",", ".", "=", "#(", ")"]


@st.composite
def snippets(draw: st.DrawFn) -> str:
    """ABAP-like text: keywords in any case, names, literals, templates, comments, periods,
    chains, ``*`` lines and all sorts of line breaks and indentation."""
    words = st.sampled_from(KEYWORDS + NAMES + PIECES).map(str)
    cased = st.tuples(words, st.sampled_from([str.upper, str.lower, str.title])).map(
        lambda pair: pair[1](pair[0]) if "'" not in pair[0] and "|" not in pair[0] else pair[0]
    )
    gaps = st.sampled_from([" ", " ", "  ", "\n", "\n  ", "\n      ", ". ", ".\n", "\n* c\n"])
    parts = draw(st.lists(st.tuples(cased, gaps), max_size=40))
    return "".join(word + gap for word, gap in parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(snippets(), st.sampled_from(ALL_SETTINGS))
def test_generated_snippets_keep_their_meaning(source: str, options: PrinterSettings) -> None:
    _check(source, options)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("aIfDt .:,'`|{}\"*\n\t-()=#@")), max_size=80),
    st.sampled_from(ALL_SETTINGS),
)
def test_arbitrary_text_keeps_its_meaning(source: str, options: PrinterSettings) -> None:
    _check(source, options)


# --- what abaplint's indentation and keyword_case rules check (issue 20) ------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (  # a statement that closes a structure an earlier one opened stands where that did
            "types: begin of ty,\na type i.\ninclude type ty_base.\ntypes: b type i,\nend of ty.",
            "TYPES: BEGIN OF ty,\n         a TYPE i.\n    INCLUDE TYPE ty_base.\n"
            "TYPES: b TYPE i,\n       END OF ty.",
        ),
        ("sort t by object ascending.", "SORT t BY object ASCENDING."),
        ("delete t where package not in r.", "DELETE t WHERE package NOT IN r."),
        (
            "read table t with key language = x transporting no fields.",
            "READ TABLE t WITH KEY language = x TRANSPORTING NO FIELDS.",
        ),
        ("data t type sorted table of s with unique key type.", None),
        ("methods m importing x type any.", "METHODS m IMPORTING x TYPE any."),
        ("data t type any table.", "DATA t TYPE ANY TABLE."),
        ("select distinct language from t into table @r.", None),
    ],
)
def test_names_like_keywords_and_structures_in_pieces(source: str, expected: str | None) -> None:
    printed = _pp(source)
    if expected is None:  # only the name after the clause keyword is checked
        assert " type." in printed or " language " in printed, printed
    else:
        assert printed == expected


def test_fifty_abapgit_files_pass_abaplints_layout_rules() -> None:
    """The 50 files abapGit's own abaplint configuration accepts stay accepted after
    printing (rules ``indentation`` and ``keyword_case``, abapGit's settings)."""

    root = Path(os.environ.get("ABAP_ADT_CORPUS_ABAPGIT", "/work/corpora/abapgit")) / "src"
    if not root.is_dir():
        pytest.skip(f"abapGit corpus not found at {root} (set ABAP_ADT_CORPUS_ABAPGIT)")
    files = sorted(root.rglob("*.abap"))
    chosen = files[:: max(1, len(files) // 50)][:50]
    original = {p.name: p.read_text(encoding="utf-8") for p in chosen}
    printed = {name: pretty_print(text) for name, text in original.items()}
    for name, text in original.items():
        assert pretty_print(printed[name]) == printed[name], name
        assert _signature(printed[name]) == _signature(text), name
    found = abaplint().run({"original": original, "printed": printed}, ABAPGIT_LAYOUT_RULES, "v702")
    assert found["original"] == []  # the anchor: abapGit passes its own rules
    flagged = sorted({(i.file, i.key) for i in found["printed"]})
    assert flagged == [], [(i.file, i.line, i.message) for i in found["printed"]][:20]


#: abapGit's settings of the two rules (its abaplint.json).
ABAPGIT_LAYOUT_RULES: dict[str, object] = {
    "indentation": {
        "alignTryCatch": False,
        "globalClassSkipFirst": False,
        "ignoreExceptions": True,
        "ignoreGlobalClassDefinition": False,
        "ignoreGlobalInterface": False,
        "selectionScreenBlockIndentation": False,
    },
    "keyword_case": {
        "ignoreExceptions": True,
        "ignoreFunctionModuleName": False,
        "ignoreGlobalClassBoundaries": False,
        "ignoreGlobalClassDefinition": False,
        "ignoreGlobalInterface": False,
        "ignoreKeywords": [],
        "ignoreLowerClassImplmentationStatement": True,
        "style": "upper",
    },
}
