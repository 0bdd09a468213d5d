"""Namespaces, relations and media types shared by the response documents."""

from __future__ import annotations

NS_ADTCORE = "http://www.sap.com/adt/core"
NS_ABAPSOURCE = "http://www.sap.com/adt/abapsource"
NS_ABAPOO = "http://www.sap.com/adt/oo"
REL = "http://www.sap.com/adt/relations/"
ENH_OPTIONS = "application/vnd.sap.adt.enhancementoptions.v2+xml"
ENH_IMPLS = "application/vnd.sap.adt.enhancementimplementations.v1+xml"
OBJSTRUCT = "application/vnd.sap.adt.objectstructure.v2+xml"

LOCK_RESULT = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.lock.Result"
LOCK_RESULT2 = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.lock.Result2"
CHECK_MESSAGES = "application/vnd.sap.adt.checkmessages+xml"
TREE_CONTENT = (
    "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.RepositoryObjectTreeContent"
)
