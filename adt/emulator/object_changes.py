"""Creating, writing and deleting repository objects, with the transport organizer's say.

The wire side (parsing the create body, validation answers) is in ``areas/lifecycle.py``;
this module changes the state. Every change of an object in a transportable package goes
through :meth:`~adt.emulator.cts.TransportOrganizer.book` first, so a refusal (no
``corrNr``, a task number, another request) leaves nothing half done.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import errors, skeletons, stamps
from .kinds import REGISTRY
from .kinds.base import NewSpec
from .kinds.tabl import STRU, TABL
from .model import (
    CLAS,
    FINC,
    FUGR,
    FUNC,
    INCL,
    INTF,
    PROG,
    Kind,
    RepoObject,
    SourceUnit,
    Version,
    encode_name,
)
from .sessions import Context
from .state import SystemState

#: Kinds that share one name space with each kind (classes and interfaces, programs and
#: includes).
NAME_SPACES: dict[Kind, tuple[Kind, ...]] = {
    CLAS: (CLAS, INTF),
    INTF: (CLAS, INTF),
    PROG: (PROG, INCL),
    INCL: (PROG, INCL),
    FUGR: (FUGR,),
    FUNC: (FUNC,),
    FINC: (FINC, PROG, INCL),
    TABL: (TABL, STRU),
    STRU: (TABL, STRU),
}


@dataclass(frozen=True)
class NewObject:
    """What a create request asks for (already read from the body)."""

    kind: Kind
    name: str
    description: str
    responsible: str
    package: str = ""
    group: str | None = None
    main_program: str | None = None
    final: bool = True
    superclass: str | None = None
    test_classes: bool = False
    #: Kind-specific values of the create body (see ``KindModule.extra_create_fields``).
    extra: dict[str, str] = field(default_factory=dict)


def taken_by(state: SystemState, kind: Kind, name: str) -> RepoObject | None:
    """The object that already uses ``name`` in ``kind``'s name space."""
    wanted = name.upper()
    with state.lock:
        for obj in state.objects.values():
            if obj.kind in NAME_SPACES.get(kind, (kind,)) and obj.name == wanted:
                return obj
    return None


def _already_exists(kind: Kind, name: str) -> errors.AdtException:
    if kind in (PROG, INCL):
        return errors.AdtException(
            500,
            "ExceptionResourceCreationFailure",
            f"A program or include already exists with the name {name}.",
        )
    return errors.AdtException(
        400, "ExceptionResourceAlreadyExists", f"Resource {kind.label} {name} does already exist."
    )


def _inactive(obj: RepoObject, part: str, text: str) -> None:
    stamp = stamps.next_stamp(None)
    obj.parts[part] = SourceUnit(
        part, inactive=Version(text, stamp, obj.responsible), last_stamp=stamp
    )


def _sources(obj: RepoObject, spec: NewObject) -> None:
    """The sources a real system generates, stored as the (only, inactive) versions."""
    module = REGISTRY.module(obj.kind)
    template = NewSpec(
        spec.name.upper(),
        spec.description,
        final=spec.final,
        superclass=spec.superclass,
        test_classes=spec.test_classes,
        extra=dict(spec.extra),
    )
    for part, text in module.template(obj, template).items():
        _inactive(obj, part, obj.stored(text))


def _container(state: SystemState, spec: NewObject) -> tuple[str, str | None]:
    """``(package, group)`` of the new object; refuses unknown packages and groups."""
    if spec.group is not None:
        group = state.objects.get(f"{FUGR.collection}/{encode_name(spec.group)}")
        if group is None:
            raise errors.not_found(FUGR.resource_word, spec.group.upper())
        return group.package, group.name
    if spec.package.upper() not in state.packages:
        raise errors.package_not_found(spec.package.upper())
    return spec.package.upper(), None


def create_object(
    state: SystemState, spec: NewObject, corr_nr: str | None, user: str
) -> RepoObject:
    """Create an inactive object with its generated source, booked in a request if the
    package records changes."""
    with state.lock:
        name = spec.name.upper()
        if taken_by(state, spec.kind, name) is not None:
            raise _already_exists(spec.kind, name)
        package, group = _container(state, spec)
        if spec.main_program is not None and taken_by(state, PROG, spec.main_program) is None:
            raise errors.not_found(None, spec.main_program.upper())
        obj = RepoObject(
            kind=spec.kind,
            name=name,
            package=package,
            description=spec.description,
            responsible=spec.responsible.upper(),
            created_at=stamps.now_seconds(),
            group=group,
            main_program=spec.main_program.upper() if spec.main_program else None,
        )
        _sources(obj, spec)
        booking = state.cts.book(obj, corr_nr, user)
        state.add_object(obj)
        if obj.kind is FUGR:
            top = RepoObject(
                FINC, f"L{name}TOP", package, "", obj.responsible, obj.created_at, group=name
            )
            _inactive(top, "main", skeletons.group_top_source(name))
            state.add_object(top)
        if booking is not None:
            booking.apply()
        return obj


def write_source(
    state: SystemState,
    obj: RepoObject,
    part: str,
    text: str,
    handle: str | None,
    context: Context | None,
    corr_nr: str | None,
    user: str,
) -> Version:
    """A PUT: the lock first (400/423), then the request (400/403/500), then the text."""
    with state.lock:
        state.require_lock(obj, handle, context, user)
        booking = state.cts.book(obj, corr_nr, user)
        stored = state.put_source(obj, part, text, handle, context, user)
        if booking is not None:
            booking.apply()
        return stored


def record_change(state: SystemState, obj: RepoObject, corr_nr: str | None, user: str) -> None:
    """Book a change that has no other failure left (e.g. a generated class include)."""
    with state.lock:
        booking = state.cts.book(obj, corr_nr, user)
        if booking is not None:
            booking.apply()


def delete_object(
    state: SystemState,
    obj: RepoObject,
    handle: str | None,
    context: Context | None,
    corr_nr: str | None,
    user: str,
) -> None:
    """``DELETE <object>?lockHandle=…``: consumes the lock; a group takes its modules and
    includes with it. The deletion is recorded like any change."""
    with state.lock:
        state.require_lock(obj, handle, context, user)
        booking = state.cts.book(obj, corr_nr, user)
        if booking is not None:
            booking.apply()
        _remove(state, obj)


def _remove(state: SystemState, obj: RepoObject) -> None:
    """Drop an object, its lock and (for a group) its modules and includes."""
    victims = [obj]
    if obj.kind is FUGR:
        victims += [
            o for o in state.objects.values() if o.group == obj.name and o.kind in (FUNC, FINC)
        ]
    for victim in victims:
        state.locks.pop(victim.uri, None)
        state.objects.pop(victim.uri, None)


def deletion_blocker(state: SystemState, obj: RepoObject, user: str) -> tuple[str, str] | None:
    """``(lock user, text)`` when the deletion service refuses: someone, the caller included,
    holds the enqueue lock (the service locks internally)."""
    held = state.locks.get(obj.uri)
    if held is None:
        return None
    if held.user == user:
        return held.user, f"You are already editing {obj.name}"
    return held.user, f"{obj.name} is currently being edited by {held.user}"


def delete_unlocked(state: SystemState, obj: RepoObject, corr_nr: str | None, user: str) -> str:
    """``POST /deletion/delete`` for one object: ``""`` when deleted, else the refusal text
    (the service answers 200 either way)."""
    with state.lock:
        blocker = deletion_blocker(state, obj, user)
        if blocker is not None:
            return blocker[1]
        try:
            booking = state.cts.book(obj, corr_nr, user)
        except errors.AdtException as refusal:
            return refusal.message
        if booking is not None:
            booking.apply()
        _remove(state, obj)
        return ""
