"""Folds and local test classes of ABAP sources."""

from __future__ import annotations

from adt.abap.folding import COMMENT, REGION, Fold, folds
from adt.abap.testclasses import local_test_classes

CLASS_POOL = """* first comment line
* second comment line
CLASS ltcl_x DEFINITION FINAL FOR TESTING RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    METHODS: first FOR TESTING,
      helper,
      second FOR TESTING RAISING cx_static_check.
    METHODS third FOR TESTING.
ENDCLASS.

CLASS ltcl_x IMPLEMENTATION.
  METHOD first.
    IF 1 = 1.
      WRITE 'IF in a literal opens nothing. ENDIF'.
    ENDIF.
  ENDMETHOD.
  METHOD helper. ENDMETHOD.
  METHOD second.
    LOOP AT lt INTO DATA(x).
    ENDLOOP.
  ENDMETHOD.
ENDCLASS.
CLASS lcl_later DEFINITION DEFERRED.
CLASS lcl_plain DEFINITION.
ENDCLASS."""


def test_folds_of_blocks_sections_and_comments() -> None:
    assert folds(CLASS_POOL) == [
        Fold(0, 1, COMMENT),
        Fold(2, 8, REGION),  # the definition
        Fold(3, 7, REGION),  # its private section, up to ENDCLASS
        Fold(10, 21, REGION),
        Fold(11, 15, REGION),
        Fold(12, 14, REGION),  # IF ... ENDIF
        Fold(17, 20, REGION),
        Fold(18, 19, REGION),  # LOOP ... ENDLOOP
        Fold(23, 24, REGION),
    ]


def test_test_injections_fold_and_a_select_or_at_alone_does_not() -> None:
    """The openers the pretty printer knows fold too, except those that open a block only in
    some forms (a SELECT into a table, AT SELECTION-SCREEN) and need their end to tell."""
    source = """METHOD m.
  TEST-INJECTION read.
    x = 1.
  END-TEST-INJECTION.
  SELECT * FROM t INTO TABLE @DATA(rows).
  AT SELECTION-SCREEN.
ENDMETHOD."""
    assert folds(source) == [Fold(0, 6, REGION), Fold(1, 3, REGION)]


def test_an_unfinished_block_folds_nothing() -> None:
    assert folds("METHOD m.\n  IF x = 1.\n    WRITE x.\n") == []


def test_local_test_classes_and_their_methods() -> None:
    (found,) = local_test_classes(CLASS_POOL)
    assert found.name == "LTCL_X" and found.line == 3
    # implemented methods at their METHOD line, the one without a body at its declaration
    assert [(m.name, m.line) for m in found.methods] == [
        ("FIRST", 12),
        ("SECOND", 18),
        ("THIRD", 8),
    ]
    assert local_test_classes("CLASS lcl_x DEFINITION.\n  METHODS a FOR TESTING.\nENDCLASS.") == []
