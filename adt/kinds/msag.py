"""Message classes (``MSAG/N``), a metadata document."""

from __future__ import annotations

from .base import ObjectKind

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

KINDS = (MSAG,)
