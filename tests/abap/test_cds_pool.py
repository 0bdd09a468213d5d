"""What a behavior pool's handler methods handle: each ``entity~operation`` with the
signature its declaration gives it (the words after the method's first ``FOR``), so that a
BDEF item is matched only by a method of its own kind (no corpus needed)."""

from __future__ import annotations

from adt.abap.cds.parse import parse
from adt.abap.cds.pool import handled, signature

POOL = """CLASS lhc_travel DEFINITION INHERITING FROM cl_abap_behavior_handler.
  PRIVATE SECTION.
    METHODS accept FOR MODIFY
      IMPORTING keys FOR ACTION Travel~acceptTravel RESULT result.
    METHODS total FOR READ IMPORTING keys FOR FUNCTION Travel~getTotal RESULT result.
    METHODS setStatus FOR DETERMINE ON MODIFY IMPORTING keys FOR Travel~setStatus.
    METHODS checkDates FOR VALIDATE ON SAVE
      IMPORTING keys FOR /DMO/Travel~/DMO/checkDates.
    METHODS features FOR INSTANCE FEATURES
      IMPORTING keys REQUEST requested_features FOR Travel RESULT result.
    METHODS both FOR MODIFY
      IMPORTING a FOR ACTION Travel~first b FOR ACTION Travel~second.
ENDCLASS."""


def test_each_pair_carries_its_methods_signature() -> None:
    assert handled([POOL]) == {
        "MODIFY ACTION TRAVEL~ACCEPTTRAVEL",
        "READ FUNCTION TRAVEL~GETTOTAL",
        "DETERMINE ON MODIFY TRAVEL~SETSTATUS",
        "VALIDATE ON SAVE /DMO/TRAVEL~/DMO/CHECKDATES",
        "MODIFY ACTION TRAVEL~FIRST",
        "MODIFY ACTION TRAVEL~SECOND",
    }


def test_each_item_needs_the_signature_of_its_kind() -> None:
    source = parse(
        "managed implementation in class zbp_travel unique;\n"
        "define behavior for ZI_Travel alias Travel\n{\n"
        "  action acceptTravel result [1] $self;\n"
        "  function getTotal result [1] $self;\n"
        "  determination setStatus on save { create; }\n"
        "  determination setPrice on modify { field price; }\n"
        "  validation checkDates on save { create; }\n}\n",
        "BDEF",
    )
    assert source.definition is not None
    (behavior,) = source.definition.behaviors
    assert {i.name: signature(i) for i in behavior.items} == {
        "acceptTravel": "MODIFY ACTION",
        "getTotal": "READ FUNCTION",
        "setStatus": "DETERMINE ON SAVE",
        "setPrice": "DETERMINE ON MODIFY",
        "checkDates": "VALIDATE ON SAVE",
    }
