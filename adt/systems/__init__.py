"""Which systems we talk to, with which settings, and one connection pool over them.

The one place that reads configuration (editor options, ``systems.toml``, environment) and
turns it into typed settings; see docs/systems.md.
"""

from adt.systems import team as _team
from adt.systems.config import (
    ConfigFile,
    Settings,
    SystemsConfig,
    default_config_path,
    load_settings,
)
from adt.systems.pool import ClientFactory, Connections
from adt.systems.settings import (
    BridgeSettings,
    EditorSettings,
    LockMode,
    MergeOnSave,
    SourceSettings,
)
from adt.systems.team import token_digest

#: A team member and the team, over the systems of ``systems.toml``.
Member = _team.Member[SystemsConfig]
Team = _team.Team[SystemsConfig]

__all__ = [
    "BridgeSettings",
    "ClientFactory",
    "ConfigFile",
    "Connections",
    "EditorSettings",
    "LockMode",
    "Member",
    "MergeOnSave",
    "Settings",
    "SourceSettings",
    "SystemsConfig",
    "Team",
    "default_config_path",
    "load_settings",
    "token_digest",
]
