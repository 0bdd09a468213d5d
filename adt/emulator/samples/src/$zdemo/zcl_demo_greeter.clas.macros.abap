*"* use this source file for any macro definitions you need
*"* in the implementation part of the class

DEFINE _demo_append_line.
  APPEND &1 TO &2.
END-OF-DEFINITION.
