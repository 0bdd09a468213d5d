FUNCTION z_demo_add.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_A) TYPE  I
*"     VALUE(IV_B) TYPE  I
*"  EXPORTING
*"     VALUE(EV_SUM) TYPE  I
*"----------------------------------------------------------------------
  gv_calls = gv_calls + 1.
  ev_sum = iv_a + iv_b.
ENDFUNCTION.
