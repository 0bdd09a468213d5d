*"* Unit tests of ZCL_DEMO_VAT.
*"* SEEDED FAILURE: LTCL_VAT->RATE_IS_NINETEEN expects the wrong rate on purpose,
*"* so that ABAP Unit has a failure to report. Change EXP to 19, save, activate,
*"* and the run is green. LTCL_VAT_RATES is DANGEROUS and MEDIUM: runs that
*"* allow only harmless or short tests leave it out.

CLASS ltcl_vat DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    METHODS adds_the_rate FOR TESTING.
    METHODS rate_is_nineteen FOR TESTING.
ENDCLASS.


CLASS ltcl_vat IMPLEMENTATION.

  METHOD adds_the_rate.
    DATA(lo_cut) = NEW zcl_demo_vat( ).
    cl_abap_unit_assert=>assert_equals( act = lo_cut->gross( 100 ) exp = 119 ).
  ENDMETHOD.

  METHOD rate_is_nineteen.
    cl_abap_unit_assert=>assert_equals( act = zcl_demo_vat=>c_rate_percent
                                        exp = 16
                                        msg = 'VAT rate in percent' ).
  ENDMETHOD.

ENDCLASS.


CLASS ltcl_vat_rates DEFINITION FINAL FOR TESTING
  DURATION MEDIUM
  RISK LEVEL DANGEROUS.

  PRIVATE SECTION.
    METHODS rate_is_positive FOR TESTING.
ENDCLASS.


CLASS ltcl_vat_rates IMPLEMENTATION.

  METHOD rate_is_positive.
    cl_abap_unit_assert=>assert_not_initial( act = zcl_demo_vat=>c_rate_percent ).
  ENDMETHOD.

ENDCLASS.
