"""Compare two XML documents by structure: names, namespaces, attributes, values.

Used by the golden tests to hold emulator answers against captured SAP bodies.
Session-specific values (timestamps, etags, handles) are excluded by local name.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree


def _local(name: str | bytes) -> str:
    text = name.decode() if isinstance(name, bytes) else name
    return text.rsplit("}", 1)[-1]


def structure_diff(
    expected: bytes | str,
    actual: bytes | str,
    *,
    ignore_values: Iterable[str] = (),
    ignore_text: Iterable[str] = (),
    optional_attributes: Iterable[str] = (),
) -> list[str]:
    """Differences between two documents (empty list: same structure).

    ``ignore_values``: attribute local names whose values may differ.
    ``ignore_text``: element local names whose text may differ.
    ``optional_attributes``: attribute local names the actual document may lack.
    """

    def parse(doc: bytes | str) -> etree._Element:
        data = doc.encode("utf-8") if isinstance(doc, str) else doc
        return etree.fromstring(data)

    diffs: list[str] = []
    values = set(ignore_values)
    texts = set(ignore_text)
    optional = set(optional_attributes)

    def walk(exp: etree._Element, act: etree._Element, where: str) -> None:
        here = f"{where}/{_local(str(exp.tag))}"
        if exp.tag != act.tag:
            diffs.append(f"{here}: element {act.tag} instead of {exp.tag}")
            return
        exp_attrs = {k: v for k, v in exp.attrib.items() if _local(k) not in optional}
        act_attrs = {k: v for k, v in act.attrib.items() if _local(k) not in optional}
        if set(exp_attrs) != set(act_attrs):
            diffs.append(
                f"{here}: attributes differ, missing {sorted(set(exp_attrs) - set(act_attrs))}, "
                f"extra {sorted(set(act_attrs) - set(exp_attrs))}"
            )
        for key, value in exp_attrs.items():
            if _local(key) in values or key not in act_attrs:
                continue
            if act_attrs[key] != value:
                diffs.append(f"{here}/@{_local(key)}: {act_attrs[key]!r} != {value!r}")
        if _local(str(exp.tag)) not in texts and (exp.text or "") != (act.text or ""):
            diffs.append(f"{here}: text {act.text!r} != {exp.text!r}")
        exp_children, act_children = list(exp), list(act)
        if len(exp_children) != len(act_children):
            diffs.append(
                f"{here}: {len(act_children)} children instead of {len(exp_children)}: "
                f"{[_local(str(c.tag)) for c in act_children]} vs "
                f"{[_local(str(c.tag)) for c in exp_children]}"
            )
        for index, (e_child, a_child) in enumerate(zip(exp_children, act_children, strict=False)):
            walk(e_child, a_child, f"{here}[{index}]")

    walk(parse(expected), parse(actual), "")
    return diffs


def namespace_declarations(doc: str) -> list[str]:
    """The ``xmlns:*`` declarations in document order (SAP's layout is part of fidelity)."""
    import re

    return re.findall(r'xmlns:\w+="[^"]*"', doc)
