*&---------------------------------------------------------------------*
*& Report zdemo_report
*&---------------------------------------------------------------------*
*& Greets a name a few times and adds two numbers through Z_DEMO_ADD.
*&---------------------------------------------------------------------*
REPORT zdemo_report.

PARAMETERS p_name TYPE c LENGTH 30 LOWER CASE DEFAULT 'ADT'.
PARAMETERS p_times TYPE i DEFAULT 3.

START-OF-SELECTION.
  DATA lv_sum TYPE i.
  DATA(lo_greeter) = NEW zcl_demo_greeter( ).

  DO p_times TIMES.
    WRITE: / lo_greeter->greet( CONV string( p_name ) ).
  ENDDO.

  CALL FUNCTION 'Z_DEMO_ADD'
    EXPORTING
      iv_a   = p_times
      iv_b   = 39
    IMPORTING
      ev_sum = lv_sum.

  WRITE: / |{ p_times } + 39 = { lv_sum }|.
  PERFORM write_footer USING lv_sum.

  INCLUDE zdemo_include.
