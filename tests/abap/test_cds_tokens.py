"""The CDS family's one lexer (adt.abap.cds.tokens.scan): comments as tokens of their own
lines, the tokens every parser reads without them, and the emulator's pattern readings of
a source (dependencies when it does not parse, a data definition's source type) over the
same lexing — so a string holding ``/*`` or ``//`` hides nothing and a commented-out
``projection on`` is no projection."""

from __future__ import annotations

from adt.abap.cds.tokens import COMMENT, scan, tokenize, without_comments
from adt.emulator.kinds import ddls
from adt.emulator.kinds.dependencies import names_used

TEXT = (
    "define view entity ZX as select from ztab /* first\n"
    "  still a comment */ { key 'a//b' as k, -- a field\n"
    "  f // the end\n}"
)


def test_comments_are_tokens_of_their_lines_and_tokenize_drops_them() -> None:
    comments = [(t.text, t.line, t.column) for t in scan(TEXT) if t.kind == COMMENT]
    assert comments == [
        ("/* first", 1, 42),
        ("  still a comment */", 2, 0),
        ("-- a field", 2, 40),
        ("// the end", 3, 4),
    ]
    assert tokenize(TEXT) == [t for t in scan(TEXT) if t.kind != COMMENT]
    assert "'a//b'" in [t.text for t in tokenize(TEXT)]


def test_without_comments_keeps_lines_columns_and_strings() -> None:
    plain = without_comments(TEXT)
    assert [len(line) for line in plain.split("\n")] == [len(x) for x in TEXT.split("\n")]
    assert "first" not in plain and "field" not in plain and "end" not in plain
    assert "'a//b'" in plain and plain.split("\n")[2].strip() == "f"


def test_dependencies_see_past_a_string_that_looks_like_a_comment() -> None:
    text = (
        "define view entity ZX as select distinct from ztab { key '/*' as k }\n"
        "union select from zother { key '*/' as k }  // from zcommented\n"
    )
    used = names_used(text, ddls.MODULE.dependency_patterns)
    assert [(u.name, u.line) for u in used] == [("ZTAB", 1), ("ZOTHER", 2)]


def test_a_commented_out_projection_is_no_projection() -> None:
    view = "define view entity ZC as select from zbook\n//  as projection on ZR\n{ key id }"
    attributes = dict(ddls.MODULE.root_attributes_of(view))
    assert attributes["ddl:source_type_description"] == "View Entity"
    projection = "@A.b: 'x'\ndefine root view entity ZC\n  as projection on ZR\n{ key id }"
    assert dict(ddls.MODULE.root_attributes_of(projection))["ddl:source_type"] == "projection"
