"""ADT areas beyond reading and writing sources, one module each (navigation, completion,
formatting, transports, object lifecycle, history, ABAP Unit, ATC, discovery).

Each area module holds its request builders, its lxml parsers and its typed results; an
:class:`~adt.client.AdtClient` exposes each area as an attribute (``client.transports``, …).
Like the rest of the wire layer, nothing here imports anything above it.
"""
