CLASS zcl_demo_vat DEFINITION
  PUBLIC
  FINAL
  CREATE PUBLIC.

  PUBLIC SECTION.
    CONSTANTS c_rate_percent TYPE i VALUE 19.

    METHODS gross
      IMPORTING iv_net_cents          TYPE i
      RETURNING VALUE(rv_gross_cents) TYPE i.

  PROTECTED SECTION.
  PRIVATE SECTION.
ENDCLASS.



CLASS zcl_demo_vat IMPLEMENTATION.

  METHOD gross.
    rv_gross_cents = iv_net_cents + iv_net_cents * c_rate_percent / 100.
  ENDMETHOD.

ENDCLASS.
