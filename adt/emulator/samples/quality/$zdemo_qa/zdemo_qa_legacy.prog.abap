*&---------------------------------------------------------------------*
*& Report zdemo_qa_legacy
*&---------------------------------------------------------------------*
*& SEEDED ATC FINDINGS: the old-style statements below are there on
*& purpose, one for each check of the emulator's DEFAULT variant (see
*& docs/emulator.md, ATC). The local test classes pass.
*&---------------------------------------------------------------------*
REPORT zdemo_qa_legacy.

DATA gt_names TYPE string OCCURS 0.
DATA gv_total TYPE i.
DATA gv_spare TYPE i.                                       "#EC NEEDED

CLASS lcl_printer DEFINITION FINAL.
  PUBLIC SECTION.
    CLASS-METHODS print IMPORTING iv_total TYPE i.
ENDCLASS.

CLASS lcl_printer IMPLEMENTATION.
  METHOD print.
    WRITE: / iv_total.
  ENDMETHOD.
ENDCLASS.

START-OF-SELECTION.
  MOVE 40 TO gv_total.
  COMPUTE gv_total = gv_total + 2.
  APPEND `ADT` TO gt_names.
  CALL METHOD lcl_printer=>print EXPORTING iv_total = gv_total.
  BREAK-POINT.

CLASS ltcl_legacy DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    METHODS starts_empty FOR TESTING.
ENDCLASS.

CLASS ltcl_legacy IMPLEMENTATION.
  METHOD starts_empty.
    cl_abap_unit_assert=>assert_initial( act = 0 ).
  ENDMETHOD.
ENDCLASS.

CLASS ltcl_legacy_system DEFINITION FINAL FOR TESTING
  DURATION LONG
  RISK LEVEL CRITICAL.

  PRIVATE SECTION.
    METHODS prints_the_total FOR TESTING.
ENDCLASS.

CLASS ltcl_legacy_system IMPLEMENTATION.
  METHOD prints_the_total.
    cl_abap_unit_assert=>assert_true( act = abap_true ).
  ENDMETHOD.
ENDCLASS.
