*"* use this source file for the definition and implementation of
*"* local helper classes, interface definitions and type
*"* declarations

CLASS lcl_formatter IMPLEMENTATION.
  METHOD capitalize.
    IF iv_text IS INITIAL.
      RETURN.
    ENDIF.
    rv_text = to_upper( iv_text(1) ) && to_lower( substring( val = iv_text off = 1 ) ).
  ENDMETHOD.
ENDCLASS.
