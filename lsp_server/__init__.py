"""A language server presenting ABAP objects on SAP systems as ``adt://`` documents.

Incremental edits are kept line by line and saved as token-checked line patches through the
V2 source operations (:mod:`adt.source`), so a save never overwrites somebody else's change.
"""
