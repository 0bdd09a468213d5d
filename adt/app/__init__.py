"""The composition root: the ``abap-adt`` command and the demo. The one place that imports the
faces (language server, MCP bridge) and the emulator together."""
