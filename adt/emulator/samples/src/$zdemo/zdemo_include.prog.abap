*&---------------------------------------------------------------------*
*& Include zdemo_include
*&---------------------------------------------------------------------*
*& Output helpers for ZDEMO_REPORT.
*&---------------------------------------------------------------------*
FORM write_footer USING iv_sum TYPE i.
  IF iv_sum > 40.
    WRITE: / 'The answer is near.'.
  ELSE.
    WRITE: / 'Keep counting.'.
  ENDIF.
  ULINE.
ENDFORM.
