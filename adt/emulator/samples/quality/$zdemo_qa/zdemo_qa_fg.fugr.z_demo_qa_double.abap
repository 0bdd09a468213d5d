FUNCTION z_demo_qa_double.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_VALUE) TYPE  I
*"  EXPORTING
*"     VALUE(EV_RESULT) TYPE  I
*"----------------------------------------------------------------------
  ev_result = iv_value * gc_factor.
ENDFUNCTION.
