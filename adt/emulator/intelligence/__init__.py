"""The emulator's code intelligence: programs and indexes over the stored sources
(:mod:`.repository`), where-used (:mod:`.whereused`), element descriptions
(:mod:`.elements`), and the request handlers (:mod:`.handlers`) that
:mod:`adt.emulator.areas.intelligence` routes to."""
