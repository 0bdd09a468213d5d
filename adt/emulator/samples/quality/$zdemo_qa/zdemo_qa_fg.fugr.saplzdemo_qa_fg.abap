*******************************************************************
*   System-defined Include-files.                                 *
*******************************************************************
  INCLUDE lzdemo_qa_fgtop.                   " Global Declarations
  INCLUDE lzdemo_qa_fguxx.                   " Function Modules

*******************************************************************
*   User-defined Include-files (if necessary).                    *
*******************************************************************
  INCLUDE lzdemo_qa_fgt99.                   " Unit tests
