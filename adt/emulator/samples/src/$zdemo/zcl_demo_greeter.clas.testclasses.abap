*"* use this source file for your ABAP unit test classes

CLASS ltcl_greeter DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    DATA mo_cut TYPE REF TO zcl_demo_greeter.

    METHODS setup.
    METHODS greets_the_world FOR TESTING.
    METHODS greets_by_name FOR TESTING.
    METHODS greets_everyone FOR TESTING.
ENDCLASS.


CLASS ltcl_greeter IMPLEMENTATION.

  METHOD setup.
    mo_cut = NEW #( ).
  ENDMETHOD.

  METHOD greets_the_world.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->greet( `` )
                                        exp = `Hello, world!` ).
  ENDMETHOD.

  METHOD greets_by_name.
    cl_abap_unit_assert=>assert_equals( act = mo_cut->greet( `aDA` )
                                        exp = `Hello, Ada!` ).
  ENDMETHOD.

  METHOD greets_everyone.
    DATA(lt_lines) = mo_cut->greet_all( VALUE #( ( `ada` ) ( `grace` ) ) ).
    cl_abap_unit_assert=>assert_equals( act = lines( lt_lines ) exp = 2 ).
    cl_abap_unit_assert=>assert_equals( act = lt_lines[ 2 ] exp = `Hello, Grace!` ).
  ENDMETHOD.

ENDCLASS.
