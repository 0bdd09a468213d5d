CLASS zcl_demo_counter DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    METHODS increment
      RETURNING VALUE(rv_value) TYPE i.
    METHODS reset.
    METHODS value
      RETURNING VALUE(rv_value) TYPE i.

  PROTECTED SECTION.
  PRIVATE SECTION.
    DATA mv_value TYPE i.
ENDCLASS.



CLASS zcl_demo_counter IMPLEMENTATION.

  METHOD increment.
    mv_value = mv_value + 1.
    rv_value = mv_value.
  ENDMETHOD.


  METHOD reset.
    CLEAR mv_value.
  ENDMETHOD.


  METHOD value.
    rv_value = mv_value.
  ENDMETHOD.

ENDCLASS.
