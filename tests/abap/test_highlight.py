"""Semantic pieces of an ABAP text: names by what they declare, template text apart from
its embedded expressions, comments, and no overlaps."""

from __future__ import annotations

import itertools

from adt.abap.highlight import pieces

SOURCE = """REPORT zdemo.
CONSTANTS gc_max TYPE i VALUE 3.
DATA gv_text TYPE string.
* a comment line
FORM run USING iv_n TYPE i.
  gv_text = |n={ iv_n } of { gc_max }|. " trailing
  zcl_util=>log( gv_text ).
ENDFORM."""


def _kinds() -> dict[tuple[int, str], tuple[str, tuple[str, ...]]]:
    lines = SOURCE.split("\n")
    return {
        (p.line, lines[p.line][p.start : p.start + p.length]): (p.type, p.modifiers)
        for p in pieces(SOURCE)
    }


def test_names_by_what_they_declare() -> None:
    kinds = _kinds()
    assert kinds[(1, "gc_max")] == ("variable", ("declaration", "readonly", "static"))
    assert kinds[(2, "gv_text")] == ("variable", ("declaration",))
    assert kinds[(4, "run")] == ("function", ("declaration",))
    assert kinds[(4, "iv_n")] == ("parameter", ("declaration",))
    assert kinds[(5, "iv_n")] == ("parameter", ())
    assert kinds[(5, "gc_max")] == ("variable", ("readonly", "static"))
    assert kinds[(6, "zcl_util")][0] == "class"
    assert kinds[(0, "REPORT")][0] == kinds[(4, "FORM")][0] == "keyword"


def test_comments_literals_and_templates() -> None:
    kinds = _kinds()
    assert kinds[(3, "* a comment line")][0] == "comment"
    assert kinds[(5, '" trailing')][0] == "comment"
    assert kinds[(5, "|n=")][0] == "string" and kinds[(5, " of ")][0] == "string"
    assert kinds[(1, "3")][0] == "number"
    found = pieces(SOURCE)
    assert all(
        a.line < b.line or a.start + a.length <= b.start for a, b in itertools.pairwise(found)
    ), "no overlaps, in order"
