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

import re
from dataclasses import dataclass, field

from adt.abap.keywords import KEYWORDS
from adt.abap.lexer import NAME, NUMBER, Statement, Token, adjacent

from .model import MethodDef
from .vocabulary import CONSTRUCTORS, FUNCTIONS, words

#: Statements whose operands are not read at all (SQL, lists, messages, dynpro, …).
SKIP_HEADS = words(
    """
    SELECT OPEN FETCH UPDATE EXEC WRITE FORMAT ULINE SKIP NEW-LINE NEW-PAGE SET GET
    DESCRIBE SUBMIT IMPORT EXPORT AUTHORITY-CHECK LEAVE COMMIT ROLLBACK WAIT RECEIVE
    TYPES DATA CONSTANTS STATICS FIELD-SYMBOLS CLASS-DATA TABLES PARAMETERS
    SELECT-OPTIONS RANGES INCLUDE TYPE-POOLS DEFINE METHOD SCAN SYNTAX-CHECK GENERATE
    EDITOR-CALL OVERLAY TRANSLATE REPLACE FIND SUM PROVIDE CONVERT SEARCH CLOSE TRANSFER
    WITH TEST-SEAM TEST-INJECTION LOG-POINT BREAK-POINT ENHANCEMENT-POINT
    ENHANCEMENT-SECTION ENHANCEMENT INSERT MODIFY DELETE READ RAISE CALL PERFORM FREE
    EXIT RETURN CHECK-DUMMY ASSIGN UNASSIGN PUT HIDE EXTRACT FIELD-GROUPS SUPPLY DEMAND
    CONTEXTS COMMUNICATION PRINT-CONTROL RESERVE BACK POSITION WINDOW DETAIL SUMMARY
    INPUT MAXIMUM MINIMUM LOCAL ON AT CATCH CLEANUP
    """
)
#: Statements whose names are read only in their internal-table form (``READ TABLE``).
_TABLE_FORMS = frozenset({"READ", "DELETE", "MODIFY"})
#: Statements not walked at all: Open SQL has its own functions and names.
SQL_HEADS = frozenset(
    {"SELECT", "OPEN", "FETCH", "UPDATE", "EXEC", "WITH", "INSERT", "MODIFY", "DELETE"}
)
_SELECTORS = frozenset({"-", "->", "=>", "~"})
_CHAIN_BEFORE = frozenset({"->", "=>", "~", "-", ")"})
_PARAM_WORDS = frozenset({"EXPORTING", "IMPORTING", "CHANGING", "TABLES", "RECEIVING"})
#: Clauses whose operands are component names, up to the next clause.
_COMPONENT_CLAUSES = frozenset(
    {
        "USING",
        "BY",
        "TRANSPORTING",
        "COMPARING",
        "MAPPING",
        "EXCEPT",
        "GROUP",
        "EXCEPTIONS",
        "DEFAULT",
    }
)
#: Clauses whose comparisons have a component on the left.
_CONDITION_CLAUSES = frozenset({"WHERE", "KEY"})
_RESET = words(
    """
    INTO ASSIGNING REFERENCE WHERE INDEX FROM TO CASTING ELSE THEN WHEN IN FOR WITH
    EXPORTING IMPORTING CHANGING RECEIVING TABLES KEY UP STEP UNTIL WHILE NEXT
    """
) - {"IN"}
_COMPARISONS = words(
    """
    = <> < > <= >= EQ NE LT GT LE GE IS IN CP NP CS NS CA NA CO CN BETWEEN ?=
    """
)
_MESSAGE_ID = re.compile(r"^[AEISWXaeiswx]\d{3}$")
_TYPE_WORDS = words(
    """
    REF TO LINE OF STANDARD SORTED HASHED INDEX ANY TABLE RANGE HANDLE STRUCTURE
    """
)
_SKIP_NEXT = frozenset(
    {"PERFORMING", "CALLING", "EVENT", "MESSAGE", "ID", "HANDLER", "SEAM", "RAISING"}
)
#: Words used as keywords inside statements and string templates, beyond ``KEYWORDS``.
_MORE_WORDS = words(
    """
    WIDTH ALIGN PAD CASE SIGN NUMBER STYLE CURRENCY DATE TIME TIMESTAMP TIMEZONE COUNTRY
    ALPHA DECIMALS EXPONENT XSD ZERO LEFT RIGHT CENTER UPPER LOWER RAW ISO USER
    ENVIRONMENT OUT YES NO SCIENTIFIC SIMPLE SCALE_PRESERVING ENGINEERING SPACE INIT
    BASE DEEP LINES OCCURRENCES OCCURRENCE REGEX PCRE MODE CHARACTER BYTE RESULTS
    SUBSTRING PLACES SIZE MEMBERS WITHOUT GROUPS OBJECT EXCEPTION RESUMABLE CONDITION
    BINARY ADJACENT DUPLICATES KEYS DUPLICATE INITIAL SUPPLIED BOUND ASSIGNED INSTANCE
    REQUESTED TEXT AS THEN NOT ALL OTHERS INTO ELSE CLEANUP COMPONENTS O Z M ENTITY
    DISCARDING TASK UNIT SEPARATE BACKGROUND DESTINATION KEEPING LOGICAL WORK NEW
    ASCENDING DESCENDING STABLE DISPLAY WITH
    """
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
    #: For ``x( )->m( )`` (``"returned"``): the call whose result ``m`` is called on.
    previous: Call | None = None
    #: The called method once the checker found it (for the calls chained to it).
    resolved: MethodDef | None = None


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


def _never_a_field(tokens: list[Token], i: int) -> bool:
    """Names that are keywords, types or parts of other names wherever they stand."""
    token = tokens[i]
    upper = token.upper
    prev = tokens[i - 1] if i > 0 else None
    if upper in WORDS or upper.startswith(("%", "!")):
        return True
    if prev is not None and prev.upper in CONSTRUCTORS and not adjacent(prev, token):
        return True  # ``SWITCH ty-comp( … )``: a type
    return _glued(tokens, i) or _inline_declared(tokens, i)


def _glued(tokens: list[Token], i: int) -> bool:
    """Part of a namespaced name the lexer split (``lhc_/dmo/x``) or of a hyphenated
    keyword (``FIELD-SYMBOL(``)."""
    token = tokens[i]
    prev = tokens[i - 1] if i > 0 else None
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if prev is not None and prev.text == "/" and adjacent(prev, token):
        return True
    if nxt is None or not adjacent(token, nxt):
        return False
    if nxt.text == "/":
        return True
    return (
        nxt.text == "-" and i + 2 < len(tokens) and f"{token.upper}-{tokens[i + 2].upper}" in WORDS
    )


def _inline_declared(tokens: list[Token], i: int) -> bool:
    prev = tokens[i - 1] if i > 0 else None
    inline = prev is not None and prev.text == "(" and adjacent(prev, tokens[i]) and i >= 2
    return inline and tokens[i - 2].upper in ("DATA", "FINAL", "SYMBOL")


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
        if head == "MESSAGE":
            start = 2 if len(tokens) > 1 and _MESSAGE_ID.match(tokens[1].text) else 1
        self._statement_call = None
        if head in ("CALL",) and len(tokens) > 2 and tokens[1].upper == "METHOD":
            start = self._call_method(tokens)
            read_names = start < len(tokens)
        self._walk(tokens, start, read_names, head)
        return self.found

    @staticmethod
    def _reads_names(stmt: Statement, head: str) -> bool:
        tokens = stmt.tokens
        second = tokens[1].upper if len(tokens) > 1 else ""
        if head in _TABLE_FORMS:
            words = {t.upper for t in tokens}
            if head == "DELETE" and (
                second == "ADJACENT" or ("WHERE" in words and second != "FROM")
            ):
                return True
            if head in ("DELETE", "MODIFY") and words & {"INDEX", "TRANSPORTING"}:
                return True
            return second == "TABLE"
        if head == "INSERT":
            order = [t.upper for t in tokens]
            into = order.index("INTO") if "INTO" in order else -1
            table_form = into > 1 and (order[into + 1 : into + 2] == ["TABLE"] or "INDEX" in order)
            return table_form and not {"REPORT", "TEXTPOOL"} & set(order)
        if head == "CALL":
            return second == "FUNCTION"
        if head == "RAISE":
            return second == "EXCEPTION"
        if head == "MESSAGE":
            return True
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
        self.found.calls.append(call)
        self._statement_call = call
        return i

    def _member(self, tokens: list[Token], i: int) -> Call | None:
        """The call of ``tokens[i]`` written after a selector (``x->m``, ``x=>m``, ``x~m``)."""
        selector, owner = tokens[i - 1], tokens[i - 2]
        if owner.text == ")" and selector.text == "->" and self._closed is not None:
            closing, previous = self._closed
            if closing is owner and adjacent(owner, selector):
                return Call(tokens[i], "returned", previous=previous)
            return None
        if owner.kind != NAME or not adjacent(owner, selector):
            return None
        before = tokens[i - 3] if i >= 3 else None
        if before is not None and adjacent(before, owner) and before.text in _CHAIN_BEFORE:
            return self._through_interface(tokens, i)
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

    @staticmethod
    def _through_interface(tokens: list[Token], i: int) -> Call | None:
        """``lo->zif_x~m( )``; any longer chain is not followed."""
        if tokens[i - 1].text != "~" or tokens[i - 3].text != "->" or i < 4:
            return None
        holder = tokens[i - 4]
        if holder.kind != NAME or (i >= 5 and adjacent(tokens[i - 5], holder)):
            return None
        return Call(tokens[i], "intf", tokens[i - 2].upper, via=holder.upper)

    _statement_call: Call | None = None
    _closed: tuple[Token, Call] | None = None

    def _walk(self, tokens: list[Token], start: int, read_names: bool, head: str) -> None:
        self.tokens = tokens
        self.frames = [_Frame(self._statement_call, component_names=False)]
        self.skip_path = self.skip_next = False
        for i in range(start, len(tokens)):
            token = tokens[i]
            if token.text in ("(", "["):
                self.frames.append(self._open(tokens, i, self.frames[-1]))
            elif token.text in (")", "]"):
                self._close(token)
            elif token.kind != NAME:
                self.skip_path = False
            elif self._name(i) and read_names:
                self.found.names.append(token)

    def _close(self, token: Token) -> None:
        if len(self.frames) > 1:
            closed = self.frames.pop()
            if closed.call is not None:
                self._closed = (token, closed.call)

    def _name(self, i: int) -> bool:
        """Whether the name at ``i`` is a field to be declared (calls are noted on the way)."""
        tokens = self.tokens
        token, prev = tokens[i], tokens[i - 1] if i > 0 else None
        if prev is not None and adjacent(prev, token) and prev.text in _SELECTORS:
            if prev.text != "-" and _is_call_paren(tokens, i):
                self._pending = self._member(tokens, i) or self._pending
            return False
        if self._skipped(token.upper) or self._clause(token.upper, prev):
            return False
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and adjacent(token, nxt) and nxt.text in ("=>", "~"):
            return False  # a class or interface name
        if _is_call_paren(tokens, i):
            self._bare_call(tokens, i)
            return False
        return not _never_a_field(tokens, i) and self._in_frame(i)

    def _skipped(self, upper: str) -> bool:
        """The type after ``TYPE``/``LIKE`` and the one name after :data:`_SKIP_NEXT`."""
        if self.skip_path:
            if upper in _TYPE_WORDS:
                return True
            self.skip_path = False
            return upper not in _PARAM_WORDS and upper not in _RESET
        if self.skip_next:
            self.skip_next = False
            return True
        return False

    def _clause(self, upper: str, prev: Token | None) -> bool:
        """Keywords that change what the following names are."""
        frame = self.frames[-1]
        if upper in ("TYPE", "LIKE") or (
            upper == "OF" and prev is not None and prev.upper == "INSTANCE"
        ):
            self.skip_path = True
        elif upper in _SKIP_NEXT:
            self.skip_next = True
        elif upper in _COMPONENT_CLAUSES:
            frame.mode = "components"
        elif upper in _CONDITION_CLAUSES:
            frame.mode = "condition"
            self.skip_next = upper == "KEY"
        elif upper in _PARAM_WORDS:
            frame.mode = "params"
        elif upper in _RESET:
            frame.mode = ""
        else:
            return False
        return True

    def _in_frame(self, i: int) -> bool:
        """What the enclosing parentheses make of a name: a formal parameter (``p = …``), a
        component (``WHERE comp = …``, ``VALUE #( comp = … )``) or a field."""
        tokens, frame = self.tokens, self.frames[-1]
        token = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        follows = nxt.upper if nxt is not None else ""
        path = nxt is not None and nxt.text == "-" and adjacent(token, nxt)
        if frame.mode == "components":
            return False
        if frame.component_names and path and _path_end(tokens, i) == "=":
            return False  # ``VALUE #( source-id = 1 )``: a component of the row
        if follows == "=" and (frame.component_names or frame.mode == "params"):
            if frame.call is not None:
                frame.call.formals.append(token)
            return False
        if frame.component_names and frame.mode == "" and follows in _COMPARISONS:
            return False
        return not (
            frame.mode == "condition" and (follows in _COMPARISONS or follows == "NOT" or path)
        )

    _pending: Call | None = None

    def _open(self, tokens: list[Token], i: int, outer: _Frame) -> _Frame:
        token = tokens[i]
        prev = tokens[i - 1] if i > 0 else None
        if token.text == "[":
            if prev is None or not adjacent(prev, token):
                return _Frame(None, component_names=True, mode="components")  # ##PRAGMA[ARG]
            return _Frame(None, component_names=True, mode="condition")
        is_call = (
            prev is not None
            and adjacent(prev, token)
            and (i + 1 >= len(tokens) or not adjacent(token, tokens[i + 1]))
        )
        if prev is not None and adjacent(prev, token) and not is_call:
            return _Frame(None, component_names=True, mode="components")  # x+1(2), e001(zz)
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
        if upper in FUNCTIONS or upper in CONSTRUCTORS:
            return
        if prev is not None and (prev.upper in CONSTRUCTORS or prev.upper in ("TYPE", "OF")):
            return
        if prev is not None and prev.kind == NUMBER:
            return
        self._pending = Call(token, "bare", upper)


__all__ = ["SKIP_HEADS", "WORDS", "Call", "Found", "Walker"]
