"""Service bindings (``SRVB/SVB``): ``srvb:serviceBinding`` with the services it binds (each
a service definition in a version) and the binding type (OData V2/V4, UI or Web API); read,
written whole, published and unpublished (``publishjobs``/``unpublishjobs``, see
``areas``). abapGit ``<name>.srvb.xml`` (``SRVB``: ``METADATA``, ``CONTENT``,
``PUBLISHED``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from ..documents.common import NS_ADTCORE
from ..model import ADT, Kind, RepoObject, encode_name
from ..xmlwriter import DECL, esc_attr, tag
from .base import NewSpec, SeedFolder, xml_text
from .metadata_kind import MetadataKind, inline, text_of
from .source_kind import core_attributes, package_reference

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState

NS_SRVB = "http://www.sap.com/adt/ddic/ServiceBindings"

SRVB = Kind(
    code="SRVB/SVB",
    r3tr="SRVB",
    collection=f"{ADT}/businessservices/bindings",
    root="srvb:serviceBinding",
    namespace=NS_SRVB,
    media_types=(
        "application/vnd.sap.adt.businessservices.servicebinding.v2+xml",
        "application/vnd.sap.adt.businessservices.servicebinding.v1+xml",
    ),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Service Binding",
    resource_word="SERVICE BINDING",
    lock_word="SERVICE BINDING",
    tree_node_id=142,
    tree_category="business_services",
    tree_label="Service Bindings",
    vit="srvbsvb",
    language="xml",
    source_based=False,
    verbatim=True,
)

#: The fact that says whether a binding is published (kept on the object, not versioned).
PUBLISHED = "published"


#: Facts of a binding kept from its abapGit file (ADT document attributes).
CONTRACT, RELEASE_SUPPORTED = "contract", "releaseSupported"


def binding_content(
    services: list[tuple[str, str, str]],
    binding_type: str,
    version: str,
    category: str,
    implementation: str = "",
) -> str:
    """``services`` holds ``(service name, version, service definition)``; the shape of a
    real binding document (ARC-1's fixture ``tests/fixtures/xml/service-binding.xml``)."""
    rows = "".join(
        f'<srvb:services xmlns:srvb="{NS_SRVB}" srvb:name="{esc_attr(name)}">'
        f'<srvb:content srvb:version="{esc_attr(number)}" srvb:minorVersion="0" '
        'srvb:patchVersion="0" srvb:buildVersion="" srvb:releaseState="NOT_RELEASED">'
        f'<srvb:serviceDefinition xmlns:adtcore="{NS_ADTCORE}" '
        f'adtcore:uri="{ADT}/ddic/srvd/sources/{encode_name(definition)}" '
        f'adtcore:type="SRVD/SRV" adtcore:name="{esc_attr(definition)}"/>'
        f'<srvb:bindingTypeData><adtcore:content xmlns:adtcore="{NS_ADTCORE}" '
        'adtcore:encoding="base64"/></srvb:bindingTypeData>'
        "</srvb:content></srvb:services>"
        for name, number, definition in services
    )
    implemented = (
        f'<srvb:implementation xmlns:adtcore="{NS_ADTCORE}" '
        f'adtcore:name="{esc_attr(implementation)}"/>'
    )
    return rows + (
        f'<srvb:binding xmlns:srvb="{NS_SRVB}" srvb:type="{esc_attr(binding_type)}" '
        f'srvb:version="{esc_attr(version)}" srvb:category="{esc_attr(category)}">'
        f"{implemented}</srvb:binding>"
    )


class ServiceBindingKind(MetadataKind):
    kinds = (SRVB,)
    main_files = ("srvb.xml",)
    validation_paths = ("businessservices/bindings/validation",)

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        found = super().seed(folder, stem, suffix)
        path = folder.folder / f"{stem}.{suffix}"
        published = xml_flag(folder, stem, suffix)
        contract = (xml_text(path, "//CONTRACT") or "").strip()
        supported = (xml_text(path, "//RELEASE_SUPPORTED") or "").strip().lower()
        for obj in found:
            obj.facts[PUBLISHED] = published
            obj.facts[CONTRACT] = contract
            obj.facts[RELEASE_SUPPORTED] = "true" if supported == "true" else "false"
        return found

    def from_abapgit(self, tree: etree._ElementTree) -> tuple[str, str]:
        services = [
            (
                item.findtext("SERVICE_NAME") or "",
                content.findtext("SERVICE_VERSION") or "0001",
                content.findtext("SRVD_REF/NAME") or "",
            )
            for item in tree.iterfind(".//CONTENT/SERVICES/item")
            for content in item.iterfind("SERVICE_CONTENT/item")
        ]
        binding = text_of(tree, ".//CONTENT/BIND_TYPE") or "ODATA"
        version = text_of(tree, ".//CONTENT/BIND_TYPE_VERSION") or "V2"
        category = text_of(tree, ".//CONTENT/BIND_TYPE_CATEGORY") or "0"
        description = text_of(tree, ".//METADATA/DESCRIPTION")
        implementation = text_of(tree, ".//CONTENT/BIND_TYPE_IMPL/NAME") or text_of(
            tree, ".//METADATA/NAME"
        )
        content = binding_content(services, binding, version, category, implementation)
        return description, content

    def document(self, view: ObjectView, state: SystemState) -> str:
        obj = view.obj
        core = core_attributes(view, created_at=True)
        attrs: list[tuple[str, str | None]] = [
            ("srvb:contract", obj.facts.get(CONTRACT) or None),
            ("srvb:releaseSupported", obj.facts.get(RELEASE_SUPPORTED, "false")),
            ("srvb:published", obj.facts.get(PUBLISHED, "false")),
            ("srvb:bindingCreated", "true"),
            *core[:3],
            ("adtcore:abapLanguageVersion", "standard"),
            *core[3:],
            ("xmlns:srvb", NS_SRVB),
            ("xmlns:adtcore", NS_ADTCORE),
        ]
        content = inline(view.main_text, ("srvb", NS_SRVB), ("adtcore", NS_ADTCORE))
        body = package_reference(obj, state, package_name=False) + content
        return DECL + tag(SRVB.root, attrs, body)

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        definition = spec.extra.get("serviceDefinition", "")
        services = [(obj.name, "0001", definition)] if definition else []
        return binding_content(
            services,
            spec.extra.get("bindingType", "ODATA"),
            spec.extra.get("bindingVersion", "V2"),
            spec.extra.get("category", "0"),
            obj.name,
        )

    def extra_create_fields(self, root: etree._Element) -> dict[str, str]:
        extra: dict[str, str] = {}
        definition = root.find(f".//{{{NS_SRVB}}}serviceDefinition")
        if definition is not None:
            extra["serviceDefinition"] = (definition.get(f"{{{NS_ADTCORE}}}name") or "").upper()
        binding = root.find(f"{{{NS_SRVB}}}binding")
        if binding is not None:
            extra["bindingType"] = binding.get(f"{{{NS_SRVB}}}type") or "ODATA"
            extra["bindingVersion"] = binding.get(f"{{{NS_SRVB}}}version") or "V2"
            extra["category"] = binding.get(f"{{{NS_SRVB}}}category") or "0"
        return extra


def xml_flag(folder: SeedFolder, stem: str, suffix: str) -> str:
    value = xml_text(folder.folder / f"{stem}.{suffix}", "//PUBLISHED") or ""
    return "true" if value.strip().lower() == "true" else "false"


MODULE = ServiceBindingKind()
