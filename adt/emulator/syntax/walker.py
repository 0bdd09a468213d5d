"""Reading one executable statement for the semantic checks: which identifiers name data
objects (to be declared), which are method calls (to exist) and which are formal
parameters of those calls (to exist in the called method).

ABAP's grammar decides this; the walker only knows the shapes that are unambiguous without
it and stays silent otherwise (a name it cannot place is never reported). Left out on
purpose: Open SQL, list output, messages and the other statements in :data:`SKIP_HEADS`,
component names (after ``-``, ``WHERE``, ``BY``, ``TRANSPORTING``, inside ``[ ]`` and
constructor expressions), type names (after ``TYPE``/``LIKE``/``INSTANCE OF``, before
``=>``/``~``) and words ABAP uses as keywords.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adt.abap.keywords import KEYWORDS
from adt.abap.lexer import NAME, NUMBER, Statement, Token, adjacent

from .vocabulary import CONSTRUCTORS, FUNCTIONS

#: Statements whose operands are not read at all (SQL, lists, messages, dynpro, …).
SKIP_HEADS = frozenset(
    """SELECT OPEN FETCH UPDATE EXEC WRITE FORMAT ULINE SKIP NEW-LINE NEW-PAGE MESSAGE SET GET
    DESCRIBE SUBMIT IMPORT EXPORT AUTHORITY-CHECK LEAVE COMMIT ROLLBACK WAIT RECEIVE TYPES DATA
    CONSTANTS STATICS FIELD-SYMBOLS CLASS-DATA TABLES PARAMETERS SELECT-OPTIONS RANGES INCLUDE
    TYPE-POOLS DEFINE METHOD SCAN SYNTAX-CHECK GENERATE EDITOR-CALL OVERLAY TRANSLATE REPLACE
    FIND SUM PROVIDE CONVERT SEARCH CLOSE TRANSFER WITH TEST-SEAM TEST-INJECTION LOG-POINT
    BREAK-POINT ENHANCEMENT-POINT ENHANCEMENT-SECTION ENHANCEMENT INSERT MODIFY DELETE READ
    RAISE CALL PERFORM SORT FREE EXIT RETURN CHECK-DUMMY ASSIGN UNASSIGN PUT HIDE EXTRACT
    FIELD-GROUPS SUPPLY DEMAND CONTEXTS COMMUNICATION PRINT-CONTROL RESERVE BACK POSITION
    WINDOW DETAIL SUMMARY INPUT MAXIMUM MINIMUM LOCAL ON AT CATCH CLEANUP""".split()
)
#: Statements whose names are read only in their internal-table form (``READ TABLE``).
_TABLE_FORMS = frozenset({"READ", "DELETE", "MODIFY"})
#: Statements not walked at all: Open SQL has its own functions and names.
SQL_HEADS = frozenset({"SELECT", "OPEN", "FETCH", "UPDATE", "EXEC", "WITH", "INSERT", "MODIFY", "DELETE"})
_PARAM_WORDS = frozenset({"EXPORTING", "IMPORTING", "CHANGING", "TABLES", "RECEIVING"})
#: Clauses whose operands are component names, up to the next clause.
_COMPONENT_CLAUSES = frozenset(
    {"USING", "BY", "TRANSPORTING", "COMPARING", "MAPPING", "EXCEPT", "GROUP", "EXCEPTIONS", "DEFAULT"}
)
#: Clauses whose comparisons have a component on the left.
_CONDITION_CLAUSES = frozenset({"WHERE", "KEY"})
_RESET = frozenset(
    """INTO ASSIGNING REFERENCE WHERE INDEX FROM TO CASTING ELSE THEN WHEN IN FOR WITH
    EXPORTING IMPORTING CHANGING RECEIVING TABLES KEY UP STEP UNTIL WHILE NEXT""".split()
) - {"IN"}
_COMPARISONS = frozenset(
    "= <> < > <= >= EQ NE LT GT LE GE IS IN CP NP CS NS CA NA CO CN BETWEEN ?=".split()
)
_TYPE_WORDS = frozenset(
    """REF TO LINE OF STANDARD SORTED HASHED INDEX ANY TABLE RANGE HANDLE STRUCTURE""".split()
)
_SKIP_NEXT = frozenset({"PERFORMING", "CALLING", "EVENT", "MESSAGE", "ID", "HANDLER", "SEAM"})
#: Words used as keywords inside statements and string templates, beyond ``KEYWORDS``.
_MORE_WORDS = frozenset(
    """WIDTH ALIGN PAD CASE SIGN NUMBER STYLE CURRENCY DATE TIME TIMESTAMP TIMEZONE COUNTRY
    ALPHA DECIMALS EXPONENT XSD ZERO LEFT RIGHT CENTER UPPER LOWER RAW ISO USER ENVIRONMENT
    OUT YES NO SCIENTIFIC SIMPLE SCALE_PRESERVING ENGINEERING SPACE INIT BASE DEEP LINES
    OCCURRENCES OCCURRENCE REGEX PCRE MODE CHARACTER BYTE RESULTS SUBSTRING PLACES SIZE
    MEMBERS WITHOUT GROUPS OBJECT EXCEPTION RESUMABLE CONDITION BINARY ADJACENT DUPLICATES
    KEYS DUPLICATE INITIAL SUPPLIED BOUND ASSIGNED INSTANCE REQUESTED TEXT AS THEN NOT
    ALL OTHERS INTO ELSE CLEANUP COMPONENTS O Z M ENTITY DISCARDING""".split()
)
WORDS = KEYWORDS | _MORE_WORDS | CONSTRUCTORS


@dataclass
class Call:
    """A method call found in a statement: the called name, what it is called on, and the
    formal parameters written with ``name = …``."""

    name: Token
    #: ``"me"``/``"super"``/``"bare"``, ``"var"`` (``lo->m``), ``"class"`` (``x=>m``),
    #: ``"intf"`` (``zif~m``), ``"new"`` (``NEW zcl_x( )``: the constructor).
    target_kind: str
    target: str = ""
    #: For ``lo->zif~m( )``: the interface.
    via: str = ""
    formals: list[Token] = field(default_factory=list)


@dataclass
class _Frame:
    call: Call | None
    component_names: bool  # ``name =`` inside means a component or parameter
    mode: str = ""  # "", "components", "condition", "params", "type"


@dataclass
class Found:
    """What one statement uses."""

    names: list[Token] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)


def _is_call_paren(tokens: list[Token], i: int) -> bool:
    """``m( …`` with a blank (or the line end) after the parenthesis."""
    if i + 1 >= len(tokens) or tokens[i + 1].text != "(":
        return False
    if not adjacent(tokens[i], tokens[i + 1]):
        return False
    return i + 2 >= len(tokens) or not adjacent(tokens[i + 1], tokens[i + 2])


def _path_end(tokens: list[Token], i: int) -> str:
    """The token after the component path starting at ``tokens[i]`` (``a-b-c``)."""
    j = i + 1
    while j + 1 < len(tokens) and tokens[j].text == "-" and adjacent(tokens[j - 1], tokens[j]):
        j += 2
    return tokens[j].text if j < len(tokens) else ""


class Walker:
    """Classifies the identifiers of executable statements."""

    def __init__(self) -> None:
        self.found = Found()

    def statement(self, stmt: Statement) -> Found:
        self.found = Found()
        tokens = stmt.tokens
        head = stmt.first
        read_names = self._reads_names(stmt, head)
        start = 0
        if head in SQL_HEADS and not read_names:
            return self.found
        if head in ("CALL",) and len(tokens) > 2 and tokens[1].upper == "METHOD":
            start = self._call_method(tokens)
            read_names = False
        self._walk(tokens, start, read_names, head)
        return self.found

    @staticmethod
    def _reads_names(stmt: Statement, head: str) -> bool:
        if head in _TABLE_FORMS:
            return len(stmt.tokens) > 1 and stmt.tokens[1].upper == "TABLE"
        return head not in SKIP_HEADS

    def _call_method(self, tokens: list[Token]) -> int:
        """``CALL METHOD lo->m EXPORTING a = b``: the call and its formals."""
        i = 2
        if i >= len(tokens) or tokens[i].kind != NAME:
            return len(tokens)
        call: Call | None = None
        if i + 2 < len(tokens) and tokens[i + 1].text in ("->", "=>", "~"):
            call = self._member(tokens, i + 2)
            i += 3
        else:
            call = Call(tokens[i], "bare")
            i += 1
        if call is None or (i < len(tokens) and tokens[i].text in ("(", "->", "=>", "~", "-")):
            return len(tokens)
        params = False
        for j in range(i, len(tokens)):
            word = tokens[j].upper
            if word in _PARAM_WORDS:
                params = True
            elif word == "EXCEPTIONS":
                params = False
            elif params and tokens[j].kind == NAME and j + 1 < len(tokens) and tokens[j + 1].text == "=":
                call.formals.append(tokens[j])
        self.found.calls.append(call)
        return len(tokens)

    def _member(self, tokens: list[Token], i: int) -> Call | None:
        """The call of ``tokens[i]`` written after a selector (``x->m``, ``x=>m``, ``x~m``)."""
        selector, owner = tokens[i - 1], tokens[i - 2]
        if owner.kind != NAME or not adjacent(owner, selector):
            return None
        before = tokens[i - 3] if i >= 3 else None
        chained = before is not None and adjacent(before, owner) and before.text in ("->", "=>", "~", "-", ")")
        if chained:
            if selector.text == "~" or before is None or before.text != "->" or i < 4:
                return None
            holder = tokens[i - 4]
            if holder.kind != NAME or (i >= 5 and adjacent(tokens[i - 5], holder)):
                return None
            return Call(tokens[i], "intf", owner.upper, via=holder.upper)
        upper = owner.upper
        if before is not None and before.upper in CONSTRUCTORS and selector.text != "->":
            return None  # ``VALUE zif_x=>ty( … )``: a type
        if selector.text == "=>":
            return Call(tokens[i], "class", upper)
        if selector.text == "~":
            return Call(tokens[i], "intf", upper)
        if upper in ("ME", "SUPER"):
            return Call(tokens[i], upper.lower())
        return Call(tokens[i], "var", upper)

    def _walk(self, tokens: list[Token], start: int, read_names: bool, head: str) -> None:
        frames = [_Frame(None, component_names=False)]
        skip_path = False
        skip_next = False
        for i in range(start, len(tokens)):
            token = tokens[i]
            frame = frames[-1]
            text = token.text
            prev = tokens[i - 1] if i > 0 else None
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if text in ("(", "["):
                frames.append(self._open(tokens, i, frame))
                continue
            if text in (")", "]"):
                if len(frames) > 1:
                    frames.pop()
                continue
            if token.kind != NAME:
                continue
            upper = token.upper
            selector_before = prev is not None and adjacent(prev, token) and prev.text in ("-", "->", "=>", "~")
            if selector_before:
                if prev is not None and prev.text != "-" and _is_call_paren(tokens, i):
                    call = self._member(tokens, i)
                    if call is not None:
                        self._pending = call
                continue
            if skip_path:
                if upper in _TYPE_WORDS:
                    continue
                skip_path = False
                if upper not in _PARAM_WORDS and upper not in _RESET:
                    continue
            if skip_next:
                skip_next = False
                continue
            if upper in ("TYPE", "LIKE") or (upper == "OF" and prev is not None and prev.upper == "INSTANCE"):
                skip_path = True
                continue
            if upper in _SKIP_NEXT:
                skip_next = True
                continue
            if upper in _COMPONENT_CLAUSES:
                frame.mode = "components"
                continue
            if upper in _CONDITION_CLAUSES:
                frame.mode = "condition"
                skip_next = upper == "KEY"
                continue
            if upper in _PARAM_WORDS:
                frame.mode = "params"
                continue
            if upper in _RESET:
                frame.mode = ""
                continue
            if nxt is not None and adjacent(token, nxt) and nxt.text in ("=>", "~"):
                continue  # a class or interface name
            if _is_call_paren(tokens, i):
                self._bare_call(tokens, i)
                continue
            if upper in WORDS or upper.startswith("%") or upper.startswith("!"):
                continue
            if prev is not None and prev.upper in CONSTRUCTORS and not adjacent(prev, token):
                continue  # ``SWITCH ty-comp( … )``: a type
            if (prev is not None and prev.text == "/" and adjacent(prev, token)) or (
                nxt is not None and nxt.text == "/" and adjacent(token, nxt)
            ):
                continue  # part of a namespaced name the lexer split (``lhc_/dmo/x``)
            if nxt is not None and nxt.text == "-" and adjacent(token, nxt) and i + 2 < len(tokens):
                if f"{upper}-{tokens[i + 2].upper}" in WORDS:
                    continue  # ``FIELD-SYMBOL(``
            if frame.mode == "components":
                continue
            if frame.component_names and _path_end(tokens, i) == "=" and nxt is not None and nxt.text == "-":
                continue  # ``VALUE #( source-id = 1 )``: a component of the row
            if nxt is not None and nxt.text == "=" and (frame.component_names or frame.mode == "params"):
                if frame.call is not None:
                    frame.call.formals.append(token)
                continue
            if frame.mode == "components" or frame.component_names and frame.mode == "":
                if frame.mode == "components" or (nxt is not None and nxt.upper in _COMPARISONS):
                    continue
            if frame.mode == "condition" and nxt is not None:
                if nxt.upper in _COMPARISONS or (nxt.text == "-" and adjacent(token, nxt)):
                    continue
            if prev is not None and prev.text == "(" and adjacent(prev, token) and i >= 2 and tokens[i - 2].upper in ("DATA", "FINAL", "SYMBOL"):
                continue  # an inline declaration
            if read_names:
                self.found.names.append(token)

    _pending: Call | None = None

    def _open(self, tokens: list[Token], i: int, outer: _Frame) -> _Frame:
        token = tokens[i]
        prev = tokens[i - 1] if i > 0 else None
        if token.text == "[":
            if prev is None or not adjacent(prev, token):
                return _Frame(None, component_names=True, mode="components")  # ##PRAGMA[ARG]
            return _Frame(None, component_names=True, mode="condition")
        is_call = prev is not None and adjacent(prev, token) and (
            i + 1 >= len(tokens) or not adjacent(token, tokens[i + 1])
        )
        if not is_call:
            # a bare parenthesis: rows of a constructor keep their outer meaning
            mode = outer.mode if outer.mode in ("condition", "components") else ""
            return _Frame(None, component_names=outer.component_names, mode=mode)
        call = self._pending
        self._pending = None
        if call is not None and call.name is prev:
            self.found.calls.append(call)
            return _Frame(call, component_names=True)
        return _Frame(None, component_names=True)

    def _bare_call(self, tokens: list[Token], i: int) -> None:
        token = tokens[i]
        upper = token.upper
        prev = tokens[i - 1] if i > 0 else None
        if prev is not None and prev.upper == "NEW" and not adjacent(prev, token):
            self._pending = Call(token, "new", upper)
            return
        if upper in FUNCTIONS or upper in WORDS:
            return
        if prev is not None and (prev.upper in CONSTRUCTORS or prev.upper in ("TYPE", "OF")):
            return
        if prev is not None and prev.kind == NUMBER:
            return
        self._pending = Call(token, "bare", upper)


__all__ = ["SKIP_HEADS", "WORDS", "Call", "Found", "Walker"]
