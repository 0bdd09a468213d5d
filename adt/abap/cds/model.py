"""What a parsed CDS-family source says: its definitions, elements, links and references.

One model for every language of the family so that outline, check, navigation and
where-used are written once. Positions are (1-based line, 0-based column).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Roles of a reference to another object (what the name is used as).
DATA_SOURCE = "data source"
ASSOCIATION_TARGET = "association target"
PROJECTED = "projected entity"
EXTENDED = "extended object"
ANNOTATED = "annotated entity"
PROTECTED = "protected entity"
INHERITED = "inherited entity"
BEHAVIOR_ENTITY = "behavior entity"
BEHAVIOR_POOL = "behavior pool"
PERSISTENT_TABLE = "persistent table"
DRAFT_TABLE = "draft table"
MAPPED_TABLE = "mapped table"
EXPOSED = "exposed entity"
REDIRECT = "redirection target"
TYPE = "type"
INCLUDE = "include"
IMPLEMENTATION = "implementing class"
PARAMETER_TYPE = "parameter type"

ENTITY_ROLES = frozenset(
    {DATA_SOURCE, ASSOCIATION_TARGET, PROJECTED, EXTENDED, ANNOTATED, PROTECTED, INHERITED}
    | {BEHAVIOR_ENTITY, EXPOSED, REDIRECT}
)
TABLE_ROLES = frozenset({PERSISTENT_TABLE, DRAFT_TABLE, MAPPED_TABLE})
CLASS_ROLES = frozenset({BEHAVIOR_POOL, IMPLEMENTATION})


@dataclass(frozen=True)
class Reference:
    """A name of another object used in a source, with its role and place."""

    name: str
    role: str
    line: int
    column: int

    @property
    def key(self) -> str:
        return self.name.upper()


@dataclass(frozen=True)
class Diagnostic:
    """A finding at a place; ``severity`` is ``error`` or ``warning``."""

    message: str
    line: int
    column: int
    length: int = 1
    severity: str = "error"


@dataclass
class Annotation:
    """``@Name.path: value`` — the value as written (``{…}``/``[…]`` kept as text)."""

    name: str
    value: str
    line: int
    column: int


@dataclass
class PathStep:
    """One segment of a path expression (``_Booking``, ``.``-separated), filters dropped."""

    name: str
    line: int
    column: int


@dataclass
class Element:
    """An element of an entity, a field of a table/structure or an annotated element.

    ``path`` is the path expression it projects (empty for computed ones and for typed
    declarations, whose expression's paths are ``uses``); ``type`` is the declared or cast
    type when the text says it."""

    name: str
    line: int
    column: int
    key: bool = False
    path: list[PathStep] = field(default_factory=list)
    alias: str = ""
    type: str = ""
    computed: bool = False
    redirected_to: str = ""
    not_null: bool = False
    annotations: list[Annotation] = field(default_factory=list)
    association: bool = False
    uses: list[list[PathStep]] = field(default_factory=list)
    """The paths a computed element's expression reads (``case``, ``cast``, arithmetic)."""


@dataclass
class Association:
    """``association [0..1] to X as _X on …``, ``composition of …``, ``to parent``."""

    name: str
    target: str
    cardinality: str
    kind: str  # association | composition | to parent
    line: int
    column: int
    condition: list[list[PathStep]] = field(default_factory=list)


@dataclass
class DataSource:
    """An entity or table a view selects from / projects / joins, with its alias."""

    name: str
    alias: str
    line: int
    column: int


@dataclass
class Parameter:
    name: str
    type: str
    line: int
    column: int


@dataclass
class BehaviorItem:
    """An operation, action, function, determination, validation, event or association of
    a behavior entity; ``kind`` is the keyword (``action``, ``determination``, …)."""

    name: str
    kind: str
    line: int
    column: int
    detail: str = ""
    timing: str = ""  # a determination's ``on modify``/``on save``, a validation's ``on save``


@dataclass(frozen=True)
class Control:
    """A characteristic of a behavior entity its pool implements with a handler method of
    its own: ``authorization master ( instance )`` → ``INSTANCE AUTHORIZATION``, ``lock
    master`` → ``LOCK``, ``( features : global )`` → ``GLOBAL FEATURES``. ``written`` is the
    characteristic as the BDEF spells it (lower case), for the finding; ``unmanaged``: a
    ``lock master unmanaged`` of a managed BDEF."""

    signature: str
    written: str
    line: int
    column: int
    length: int
    unmanaged: bool = False


@dataclass
class Behavior:
    """``define behavior for X alias Y … { … }``."""

    entity: str
    alias: str
    line: int
    column: int
    end: tuple[int, int] = (0, 0)
    pool: str = ""
    persistent_table: str = ""
    draft_table: str = ""
    items: list[BehaviorItem] = field(default_factory=list)
    fields: list[PathStep] = field(default_factory=list)
    extension: bool = False  # `extend behavior for <entity or alias>`
    controls: list[Control] = field(default_factory=list)


@dataclass
class Exposure:
    """``expose X as Y;`` of a service definition."""

    entity: str
    alias: str
    line: int
    column: int


@dataclass
class Definition:
    """The object one source defines (or extends/annotates/protects).

    ``kind`` names the form: ``view entity``, ``view``, ``projection``, ``abstract entity``,
    ``custom entity``, ``table function``, ``hierarchy``, ``extension``, ``metadata
    extension``, ``role``, ``behavior``, ``service``, ``table``, ``structure``."""

    kind: str
    name: str
    line: int
    column: int
    end: tuple[int, int] = (0, 0)
    root: bool = False
    sources: list[DataSource] = field(default_factory=list)
    associations: list[Association] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)
    parameters: list[Parameter] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    behaviors: list[Behavior] = field(default_factory=list)
    exposures: list[Exposure] = field(default_factory=list)
    implementation: str = ""  # BDEF: managed | unmanaged | abstract | projection | interface
    pool: str = ""  # BDEF header: implementation in class …
    includes: list[str] = field(default_factory=list)
    element_block: tuple[int, int, int, int] | None = None  # { … } of the element list

    @property
    def key(self) -> str:
        return self.name.upper()


@dataclass
class Source:
    """A parsed source: its language, definition (None when nothing was recognised),
    references in text order and what the parser could not make sense of."""

    language: str
    definition: Definition | None
    references: list[Reference] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
