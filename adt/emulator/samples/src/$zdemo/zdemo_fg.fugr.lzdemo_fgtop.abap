FUNCTION-POOL zdemo_fg.                     " MESSAGE-ID ..

* Global data of the demo function group.
DATA gv_calls TYPE i.
