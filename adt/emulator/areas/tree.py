"""What one ``repository/nodestructure`` request lists (not an area: no routes).

A parent (a package, a function group, a program) has **folders**, one per type of child,
each with a node id; the children of a folder carry the id plus one in their type info.
A request takes one of three forms (docs/protocol/discovery-and-packages.md §4):

* **no body** (abap-adt-api, A4H capture 852): everything at once — the folder nodes
  first, then every child grouped by folder type, with folder and child type infos;
* **root** (``TV_NODEKEY`` ``000000``, fr0ster, sapcli): no children except sub-packages,
  but every type with its label and node id (the TRL and sapcli answers);
* **node ids** (``node_id=N`` or ``TV_NODEKEY`` values): the children of those folders.

Nothing to list is answered by the caller with SAP's zero-byte 200.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from urllib.parse import quote

from lxml import etree

from ..documents.tree import TreeNode, TypeInfo, tree_document
from ..model import ADT, FINC, FUNC, INCL, INTF, PROG, Package, RepoObject, encode_name, package_uri
from ..state import SystemState

SOURCE_LIBRARY = "source_library"
SUBPACKAGES_NODE = 2
FUNCTION_MODULES_NODE = 2
GROUP_INCLUDES_NODE = 64


@dataclass(frozen=True)
class Folder:
    """The children of one type under a parent, and how the tree names that group."""

    folder_type: str
    item_type: str
    label: str
    category: str
    node_id: int
    items: tuple[TreeNode, ...]
    folder_category: str = ""
    listed_at_root: bool = False


@dataclass(frozen=True)
class TreeRequest:
    """``node_ids`` is ``None`` for the body-less form; ``()`` for the root."""

    parent_type: str
    parent_name: str
    node_ids: tuple[int, ...] | None


def _ids(texts: Sequence[str]) -> tuple[int, ...]:
    return tuple(int(t) for t in (text.strip() for text in texts) if t.isdigit())


def read_request(
    parent_type: str, parent_name: str, node_id: str | None, body: bytes
) -> TreeRequest:
    """The form of a request: ``node_id`` wins over the body; no body is the flat form."""
    ids: tuple[int, ...] | None
    if node_id is not None:
        ids = _ids([node_id])
    elif body.strip():
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        try:
            root = etree.fromstring(body, parser)
        except etree.XMLSyntaxError:
            root = None
        keys = [] if root is None else [k.text or "" for k in root.iter("TV_NODEKEY")]
        ids = _ids(keys)
    else:
        ids = None
    return TreeRequest(parent_type.upper(), parent_name.upper(), ids)


# --- answers ----------------------------------------------------------------------------------


def _flat(folders: Sequence[Folder], tech_name: str) -> str:
    heads = [
        TreeNode(f.folder_type, tech_name=tech_name, node_id=f.node_id)
        for f in sorted(folders, key=lambda f: f.node_id)
    ]
    items = [node for f in sorted(folders, key=lambda f: f.folder_type) for node in f.items]
    types = [TypeInfo(f.folder_type, f.folder_category, f.label, f.node_id) for f in folders]
    types += [
        TypeInfo(f.item_type, f.category, "", f.node_id + 1)
        for f in folders
        if f.item_type != f.folder_type
    ]
    categories = [t.category for t in types if t.category]
    return tree_document(heads + items, categories, types)


def _root(folders: Sequence[Folder]) -> str:
    nodes = [node for f in folders if f.listed_at_root for node in f.items]
    types = [TypeInfo(f.item_type, f.category, f.label, f.node_id) for f in folders]
    return tree_document(nodes, [f.category for f in folders], types)


def _expanded(folders: Sequence[Folder], ids: Sequence[int]) -> str | None:
    by_id = {f.node_id: f for f in folders}
    chosen = [by_id[i] for i in dict.fromkeys(ids) if i in by_id]
    if not chosen:
        return None
    nodes = [node for f in chosen for node in f.items]
    types = [TypeInfo(f.item_type, f.category, "", f.node_id + 1) for f in chosen]
    return tree_document(nodes, [f.category for f in chosen], types)


def answer(state: SystemState, request: TreeRequest) -> str | None:
    """The document for ``request``, or ``None`` when there is nothing to list."""
    found = _folders(state, request.parent_type, request.parent_name)
    if found is None:
        return None
    folders, tech_name = found
    folders = [f for f in folders if f.items]
    if not folders:
        return None
    if request.node_ids is None:
        return _flat(_without_package_texts(folders), tech_name)
    wanted = [i for i in request.node_ids if i != 0]
    if wanted:
        return _expanded(folders, wanted)
    return _root(folders)


# --- parents ----------------------------------------------------------------------------------


def _folders(state: SystemState, parent_type: str, name: str) -> tuple[list[Folder], str] | None:
    if parent_type == "DEVC/K":
        return _package_folders(state, name), name
    if parent_type == "FUGR/F":
        return _group_folders(state, name), f"SAPL{name}"
    if parent_type == "PROG/P":
        return _program_folders(state, name), name
    return None


def _vit(object_type: str, name: str) -> str:
    return f"{ADT}/vit/wb/object_type/{object_type.replace('/', '').lower()}/object_name/{name}"


def _object_node(obj: RepoObject) -> TreeNode:
    code = obj.kind.code
    return TreeNode(
        object_type=code,
        name=obj.name,
        tech_name=f"SAPL{obj.name}" if code == "FUGR/F" else obj.name,
        uri=obj.uri,
        vit_uri=_vit(code, obj.name),
        expandable=obj.kind is not INTF,  # A4H 852: interfaces do not expand
        description=obj.description,
        description_type=code.split("/", 1)[1],
    )


def sub_package_node(package: Package) -> TreeNode:
    """A ``DEVC/K`` child (sapcli's recorded root answer; the body-less form has no text)."""
    return TreeNode(
        object_type="DEVC/K",
        name=package.name,
        tech_name=package.name,
        uri=package_uri(package.name),
        vit_uri=_vit("DEVC/K", quote(package.name, safe="/")),
        description=package.description,
    )


def sub_packages(state: SystemState, name: str) -> list[Package]:
    with state.lock:
        children = [p for p in state.packages.values() if p.parent == name]
    return sorted(children, key=lambda p: p.name)


def _package_folders(state: SystemState, name: str) -> list[Folder]:
    children = tuple(sub_package_node(p) for p in sub_packages(state, name))
    folders = [
        Folder("DEVC/K", "DEVC/K", "Subpackages", "packages", SUBPACKAGES_NODE, children, "", True)
    ]
    for kind, objects in state.package_objects(name).items():
        assert kind.tree_node_id is not None
        folders.append(
            Folder(
                folder_type="DEVC/" + kind.code.split("/", 1)[1],
                item_type=kind.code,
                label=kind.tree_label,
                category=kind.tree_category,
                node_id=kind.tree_node_id,
                items=tuple(_object_node(o) for o in objects),
            )
        )
    return folders


def _without_package_texts(folders: Sequence[Folder]) -> list[Folder]:
    """Sub-packages carry no short text in the body-less answer (a recorded S/4 answer)."""
    return [
        replace(f, items=tuple(replace(n, description="") for n in f.items))
        if f.folder_type == "DEVC/K"
        else f
        for f in folders
    ]


def _member_vit(object_type: str, group: str, name: str) -> str:
    """Group members are addressed as the main program padded to 40, then the name."""
    return _vit(object_type, quote(f"SAPL{group}".ljust(40) + name, safe="/"))


def _member_node(obj: RepoObject) -> TreeNode:
    code = obj.kind.code
    return TreeNode(
        object_type=code,
        name=obj.name,
        tech_name=obj.name,
        uri=obj.uri,
        vit_uri=_member_vit(code, obj.group or "", obj.name),
        expandable=False,
        description=obj.description,
        description_type=code.split("/", 1)[1],
    )


def _group_folders(state: SystemState, name: str) -> list[Folder]:
    with state.lock:
        members = sorted(
            (o for o in state.objects.values() if o.group == name and o.kind in (FUNC, FINC)),
            key=lambda o: o.name,
        )
    modules = tuple(_member_node(o) for o in members if o.kind is FUNC)
    includes = tuple(_member_node(o) for o in members if o.kind is FINC)
    return [
        _typed_folder("FUGR/FF", "Function Modules", FUNCTION_MODULES_NODE, modules),
        _typed_folder("FUGR/I", "Includes", GROUP_INCLUDES_NODE, includes),
    ]


def _typed_folder(
    object_type: str, label: str, node_id: int, items: tuple[TreeNode, ...]
) -> Folder:
    """A folder below an object: named after its children's own type (no ``DEVC/`` type)."""
    return Folder(object_type, object_type, label, SOURCE_LIBRARY, node_id, items, SOURCE_LIBRARY)


_INCLUDE = re.compile(r"^\s*INCLUDE\s+([^\s.]+)\s*\.", re.IGNORECASE | re.MULTILINE)


def _program_folders(state: SystemState, name: str) -> list[Folder]:
    program = state.find(f"{PROG.collection}/{encode_name(name)}")
    if program is None or "main" not in program.parts:
        return []
    picked = program.parts["main"].pick(None)
    text = picked[0].text if picked else ""
    includes: list[TreeNode] = []
    for match in _INCLUDE.finditer(text):
        include = state.find(f"{INCL.collection}/{encode_name(match.group(1))}")
        if include is not None and include.kind is INCL:
            includes.append(replace(_object_node(include), expandable=False))
    assert INCL.tree_node_id is not None
    return [_typed_folder("PROG/I", "Includes", INCL.tree_node_id, tuple(includes))]
