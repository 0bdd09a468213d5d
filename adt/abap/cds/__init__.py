"""Language knowledge of the source-based modern kinds, without any I/O.

CDS data definitions (DDLS), metadata extensions (DDLX), access controls (DCLS), behavior
definitions (BDEF), service definitions (SRVD) and the ``define table`` / ``define
structure`` source form of dictionary tables (TABL) share one tolerant lexer
(:mod:`.tokens`) and parse into one model (:mod:`.model`). On top of it: an outline, a
catalog of entities with their elements, a syntax check with name resolution, completion,
navigation, where-used and the activation order. Callers give texts and get answers; the
emulator and the language server decide where the texts come from.
"""
