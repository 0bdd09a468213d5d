"""Activation order and refusals by dependency: a source over an object that has never
been activated is refused with the reason unless that object is activated with it; a set is
activated in dependency order (what a source builds on first). Dependencies are what each
kind module names (:meth:`~adt.emulator.kinds.base.KindModule.dependencies`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .documents import CheckMessage
from .kinds import REGISTRY
from .kinds.base import SystemState
from .model import RepoObject


@dataclass(frozen=True)
class ActivationPlan:
    """The objects in the order to activate them, and the refusals (empty: go ahead)."""

    order: list[RepoObject]
    messages: list[CheckMessage]


def _by_name(state: SystemState) -> dict[str, list[RepoObject]]:
    index: dict[str, list[RepoObject]] = {}
    for obj in state.objects.values():
        if obj.kind.language != "abap":
            index.setdefault(obj.name, []).append(obj)
    return index


def _never_active(obj: RepoObject) -> bool:
    return any(unit.active is None for unit in obj.parts.values())


def plan(state: SystemState, pending: Iterable[RepoObject]) -> ActivationPlan:
    """Order ``pending`` by dependency; refuse sources over never-activated objects that are
    not part of the set."""
    targets = list(pending)
    chosen = {obj.uri for obj in targets}
    index = _by_name(state)
    needs: dict[str, list[RepoObject]] = {}
    messages: list[CheckMessage] = []
    for obj in targets:
        unit = obj.parts.get("main")
        picked = unit.pick("inactive") if unit is not None else None
        if picked is None:
            continue
        module = REGISTRY.module(obj.kind)
        for use in module.dependencies(obj, picked[0].text):
            for other in index.get(use.name, []):
                if other.uri == obj.uri:
                    continue
                needs.setdefault(obj.uri, []).append(other)
                if other.uri not in chosen and _never_active(other):
                    messages.append(
                        CheckMessage(
                            uri=obj.source_uri("main"),
                            line=use.line,
                            column=use.column,
                            end_column=use.column + len(use.name),
                            text=f"{other.kind.label} {other.name} is not active; "
                            "activate it first or together with this object",
                            obj_descr=f"{obj.kind.label} {obj.name}",
                        )
                    )
    return ActivationPlan(_ordered(targets, needs), messages)


def _ordered(targets: list[RepoObject], needs: dict[str, list[RepoObject]]) -> list[RepoObject]:
    """Depth-first: what an object needs (within the set) before it; a cycle keeps the
    given order."""
    within = {obj.uri: obj for obj in targets}
    done: list[RepoObject] = []
    seen: set[str] = set()

    def visit(obj: RepoObject) -> None:
        if obj.uri in seen:
            return
        seen.add(obj.uri)
        for other in needs.get(obj.uri, []):
            if other.uri in within:
                visit(within[other.uri])
        done.append(obj)

    for obj in targets:
        visit(obj)
    return done


__all__ = ["ActivationPlan", "plan"]
