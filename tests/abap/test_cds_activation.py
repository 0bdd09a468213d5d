"""Activation order and refusals over the dependencies of CDS-family sources."""

from __future__ import annotations

from support import cds_samples as s

from adt.abap.cds.activation import (
    Node,
    activation_order,
    depends_on,
    nodes_of,
    order_names,
    refusal,
)
from adt.abap.cds.parse import parse


def _nodes() -> list[Node]:
    return nodes_of({key: parse(text, key[1]) for key, text in s.SAMPLES.items()})


def test_dependencies_of_a_view_are_its_sources_and_targets() -> None:
    assert depends_on(parse(s.TRAVEL_VIEW, "DDLS")) == (
        "ZTRAVEL",
        "ZI_BOOKING",
        "ZI_AGENCY",
        "I_CURRENCY",
    )
    assert depends_on(parse(s.TRAVEL_TABLE, "TABL")) == ("ZTRAVEL_ID", "ZAGENCY_ID", "ZS_ADMIN")


def test_every_object_comes_after_what_it_uses_and_cycles_activate_together() -> None:
    groups = activation_order(_nodes())
    step = {node.key: i for i, group in enumerate(groups) for node in group}
    definers = {n.name: n.key for n in _nodes() if n.type in ("DDLS", "TABL")}
    for node in _nodes():
        for name in node.depends_on:
            if name in definers and definers[name] != node.key:
                assert step[definers[name]] <= step[node.key], (node.key, name)
    together = [sorted(n.key for n in g) for g in groups if len(g) > 1]
    assert together == [  # composition and to-parent (and their redirections) use each other
        ["DDLS:ZI_BOOKING", "DDLS:ZI_TRAVEL"],
        ["DDLS:ZC_BOOKING", "DDLS:ZC_TRAVEL"],
    ]
    order = [f"{n.type}:{n.name}" for g in groups for n in g]
    assert (
        order.index("TABL:ZTRAVEL") < order.index("DDLS:ZI_TRAVEL") < order.index("DDLS:ZC_TRAVEL")
    )
    assert order.index("TABL:ZS_ADMIN") < order.index("TABL:ZTRAVEL")
    assert order.index("DDLS:ZC_TRAVEL") < order.index("BDEF:ZC_TRAVEL")
    assert len(order_names(groups)) == len(s.SAMPLES)


def test_a_view_over_an_inactive_table_is_refused_with_the_reason() -> None:
    view = Node("ZI_AGENCY", "DDLS", depends_on(parse(s.AGENCY_VIEW, "DDLS")))
    assert refusal(view, inactive={"zagency"}) == (
        "DDLS ZI_AGENCY cannot be activated: it uses ZAGENCY, which is not active; "
        "activate it first or together"
    )
    assert refusal(view, inactive={"ZAGENCY"}, activating={"ZAGENCY", "ZI_AGENCY"}) is None
    assert refusal(view, inactive=set()) is None
