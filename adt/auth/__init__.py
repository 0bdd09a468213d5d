"""Logging on to a system: one :class:`~adt.auth.base.Authenticator` per logon method of
:mod:`adt.logon`, chosen by the profile's ``logon`` (basic stays the default) and built by
:func:`adt.auth.registry.authenticator_for`. See docs/systems.md."""
