*"* Unit tests of the function group ZDEMO_QA_FG (they pass).

CLASS ltcl_double DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    METHODS doubles FOR TESTING.
    METHODS factor_is_two FOR TESTING.
ENDCLASS.


CLASS ltcl_double IMPLEMENTATION.

  METHOD doubles.
    DATA lv_result TYPE i.
    CALL FUNCTION 'Z_DEMO_QA_DOUBLE'
      EXPORTING
        iv_value  = 21
      IMPORTING
        ev_result = lv_result.
    cl_abap_unit_assert=>assert_equals( act = lv_result exp = 42 ).
  ENDMETHOD.

  METHOD factor_is_two.
    cl_abap_unit_assert=>assert_equals( act = gc_factor exp = 2 ).
  ENDMETHOD.

ENDCLASS.
