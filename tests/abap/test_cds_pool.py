"""What a behavior pool's handler methods handle: each ``entity~operation`` with the
signature its declaration gives it (the words after the method's first ``FOR``), so that a
BDEF item is matched only by a method of its own kind (no corpus needed)."""

from __future__ import annotations

from adt.abap.cds.parse import parse
from adt.abap.cds.pool import handled, required_controls, signature

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
        "INSTANCE FEATURES TRAVEL",
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


CONTROL_POOL = """CLASS lhc_travel DEFINITION INHERITING FROM cl_abap_behavior_handler.
  PRIVATE SECTION.
    METHODS get_instance_features FOR INSTANCE FEATURES
      IMPORTING keys REQUEST requested_features FOR Travel RESULT result.
    METHODS get_global_authorizations FOR GLOBAL AUTHORIZATION
      IMPORTING REQUEST requested_authorizations FOR Travel RESULT result.
    METHODS lock FOR LOCK IMPORTING keys FOR LOCK Travel.
    METHODS old_features FOR FEATURES IMPORTING keys REQUEST r FOR Booking RESULT result.
ENDCLASS."""

CONTROL_BDEF = """{implementation} implementation in class zbp_travel unique;
define behavior for ZI_Travel alias Travel
lock master
authorization master ( global, instance )
{{
  create ( features : global );
  update;
  action ( features : instance ) accept result [1] $self;
  association _Booking {{ create ( features : instance ); }}
}}
define behavior for ZI_Booking alias Booking
lock dependent by _Travel
authorization dependent by _Travel
{{
  update ( features : instance );
  action ( authorization : global ) reprice;
}}
"""


def test_control_methods_are_kept_per_entity() -> None:
    assert handled([CONTROL_POOL]) == {
        "INSTANCE FEATURES TRAVEL",
        "GLOBAL AUTHORIZATION TRAVEL",
        "LOCK TRAVEL",
        "INSTANCE FEATURES BOOKING",
    }


def _controls(implementation: str) -> list[tuple[str, str, str, int, int]]:
    source = parse(CONTROL_BDEF.format(implementation=implementation), "BDEF")
    assert source.definition is not None
    return [
        (b.alias, c.signature, c.written, c.line, c.column)
        for b, c in required_controls(source.definition)
    ]


def test_an_unmanaged_bdef_needs_each_control_once_where_first_asked() -> None:
    assert _controls("unmanaged") == [
        ("Travel", "LOCK", "lock master", 3, 0),
        ("Travel", "GLOBAL AUTHORIZATION", "authorization master ( global )", 4, 23),
        ("Travel", "INSTANCE AUTHORIZATION", "authorization master ( instance )", 4, 31),
        ("Travel", "GLOBAL FEATURES", "features : global", 6, 11),
        ("Travel", "INSTANCE FEATURES", "features : instance", 8, 11),
        ("Booking", "INSTANCE FEATURES", "features : instance", 15, 11),
        ("Booking", "GLOBAL AUTHORIZATION", "authorization : global", 16, 11),
    ]


def test_a_managed_bdef_locks_without_a_method_unless_lock_master_unmanaged() -> None:
    assert "LOCK" not in {signature for _, signature, *_ in _controls("managed")}
    source = parse(
        "managed;\ndefine behavior for ZI_T alias T\n"
        "implementation in class zbp_t unique\nlock master unmanaged\n{ update; }\n",
        "BDEF",
    )
    assert source.definition is not None
    assert [(c.signature, c.written) for _, c in required_controls(source.definition)] == [
        ("LOCK", "lock master unmanaged")
    ]
