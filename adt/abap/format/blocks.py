"""The block structure of ABAP statements: how deep each one is nested, and in which block.

Blocks are the pairs a pretty printer indents: ``CLASS``/``ENDCLASS`` (sections one level in,
their members two), ``INTERFACE``, ``METHOD``, ``FORM``, ``FUNCTION``, ``MODULE``, ``IF`` (with
``ELSEIF``/``ELSE``), ``CASE`` (``WHEN`` one level in, its statements two), ``DO``, ``WHILE``,
``LOOP``, ``TRY`` (``CATCH``/``CLEANUP``), ``SELECT`` loops, ``AT`` control levels,
``PROVIDE``, ``ON CHANGE OF``, ``WITH`` loops, ``CATCH SYSTEM-EXCEPTIONS``, enhancements, test
seams, macro definitions, structure declarations (``BEGIN OF``/``END OF``) and report events
(``START-OF-SELECTION`` and the others reach to the next event or procedure).

``SELECT`` and ``WITH`` open a block only when they are loops, which the statement alone does
not always tell; one that an ``ENDSELECT``/``ENDWITH`` closes is a loop. An end keyword without
its opener changes nothing; one that closes an outer block closes the inner ones with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adt.abap.keywords import BLOCK_ENDS

from .tokens import TokenKind, TokenStatement

CLOSERS = BLOCK_ENDS
OPENERS = {end: start for start, end in CLOSERS.items()}
#: Blocks that contain procedures' code: what an event block ends at.
PROCEDURES = frozenset({"CLASS", "INTERFACE", "FORM", "FUNCTION", "MODULE", "DEFINE"})
EVENTS = frozenset(
    {
        "INITIALIZATION",
        "START-OF-SELECTION",
        "END-OF-SELECTION",
        "TOP-OF-PAGE",
        "END-OF-PAGE",
        "LOAD-OF-PROGRAM",
    }
)
_AT_EVENTS = frozenset({"SELECTION-SCREEN", "LINE-SELECTION", "USER-COMMAND"})
_AT_LEVELS = frozenset({"FIRST", "LAST", "NEW", "END"})
DECLARATIONS = frozenset({"TYPES", "DATA", "CONSTANTS", "STATICS", "CLASS-DATA"})
_MIDDLE = {"ELSE": "IF", "ELSEIF": "IF", "CATCH": "TRY", "CLEANUP": "TRY"}
MIDDLE_WORDS = frozenset({*_MIDDLE, "WHEN", "PUBLIC", "PROTECTED", "PRIVATE"})
_AGGREGATES = ("COUNT(", "SUM(", "MIN(", "MAX(", "AVG(")
EVENT = "EVENT"
STRUCT = "STRUCT"
#: The first words (upper case) of the statements that may open, close or change a block,
#: make a loop, open a native section or change a structure: any other statement leaves the
#: blocks open as it found them (:class:`Nester`), which lets a scan pass over it unlexed.
SIGNIFICANT = frozenset(
    {
        *CLOSERS,
        *OPENERS,
        *MIDDLE_WORDS,
        *EVENTS,
        *DECLARATIONS,
        *("AT", "ON", "CATCH", "SELECT", "WITH", "CLASS", "INTERFACE", "INCLUDE"),
        *("EXEC", "METHOD"),
    }
)
#: The open blocks at a point between statements, outermost first: each block's kind, its
#: level and the level of its body — all that the levels of the statements after it depend
#: on (besides which ``SELECT``/``WITH`` statements are loops).
State = tuple[tuple[str, int, int], ...]


@dataclass
class Block:
    """One block: its kind (the opening keyword, ``EVENT`` or ``STRUCT``), the statements
    that open and close it (``end`` is None while open) and its enclosing block."""

    kind: str
    start: int
    base: int
    body: int
    parent: int | None
    end: int | None = None


@dataclass
class Layout:
    """Per statement: its nesting level, the level a plain statement would have had in its
    place (``inner``: deeper than ``levels`` for end keywords, ``ELSE``, ``WHEN``…) and its
    innermost enclosing block (an index into ``blocks``; the statement that opens a block
    belongs to the enclosing one). ``final`` is the level after the last statement."""

    levels: list[int] = field(default_factory=list)
    inner: list[int] = field(default_factory=list)
    enclosing: list[int | None] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    final: int = 0

    def comment_level(self, upcoming: int | None, words: list[str]) -> int:
        """Where a comment line goes that comes before statement ``upcoming`` (with
        ``words``): with the statement, or in the block above an end or middle keyword."""
        if upcoming is None:
            return self.final
        if words and (words[0] in OPENERS or words[0] in MIDDLE_WORDS):
            return self.inner[upcoming]
        return self.levels[upcoming]

    def chain(self, index: int) -> list[Block]:
        """The blocks around statement ``index``, innermost first."""
        found: list[Block] = []
        block = self.enclosing[index]
        while block is not None:
            found.append(self.blocks[block])
            block = self.blocks[block].parent
        return found


def _is_event(words: list[str]) -> bool:
    if not words:
        return False
    if words[0] in EVENTS:
        return True
    return (
        words[0] == "AT"
        and len(words) > 1
        and (words[1] in _AT_EVENTS or (words[1].startswith("PF") and words[1][2:].isdigit()))
    )


def _select_may_loop(words: list[str]) -> bool:
    if "SINGLE" in words[:3]:
        return False
    for into in ("INTO", "APPENDING"):
        if into in words:
            after = words[words.index(into) + 1 :]
            if "TABLE" in after[:4] and "PACKAGE" not in words:
                return False
    aggregate = any(w.startswith(_AGGREGATES) for w in words)
    return not (aggregate and "GROUP" not in words)


def loop_event(statement: TokenStatement) -> tuple[str, bool] | None:
    """``(kind, True)`` for a ``SELECT``/``WITH`` that is a loop if an end closes it,
    ``(kind, False)`` for that end (``ENDSELECT``/``ENDWITH``), else None."""
    words = statement.words
    head = words[0] if words else ""
    if head == "SELECT" and _select_may_loop(words):
        return head, True
    if head == "WITH" and statement.first.kind is TokenKind.WORD:
        return head, True
    if head in ("ENDSELECT", "ENDWITH"):
        return OPENERS[head], False
    return None


def _loops(statements: list[TokenStatement]) -> set[int]:
    """``SELECT``/``WITH`` statements that an ``ENDSELECT``/``ENDWITH`` closes."""
    waiting: dict[str, list[int]] = {"SELECT": [], "WITH": []}
    loops: set[int] = set()
    for index, statement in enumerate(statements):
        event = loop_event(statement)
        if event is None:
            continue
        kind, opens = event
        if opens:
            waiting[kind].append(index)
        elif waiting[kind]:
            loops.add(waiting[kind].pop())
    return loops


def _opens(words: list[str], index: int, loops: set[int]) -> str | None:
    """The block kind a statement opens (``None`` for none)."""
    head = words[0] if words else ""
    rest = words[1:]
    if head in ("SELECT", "WITH"):
        return head if index in loops else None
    if head in ("CLASS", "INTERFACE"):
        if "DEFERRED" in rest or "LOAD" in rest or ("LOCAL" in rest and "FRIENDS" in rest):
            return None
        return head
    if head == "AT":
        return head if rest[:1] and rest[0] in _AT_LEVELS else None
    if head == "ON":
        return head if rest[:1] == ["CHANGE"] else None
    if head == "CATCH":
        return head if rest[:1] == ["SYSTEM-EXCEPTIONS"] else None
    return head if head in CLOSERS else None


def _struct_change(statement: TokenStatement) -> tuple[bool, int]:
    """For a declaration: whether it starts with ``END OF`` (it closes a structure before
    itself) and how many structures it leaves open (or closes) after itself."""
    words = statement.words
    if not words or words[0] not in DECLARATIONS:
        return False, 0
    elements = [[t.upper for t in e if t.kind is TokenKind.WORD] for e in statement.elements()]
    opens = sum(1 for e in elements if e[:2] == ["BEGIN", "OF"])
    closes = sum(1 for e in elements if e[:2] == ["END", "OF"])
    first_closes = bool(elements) and elements[0][:2] == ["END", "OF"]
    return first_closes, opens - closes + (1 if first_closes else 0)


class Nester:
    """The levels of statements fed one at a time, from the blocks ``start`` leaves open
    (a piece of a source formatted on its own, :mod:`adt.abap.format.segments`)."""

    def __init__(self, statements: list[TokenStatement], start: State = ()) -> None:
        self.statements = statements
        self.loops = _loops(statements)
        self.layout = Layout()
        self.stack: list[int] = []  # indices into layout.blocks
        for kind, base, body in start:
            self._push(kind, -1, base)
            self.layout.blocks[-1].body = body

    @property
    def state(self) -> State:
        """The blocks open now (see :data:`State`)."""
        blocks = self.layout.blocks
        return tuple((blocks[i].kind, blocks[i].base, blocks[i].body) for i in self.stack)

    @property
    def top(self) -> Block | None:
        return self.layout.blocks[self.stack[-1]] if self.stack else None

    @property
    def body(self) -> int:
        top = self.top
        return top.body if top is not None else 0

    def _push(self, kind: str, index: int, level: int) -> None:
        parent = self.stack[-1] if self.stack else None
        # SAP's pretty printer puts CATCH/CLEANUP one level into a TRY and every statement
        # of the TRY two levels in, as for CASE/WHEN.
        body = level + 2 if kind == "TRY" else level + 1
        self.layout.blocks.append(Block(kind, index, level, body, parent))
        self.stack.append(len(self.layout.blocks) - 1)

    def _pop(self, index: int) -> Block:
        block = self.layout.blocks[self.stack.pop()]
        block.end = index
        return block

    def _close(self, kind: str, index: int) -> int | None:
        """Close the innermost open ``kind`` block (and those inside it); its level."""
        for depth in range(len(self.stack) - 1, -1, -1):
            block = self.layout.blocks[self.stack[depth]]
            if block.kind == kind:
                while len(self.stack) > depth:
                    self._pop(index)
                return block.base
            if block.kind == "DEFINE":
                return None  # a macro's end keywords never close what is outside it
        return None

    def _middle(self, words: list[str]) -> int | None:
        """The level of ``ELSE``, ``WHEN``, ``CATCH``, ``PUBLIC SECTION``…; None otherwise."""
        top, head = self.top, words[0]
        if top is None:
            return None
        if _MIDDLE.get(head) == top.kind and not (head == "CATCH" and "SYSTEM-EXCEPTIONS" in words):
            if top.kind == "TRY":
                top.body = top.base + 2
                return top.base + 1
            top.body = top.base + 1
            return top.base
        is_section = words[1:2] == ["SECTION"] and head in ("PUBLIC", "PROTECTED", "PRIVATE")
        if (head == "WHEN" and top.kind == "CASE") or (is_section and top.kind == "CLASS"):
            top.body = top.base + 2
            return top.base + 1
        return None

    def _level(self, index: int, words: list[str]) -> int:
        head = words[0]
        if head in OPENERS:
            closed = self._close(OPENERS[head], index)
            if closed is not None:
                return closed
        middle = self._middle(words)
        if middle is not None:
            return middle
        opened = _opens(words, index, self.loops)
        top = self.top
        if top is not None and top.kind == EVENT and (_is_event(words) or opened in PROCEDURES):
            self._pop(index)
        level = self.body
        if opened is not None:
            self._push(opened, index, level)
        elif _is_event(words):
            self._push(EVENT, index, level)
        return level

    def _structures(self, index: int, statement: TokenStatement) -> int:
        """The level of a declaration that opens or closes structures (``BEGIN OF``)."""
        first_closes, change = _struct_change(statement)
        top = self.top
        head = statement.words[0] if statement.words else ""
        if first_closes and top is not None and top.kind == STRUCT:
            level = top.base
            self._pop(index)
        elif top is not None and top.kind == STRUCT and head in DECLARATIONS and change < 0:
            # ``TYPES: c TYPE i, END OF s.`` closing a structure an earlier statement
            # opened stands where that statement stood (SAP's layout; abaplint checks it).
            level = self._struct_base()
        elif top is not None and top.kind == STRUCT and head == "INCLUDE":
            level = top.base + 2  # ``INCLUDE TYPE`` lines up with the components
        else:
            level = self._level(index, statement.words)
        for depth in range(change):
            self._push(STRUCT, index, level + depth)
        for _ in range(-change):
            if self.top is not None and self.top.kind == STRUCT:
                self._pop(index)
        return level

    def _struct_base(self) -> int:
        """The level of the statement that opened the open structures."""
        base = self.body
        for position in reversed(self.stack):
            block = self.layout.blocks[position]
            if block.kind != STRUCT:
                break
            base = block.base
        return base

    def add(self, index: int, statement: TokenStatement) -> None:
        known = len(self.layout.blocks)
        self.layout.inner.append(self.body)
        level = self._structures(index, statement) if statement.words else self.body
        self.layout.levels.append(level)
        if len(self.layout.blocks) > known:
            self.layout.enclosing.append(self.layout.blocks[known].parent)
        else:
            self.layout.enclosing.append(self.stack[-1] if self.stack else None)


def analyse(statements: list[TokenStatement]) -> Layout:
    """Nesting levels and blocks of ``statements`` (see the module doc)."""
    nester = Nester(statements)
    for index, statement in enumerate(statements):
        nester.add(index, statement)
    nester.layout.final = nester.body
    return nester.layout
