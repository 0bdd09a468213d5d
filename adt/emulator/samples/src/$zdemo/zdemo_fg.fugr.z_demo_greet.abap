FUNCTION z_demo_greet.
*"----------------------------------------------------------------------
*"*"Local Interface:
*"  IMPORTING
*"     VALUE(IV_NAME) TYPE  STRING OPTIONAL
*"  EXPORTING
*"     VALUE(EV_TEXT) TYPE  STRING
*"----------------------------------------------------------------------
  gv_calls = gv_calls + 1.
  IF iv_name IS INITIAL.
    ev_text = `Hello, world!`.
  ELSE.
    ev_text = |Hello, { iv_name }!|.
  ENDIF.
ENDFUNCTION.
