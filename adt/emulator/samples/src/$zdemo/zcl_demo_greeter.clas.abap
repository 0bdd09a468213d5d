CLASS zcl_demo_greeter DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    INTERFACES zif_demo_greeting.

    ALIASES greet FOR zif_demo_greeting~greet.

    METHODS constructor
      IMPORTING iv_salutation TYPE string DEFAULT `Hello`.

    METHODS greet_all
      IMPORTING it_names        TYPE string_table
      RETURNING VALUE(rt_lines) TYPE string_table.

  PROTECTED SECTION.
  PRIVATE SECTION.
    DATA mv_salutation TYPE string.
    DATA mo_formatter TYPE REF TO lcl_formatter.
ENDCLASS.



CLASS zcl_demo_greeter IMPLEMENTATION.

  METHOD constructor.
    mv_salutation = iv_salutation.
    mo_formatter = NEW lcl_formatter( ).
  ENDMETHOD.


  METHOD zif_demo_greeting~greet.
    " An empty name greets everybody; otherwise the name is capitalised.
    IF iv_name IS INITIAL.
      rv_text = |{ mv_salutation }, { zif_demo_greeting=>c_default_name }!|.
    ELSE.
      rv_text = |{ mv_salutation }, { mo_formatter->capitalize( iv_name ) }!|.
    ENDIF.
  ENDMETHOD.


  METHOD greet_all.
    LOOP AT it_names INTO DATA(lv_name).
      DATA(lv_line) = greet( lv_name ).
      _demo_append_line lv_line rt_lines.
    ENDLOOP.
  ENDMETHOD.

ENDCLASS.
