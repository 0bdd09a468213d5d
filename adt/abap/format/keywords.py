"""The pretty printer's keyword sets, for case conversion.

ABAP reserves no words: ``data`` may name a variable and ``value`` a parameter. A real system
knows from its parser which token is a keyword; without one, :mod:`adt.abap.format.casing`
combines :data:`KEYWORDS` — the project's one table (:data:`adt.abap.keywords.ABAP_WORDS`)
less the words the printer leaves as written — with the position of a word, using the sets
below.
"""

from __future__ import annotations

from adt.abap.keywords import ABAP_WORDS, CASE_AS_WRITTEN


def words(text: str) -> frozenset[str]:
    """The blank-separated words of ``text``."""
    return frozenset(text.split())


KEYWORDS = ABAP_WORDS - CASE_AS_WRITTEN

#: Words that introduce a declaration or a definition: the word after them is a name.
DECLARING = words(
    """
    ALIASES CLASS CLASS-DATA CLASS-EVENTS CLASS-METHODS CONSTANTS DATA DEFINE EVENTS
    FIELD-SYMBOLS FORM FUNCTION INTERFACE INTERFACES METHOD METHODS MODULE NODES PARAMETERS
    PERFORM PROGRAM RANGES REPORT SELECT-OPTIONS STATICS TABLES TYPE-POOL TYPE-POOLS TYPES
    """
)

#: Words that take a name after them in place of a keyword, unless the name is one of these.
AFTER_TYPE = words("REF TABLE STANDARD SORTED HASHED ANY INDEX LINE RANGE")
AFTER_OF = words(
    """
    TABLE STRUCTURE ENUM COMMON MESH BLOCK LINE SCREEN TABBED REGEX PCRE SUBSTRING
    """
)

#: Keywords written as ``KEYWORD(name)`` without a blank: inline declarations, parameters.
GLUED = words("DATA FINAL FIELD-SYMBOL VALUE REFERENCE")

#: Assignment operators: a word right before one is what is assigned to, a name.
ASSIGNMENTS = words("= ?= += -= *= /= &&=")
