"""Typed results of ADT operations. Plain frozen dataclasses: no XML leaks past ``adt/``."""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from datetime import UTC
from email.utils import format_datetime, parsedate_to_datetime


@dataclass(frozen=True, order=True)
class Timestamp:
    """A point in time as both epoch milliseconds and ISO 8601 (UTC, ``Z``)."""

    ms: int

    @property
    def iso(self) -> str:
        return self.datetime.strftime("%Y-%m-%dT%H:%M:%SZ")

    @property
    def datetime(self) -> _dt.datetime:
        return _dt.datetime.fromtimestamp(self.ms / 1000, tz=UTC)

    @property
    def http_date(self) -> str:
        return format_datetime(self.datetime, usegmt=True)

    @classmethod
    def from_datetime(cls, value: _dt.datetime) -> Timestamp:
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return cls(round(value.timestamp() * 1000))

    @classmethod
    def parse_iso(cls, value: str | None) -> Timestamp | None:
        """Parse ``2026-09-10T15:10:43Z``; ``None`` for anything unparseable."""
        if not value:
            return None
        try:
            return cls.from_datetime(_dt.datetime.fromisoformat(value.replace("Z", "+00:00")))
        except ValueError:
            return None

    @classmethod
    def parse_http_date(cls, value: str | None) -> Timestamp | None:
        """Parse a ``Last-Modified`` header leniently: SAP sometimes sends ``Sat, 00  0000``."""
        if not value:
            return None
        try:
            parsed = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if parsed.year < 1971:
            return None
        return cls.from_datetime(parsed)


@dataclass(frozen=True)
class Link:
    """An ``atom:link``; ``url`` is ``href`` resolved against the object URL (abapfs rules)."""

    href: str
    rel: str
    url: str
    type: str = ""
    title: str = ""
    etag: str = ""


@dataclass(frozen=True)
class ClassInclude:
    """One part of a class (``main``, ``definitions``, ``implementations``, ``macros``,
    ``testclasses``) with its own source URL and change stamp."""

    include_type: str
    source_url: str
    changed_at: Timestamp | None
    changed_by: str
    version: str
    etag: str
    links: tuple[Link, ...] = ()


@dataclass(frozen=True)
class ObjectRef:
    """A reference to another object (package, container, search hit)."""

    uri: str
    type: str
    name: str
    package: str = ""
    description: str = ""


@dataclass(frozen=True)
class ObjectMetadata:
    """Metadata of a source-based object: class, interface, program, include, function group
    or function module."""

    object_url: str
    name: str
    type: str
    description: str
    package: str
    changed_at: Timestamp | None
    changed_by: str
    created_at: Timestamp | None
    version: str
    responsible: str
    master_language: str
    source_url: str | None
    links: tuple[Link, ...] = ()
    includes: tuple[ClassInclude, ...] = ()
    container: ObjectRef | None = None
    attributes: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def is_class(self) -> bool:
        return self.type.upper().startswith("CLAS")

    def include(self, include_type: str) -> ClassInclude | None:
        for include in self.includes:
            if include.include_type == include_type:
                return include
        return None

    @property
    def include_types(self) -> tuple[str, ...]:
        return tuple(include.include_type for include in self.includes)

    def source_etag(self) -> str:
        """The etag of the plain-text source link (equals the source GET's ETag)."""
        for link in self.links:
            if link.rel.endswith("/source") and link.type == "text/plain":
                return link.etag
        main = self.include("main")
        return main.etag if main else ""


@dataclass(frozen=True)
class SourceText:
    """A source as read: canonical LF text plus the validators the server sent."""

    text: str
    etag: str
    last_modified: Timestamp | None
    line_break: str | None = None
    """The break the server sent between lines (``None``: one line); a write of this
    source sends it back with the same one (:func:`adt.text.line_break_of`)."""


@dataclass(frozen=True)
class WriteResult:
    etag: str
    last_modified: Timestamp | None


@dataclass(frozen=True)
class LockResult:
    """The lock-result document. ``MODIFICATION_SUPPORT=NoModification`` is *not* read-only."""

    handle: str
    object_url: str
    corrnr: str = ""
    corruser: str = ""
    corrtext: str = ""
    is_local: bool = False
    is_link_up: bool = False
    modification_support: str = ""


_FRAGMENT = re.compile(r"start=(\d+)(?:,(\d+))?(?:;end=(\d+)(?:,(\d+))?)?")


@dataclass(frozen=True)
class Message:
    """A check or activation message. Lines are 1-based, columns 0-based as SAP sends them."""

    severity: str
    text: str
    uri: str = ""
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    code: str = ""
    object_description: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity in ("E", "A", "X")

    @classmethod
    def with_position(cls, severity: str, text: str, href: str, **extra: str) -> Message:
        """Build a message, taking its position from ``href``'s ``#start=L,C;end=L,C``."""
        uri, _, fragment = href.partition("#")
        match = _FRAGMENT.search(fragment)
        numbers: list[int | None] = [None, None, None, None]
        if match:
            numbers = [int(g) if g is not None else None for g in match.groups()]
        return cls(
            severity=severity,
            text=text,
            uri=uri,
            line=numbers[0],
            column=numbers[1],
            end_line=numbers[2],
            end_column=numbers[3],
            **extra,
        )


@dataclass(frozen=True)
class ActivationResult:
    """The verdict of an activation. ``success`` is False when a message is an error or the
    server answered with a list of other inactive objects; "nothing to do" is a success."""

    success: bool
    executed: bool | None
    messages: tuple[Message, ...] = ()
    inactive_objects: tuple[ObjectRef, ...] = ()

    @property
    def errors(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.is_error)


@dataclass(frozen=True)
class CheckReport:
    reporter: str
    triggering_uri: str
    status: str
    status_text: str
    messages: tuple[Message, ...] = ()


@dataclass(frozen=True)
class CheckResult:
    reports: tuple[CheckReport, ...]

    @property
    def messages(self) -> tuple[Message, ...]:
        return tuple(m for report in self.reports for m in report.messages)

    @property
    def errors(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.is_error)


@dataclass(frozen=True)
class TreeNode:
    """An object in a package tree (``SEU_ADT_REPOSITORY_OBJ_NODE``): a sub-package
    (``DEVC/K``), an object, or a nameless folder node that carries a ``node_id``."""

    object_type: str
    name: str
    tech_name: str
    uri: str
    description: str = ""
    expandable: bool = False
    node_id: str = ""

    @property
    def is_package(self) -> bool:
        return self.object_type == "DEVC/K" and bool(self.name)

    @property
    def is_folder(self) -> bool:
        return not self.name


@dataclass(frozen=True)
class TreeObjectType:
    object_type: str
    label: str
    category: str
    node_id: str


@dataclass(frozen=True)
class NodeStructure:
    """One answer of ``repository/nodestructure``; all empty for an empty or unknown package."""

    nodes: tuple[TreeNode, ...] = ()
    object_types: tuple[TreeObjectType, ...] = ()
    categories: tuple[tuple[str, str], ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (self.nodes or self.object_types or self.categories)

    @property
    def sub_packages(self) -> tuple[TreeNode, ...]:
        """The ``DEVC/K`` children."""
        return tuple(node for node in self.nodes if node.is_package)

    @property
    def objects(self) -> tuple[TreeNode, ...]:
        """Every named node that is not a sub-package."""
        return tuple(node for node in self.nodes if node.name and not node.is_package)
