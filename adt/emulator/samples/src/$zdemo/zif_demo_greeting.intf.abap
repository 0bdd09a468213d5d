INTERFACE zif_demo_greeting
  PUBLIC.

  CONSTANTS c_default_name TYPE string VALUE `world`.

  "! Greets one person, or everybody when no name is given
  METHODS greet
    IMPORTING iv_name        TYPE string OPTIONAL
    RETURNING VALUE(rv_text) TYPE string.

ENDINTERFACE.
