"""Rewriting ABAP text faithfully: a position-keeping lexer, keyword case, block levels, the
pretty printer, and the quick fixes built on them."""
