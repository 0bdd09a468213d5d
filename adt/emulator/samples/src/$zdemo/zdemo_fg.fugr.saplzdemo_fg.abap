*******************************************************************
*   System-defined Include-files.                                 *
*******************************************************************
  INCLUDE lzdemo_fgtop.                      " Global Declarations
  INCLUDE lzdemo_fguxx.                      " Function Modules

*******************************************************************
*   User-defined Include-files (if necessary).                    *
*******************************************************************
