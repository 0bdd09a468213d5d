CLASS ltcl_counter DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    METHODS counts_up FOR TESTING.
    METHODS resets FOR TESTING.
ENDCLASS.


CLASS ltcl_counter IMPLEMENTATION.

  METHOD counts_up.
    DATA(lo_cut) = NEW zcl_demo_counter( ).
    lo_cut->increment( ).
    cl_abap_unit_assert=>assert_equals( act = lo_cut->increment( ) exp = 2 ).
  ENDMETHOD.

  METHOD resets.
    DATA(lo_cut) = NEW zcl_demo_counter( ).
    lo_cut->increment( ).
    lo_cut->reset( ).
    cl_abap_unit_assert=>assert_equals( act = lo_cut->value( ) exp = 0 ).
  ENDMETHOD.

ENDCLASS.
