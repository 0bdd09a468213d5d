"""The dictionary kinds and the service binding: tables and structures (edited as their
``define table`` / ``define structure`` source), and the metadata kinds read and written as
one ADT XML document (table types, data elements, domains, message classes, bindings)."""

from __future__ import annotations

from .base import ObjectKind

BLUE = "http://www.sap.com/wbobj/blue"

TABL = ObjectKind(
    code="TABL/DT",
    face_name="table",
    collection="ddic/tables",
    label="Database Table",
    root="blueSource",
    namespace=BLUE,
    prefix="blue",
    validation="ddic/tables/validation",
    abapgit=("tabl.xml",),
    language="abap-ddic",
    media_type="application/vnd.sap.adt.tables.v2+xml",
    max_name_length=16,
)
STRU = ObjectKind(
    code="TABL/DS",
    face_name="structure",
    collection="ddic/structures",
    label="Structure",
    root="blueSource",
    namespace=BLUE,
    prefix="blue",
    validation="ddic/structures/validation",
    abapgit=(),
    language="abap-ddic",
    media_type="application/vnd.sap.adt.structures.v2+xml",
)
TTYP = ObjectKind(
    code="TTYP/DA",
    face_name="tableType",
    collection="ddic/tabletypes",
    label="Table Type",
    root="tableType",
    namespace="http://www.sap.com/dictionary/tabletype",
    prefix="ttyp",
    validation="ddic/tabletypes/validation",
    abapgit=("ttyp.xml",),
    language="xml",
    source_based=False,
)
DTEL = ObjectKind(
    code="DTEL/DE",
    face_name="dataElement",
    collection="ddic/dataelements",
    label="Data Element",
    root="wbobj",
    namespace="http://www.sap.com/wbobj/dictionary/dtel",
    prefix="blue",
    validation="ddic/dataelements/validation",
    abapgit=("dtel.xml",),
    language="xml",
    source_based=False,
    media_type="application/vnd.sap.adt.dataelements.v2+xml",
)
DOMA = ObjectKind(
    code="DOMA/DD",
    face_name="domain",
    collection="ddic/domains",
    label="Domain",
    root="domain",
    namespace="http://www.sap.com/dictionary/domain",
    prefix="doma",
    validation="ddic/domains/validation",
    abapgit=("doma.xml",),
    language="xml",
    source_based=False,
    media_type="application/vnd.sap.adt.domains.v2+xml",
)
MSAG = ObjectKind(
    code="MSAG/N",
    face_name="messageClass",
    collection="messageclass",
    label="Message Class",
    root="messageClass",
    namespace="http://www.sap.com/adt/MessageClass",
    prefix="mc",
    validation="messageclass/validation",
    abapgit=("msag.xml",),
    language="xml",
    source_based=False,
    media_type="application/vnd.sap.adt.mc.messageclass+xml",
    max_name_length=20,
)
SRVB = ObjectKind(
    code="SRVB/SVB",
    face_name="serviceBinding",
    collection="businessservices/bindings",
    label="Service Binding",
    root="serviceBinding",
    namespace="http://www.sap.com/adt/ddic/ServiceBindings",
    prefix="srvb",
    validation="businessservices/bindings/validation",
    abapgit=("srvb.xml",),
    language="xml",
    source_based=False,
    media_type="application/vnd.sap.adt.businessservices.servicebinding.v2+xml",
    max_name_length=26,
)

KINDS = (TABL, STRU, TTYP, DTEL, DOMA, MSAG, SRVB)
