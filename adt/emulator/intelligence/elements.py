"""How SAP names and describes a symbol: its workbench type (``CLAS/OM``, ``INTF/IO``,
``CLAS/OOV`` …), the element-info document, the completion record, the display name of
a where-used search and the call pattern the insertion endpoint returns.

Types and property keys recorded on A4H (``INTF/IO``, ``INTF/IOP``, ``CLAS/OA``,
``CLAS/OT``, ``CLAS/OOV``, ``FUGR/FF``) are used as recorded; the others follow the same
scheme (see docs/emulator.md).
"""

from __future__ import annotations

import re

from adt.abap.completion import KEYWORD, Proposal
from adt.abap.lookup import alias_target, callable_of
from adt.abap.symbols import DATA_KINDS, ScopeKind, Symbol, SymbolKind

from ..documents.intelligence import CompletionRecord, ElementInfo

_SHORTTEXT = re.compile(r'<p\s+class="shorttext[^"]*"[^>]*>(.*?)</p>', re.IGNORECASE)
_CALLABLE = frozenset({SymbolKind.METHOD, SymbolKind.ALIAS, SymbolKind.EVENT})
_CALL_SECTIONS = (
    ("importing", "EXPORTING"),
    ("exporting", "IMPORTING"),
    ("changing", "CHANGING"),
    ("tables", "TABLES"),
    ("returning", "RECEIVING"),
)
_KIND_TEXT = {
    SymbolKind.CLASS: "Class",
    SymbolKind.INTERFACE: "Interface",
    SymbolKind.METHOD: "Method",
    SymbolKind.ALIAS: "Alias",
    SymbolKind.EVENT: "Event",
    SymbolKind.ATTRIBUTE: "Attribute",
    SymbolKind.CONSTANT: "Constant",
    SymbolKind.TYPE: "Type",
    SymbolKind.COMPONENT: "Component",
    SymbolKind.PARAMETER: "Parameter",
    SymbolKind.VARIABLE: "Variable",
    SymbolKind.FIELD_SYMBOL: "Field Symbol",
    SymbolKind.FORM: "Subroutine",
    SymbolKind.FUNCTION: "Function Module",
    SymbolKind.INCLUDE: "Include",
    SymbolKind.PROGRAM: "Program",
    SymbolKind.MACRO: "Macro",
}


def _container(symbol: Symbol) -> SymbolKind | None:
    """The kind of the class/interface/method/form/function that declares ``symbol``."""
    owner = symbol.owner
    return owner.kind if owner is not None else None


def _body_kind(symbol: Symbol) -> ScopeKind | None:
    return symbol.scope.kind if symbol.scope is not None else None


def wb_type(symbol: Symbol) -> str | None:
    """The workbench type SAP gives the element."""
    kind = symbol.kind
    container = _container(symbol)
    in_interface = container is SymbolKind.INTERFACE
    fixed = {
        SymbolKind.INTERFACE: "INTF/OI",
        SymbolKind.FORM: "PROG/PU",
        SymbolKind.FUNCTION: "FUGR/FF",
        SymbolKind.INCLUDE: "PROG/I",
        SymbolKind.PROGRAM: "PROG/P",
        SymbolKind.MACRO: "PROG/PM",
        SymbolKind.COMPONENT: None,
    }
    if kind in fixed:
        return fixed[kind]
    if kind is SymbolKind.CLASS:
        return "CLAS/OC" if symbol.is_global else "CLAS/OCL"
    if kind in (SymbolKind.METHOD, SymbolKind.ALIAS):
        return "INTF/IO" if in_interface else "CLAS/OM"
    if kind is SymbolKind.EVENT:
        return "INTF/IE" if in_interface else "CLAS/OE"
    if kind is SymbolKind.PARAMETER:
        return _parameter_type(symbol)
    if container in (SymbolKind.CLASS, SymbolKind.INTERFACE) and _body_kind(symbol) in (
        ScopeKind.CLASS,
        ScopeKind.INTERFACE,
    ):
        letter = "T" if kind is SymbolKind.TYPE else "A"
        return f"INTF/I{letter}" if in_interface else f"CLAS/O{letter}"
    return _local_type(symbol)


def _parameter_type(symbol: Symbol) -> str:
    owner = symbol.owner
    if owner is not None and owner.kind is SymbolKind.FUNCTION:
        return "FUGR/FFP"
    if owner is not None and owner.kind is SymbolKind.FORM:
        return "PROG/PUP"
    container = _container(owner) if owner is not None else None
    return "INTF/IOP" if container is SymbolKind.INTERFACE else "CLAS/OOP"


def _local_type(symbol: Symbol) -> str:
    body = _body_kind(symbol)
    if symbol.kind is SymbolKind.TYPE:
        return "CLAS/OT" if body is ScopeKind.METHOD else "PROG/PY"
    if body is ScopeKind.METHOD:
        return "CLAS/OOV"
    if body is ScopeKind.FORM:
        return "PROG/PUV"
    if body is ScopeKind.FUNCTION:
        return "FUGR/FFV"
    program = symbol.scope.name if symbol.scope is not None else ""
    return "FUGR/PD" if program.startswith("SAPL") else "PROG/PD"


# element info ---------------------------------------------------------------------------


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _documentation(symbol: Symbol, description: str = "") -> tuple[tuple[str, str, str], ...]:
    docs: list[tuple[str, str, str]] = []
    short = _SHORTTEXT.search(symbol.doc)
    text = (short.group(1).strip() if short else "") or description
    if text:
        docs.append(("shorttext", "text/plain", text))
    if symbol.doc:
        docs.append(("abapdoc", "text/html", symbol.doc))
    return tuple(docs)


def _parameter_info(param: Symbol) -> ElementInfo:
    properties = [
        ("paramType", param.param_kind),
        ("optional", _bool(param.optional)),
        ("byValue", _bool(param.by_value)),
        ("preferred", "false"),
        ("abapType", param.typing),
    ]
    if param.default:
        properties.append(("paramDefaultValue", param.default))
    return ElementInfo(wb_type(param), param.name, tuple(properties), _documentation(param))


def _properties(symbol: Symbol) -> list[tuple[str, str]]:
    level = "static" if symbol.static or symbol.kind is SymbolKind.CONSTANT else "instance"
    kind = symbol.kind
    if kind in _CALLABLE:
        return [("level", level), ("visibility", symbol.visibility or "public")]
    if kind is SymbolKind.PARAMETER:
        return list(_parameter_info(symbol).properties)
    if kind is SymbolKind.TYPE:
        value = "reference" if symbol.ref_to else "value"
        return [
            ("visibility", symbol.visibility or "public"),
            ("kind", value),
            ("abapType", symbol.typing),
        ]
    if kind in DATA_KINDS:
        if wb_type(symbol) in ("CLAS/OA", "INTF/IA"):
            return [
                ("visibility", symbol.visibility),
                ("level", level),
                ("abapType", symbol.typing),
            ]
        return [("visibility", "local"), ("abapType", symbol.typing)]
    return []


def _children(symbol: Symbol) -> tuple[ElementInfo, ...]:
    target = callable_of(symbol)
    if target is not None:
        return tuple(_parameter_info(p) for p in target.params)
    if symbol.members is not None and symbol.members.kind is ScopeKind.STRUCTURE:
        return tuple(
            ElementInfo(None, c.name, (("abapType", c.typing),))
            for c in symbol.members.symbols.values()
        )
    return ()


def element_info(symbol: Symbol, description: str = "") -> ElementInfo:
    """The element-info document of ``symbol`` (``description``: the object's short text,
    for global classes, interfaces and function modules)."""
    shown = symbol
    if symbol.kind is SymbolKind.ALIAS:
        shown = alias_target(symbol) or symbol
    return ElementInfo(
        wb_type(symbol),
        symbol.name,
        tuple(_properties(symbol)),
        _documentation(shown, description),
        _children(symbol),
    )


# completion -----------------------------------------------------------------------------


def completion_record(proposal: Proposal, prefix_length: int) -> CompletionRecord:
    symbol = proposal.symbol
    if symbol is None:
        return CompletionRecord(
            proposal.identifier, {"KIND": 52, "PREFIXLENGTH": prefix_length, "LOCATION": 0}
        )
    kind = symbol.kind
    method = callable_of(symbol)
    values = {
        "KIND": 3 if method is not None or kind in (SymbolKind.FORM, SymbolKind.FUNCTION) else 2,
        "QUICKINFO_EVENT": 1,
        "INSERT_EVENT": 1 if method is not None and method.params else 0,
        "PREFIXLENGTH": prefix_length,
        "ROLE": _role(symbol),
        "LOCATION": proposal.location if proposal.location != KEYWORD else 0,
    }
    if kind is SymbolKind.PARAMETER:
        values["KIND"] = 1
    return CompletionRecord(proposal.identifier, values)


def _role(symbol: Symbol) -> int:
    if symbol.kind is SymbolKind.INTERFACE:
        return 58
    if symbol.kind is SymbolKind.CLASS:
        return 57
    if callable_of(symbol) is not None:
        return 62
    if symbol.kind is SymbolKind.TYPE:
        return 81
    return 21


def call_pattern(symbol: Symbol) -> str | None:
    """``name(`` + parameter sections + ``).`` for a method with parameters (optional
    ones commented out), CRLF line ends; ``None`` for anything else."""
    method = callable_of(symbol)
    if method is None or not method.params or symbol.kind not in _CALLABLE:
        return None
    lines = [f"{symbol.spelled.lower()}("]
    for kind, keyword in _CALL_SECTIONS:
        params = [p for p in method.params if p.param_kind == kind]
        if params:
            lines.append(f"  {keyword}")
            for param in params:
                mark = "*" if param.optional else " "
                lines.append(f"{mark}   {param.spelled.lower()} =")
    lines.append("  ).")
    return "\r\n".join(lines)


# where-used -----------------------------------------------------------------------------


def display_name(symbol: Symbol) -> str:
    """``ZIF_X - RUN (Interface Method)``, ``ZCL_X (Class)``, ``LV_X (Variable)``."""
    text = _KIND_TEXT.get(symbol.kind, "Element")
    owner = symbol.owner
    if owner is not None and owner.kind is SymbolKind.INTERFACE and symbol.kind in _CALLABLE:
        text = f"Interface {text}"
    if owner is not None and owner.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE):
        return f"{owner.name} - {symbol.name} ({text})"
    return f"{symbol.name} ({text})"
