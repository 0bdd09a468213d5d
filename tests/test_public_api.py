"""The curated public names of each package (as httpx guards its own): a name that disappears
or appears here is an API change, made on purpose or caught."""

from __future__ import annotations

import importlib

import pytest

PUBLIC = {
    "adt": {
        "ActivationResult",
        "AdtClient",
        "AdtError",
        "AdtServerError",
        "AdtTransportError",
        "AuthenticationError",
        "CheckResult",
        "ClassInclude",
        "ConnectionProfile",
        "InvalidLockHandleError",
        "InvalidObjectUrlError",
        "LineTooLongError",
        "LockConflictError",
        "LockResult",
        "Message",
        "NotFoundError",
        "ObjectMetadata",
        "ObjectRef",
        "Secret",
        "SessionDeadError",
        "SourceText",
        "Timestamp",
    },
    "adt.source": {
        "ActivationOutcome",
        "CacheKey",
        "CheckOutcome",
        "EMPTY_TOKEN",
        "Finding",
        "GrepOutcome",
        "IncludeInfo",
        "LockInfo",
        "ObjectStructure",
        "Patch",
        "SearchHit",
        "SourceCache",
        "SourceConfig",
        "SourceError",
        "SourceRead",
        "SourceService",
        "WriteOutcome",
        "as_source_error",
        "error_payload",
        "is_valid_token",
        "make_token",
    },
    "adt.systems": {
        "BridgeSettings",
        "ClientFactory",
        "ConfigFile",
        "Connections",
        "EditorSettings",
        "LockMode",
        "MergeOnSave",
        "Member",
        "Settings",
        "SourceSettings",
        "SystemsConfig",
        "Team",
        "default_config_path",
        "load_settings",
        "token_digest",
    },
    "adt.workbench": {
        "KINDS",
        "ActivationDependencies",
        "AtcReport",
        "CodeAssist",
        "Completions",
        "CreatedObject",
        "Finding",
        "History",
        "InactiveEntry",
        "Location",
        "NewObject",
        "ObjectLifecycle",
        "OpenRequest",
        "Quality",
        "SourceDiff",
        "SymbolInfo",
        "TestFailure",
        "TransportNeed",
        "Transports",
        "UnitReport",
        "Usage",
        "UsagePage",
        "VersionEntry",
        "WhereUsed",
        "Workbench",
    },
    "adt.agent": {
        "AgentTools",
        "BY_NAME",
        "DocumentViews",
        "TOOLS",
        "ToolCall",
        "ToolDefinition",
        "ToolOutcome",
        "WritePolicy",
    },
    "adt.emulator": {
        "DEFAULT_USERS",
        "DropConnection",
        "Emulator",
        "EmulatorError",
        "FaultInjector",
        "LockEntry",
        "LogonPolicy",
        "RequestLogEntry",
        "SAMPLE_PACKAGE",
        "ServerTls",
        "samples_dir",
    },
}


@pytest.mark.parametrize("package", sorted(PUBLIC))
def test_exported_names_are_exactly_the_curated_ones(package: str) -> None:
    module = importlib.import_module(package)
    assert set(module.__all__) == PUBLIC[package]
    for name in module.__all__:
        assert getattr(module, name) is not None, name


@pytest.mark.parametrize("package", ["adt", "adt.source", "adt.agent"])
def test_a_name_that_is_not_exported_is_an_attribute_error(package: str) -> None:
    """The lazily imported packages answer an unknown name as any module does."""
    module = importlib.import_module(package)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'Nope'"):
        module.Nope  # noqa: B018
