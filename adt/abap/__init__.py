"""ABAP language knowledge without any I/O: the statement scanner shared by the emulator's
checker and the language server's outline, and the symbol index (lexer, declarations,
scope rules, occurrences, completion) behind the emulator's code intelligence."""
