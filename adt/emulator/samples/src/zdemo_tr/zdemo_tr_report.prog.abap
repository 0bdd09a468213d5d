REPORT zdemo_tr_report.

* A report in a transportable package: locking it names a transport request.
START-OF-SELECTION.
  WRITE: / 'Transportable demo report'.
