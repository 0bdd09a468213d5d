FUNCTION-POOL zdemo_qa_fg.                  " MESSAGE-ID ..

* Global data of the demo function group with unit tests.
CONSTANTS gc_factor TYPE i VALUE 2.
