"""SAP-delivered objects that sources of customers and of SAP's samples build on but that no
repository of ours contains: released CDS entities (``I_Currency``, ``I_Country``, …) and
the session variables. A real system has them; the emulator knows their names and their
best-known fields, and accepts any other field of them (``opaque``) — listed as a deviation
in docs/emulator.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StandardEntity:
    name: str
    label: str
    fields: tuple[tuple[str, str, bool], ...]  # (name, type, key)
    associations: tuple[tuple[str, str], ...] = ()
    opaque: bool = True  # fields beyond the listed ones exist


_ENTITIES = [
    StandardEntity(
        "I_Currency",
        "Currency",
        (
            ("Currency", "waers", True),
            ("Decimals", "currdec", False),
            ("CurrencyISOCode", "isocd", False),
            ("AlternativeCurrencyKey", "altwr", False),
        ),
        (("_Text", "I_CurrencyText"),),
    ),
    StandardEntity(
        "I_CurrencyText",
        "Currency - Text",
        (
            ("Currency", "waers", True),
            ("Language", "spras", True),
            ("CurrencyName", "ltext", False),
            ("CurrencyShortName", "ktext", False),
        ),
    ),
    StandardEntity(
        "I_CurrencyStdVH",
        "Currency value help",
        (("Currency", "waers", True),),
        (("_Text", "I_CurrencyText"),),
    ),
    StandardEntity(
        "I_Country",
        "Country/Region",
        (
            ("Country", "land1", True),
            ("CountryThreeLetterISOCode", "intca3", False),
            ("CountryThreeDigitISOCode", "intcn3", False),
            ("CountryCurrency", "waers", False),
        ),
        (("_Text", "I_CountryText"),),
    ),
    StandardEntity(
        "I_CountryText",
        "Country/Region - Text",
        (
            ("Country", "land1", True),
            ("Language", "spras", True),
            ("CountryName", "landx50", False),
        ),
    ),
    StandardEntity(
        "I_CountryVH",
        "Country/Region value help",
        (("Country", "land1", True),),
        (("_Text", "I_CountryText"),),
    ),
    StandardEntity(
        "I_Language", "Language", (("Language", "spras", True), ("LanguageISOCode", "laiso", False))
    ),
    StandardEntity(
        "sych_bdl_draft_admin_inc",
        "Draft administrative data (include of every draft table)",
        (
            ("draftentitycreationdatetime", "sych_bdl_draft_created_at", False),
            ("draftentitylastchangedatetime", "sych_bdl_draft_last_changed_at", False),
            ("draftadministrativedatauuid", "sych_bdl_draft_admin_uuid", False),
            ("draftentityoperationcode", "sych_bdl_draft_operation_code", False),
            ("hasactiveentity", "sych_bdl_draft_hasactive", False),
            ("draftfieldchanges", "sych_bdl_draft_field_changes", False),
        ),
        opaque=False,
    ),
    StandardEntity("I_UnitOfMeasure", "Unit of measure", (("UnitOfMeasure", "msehi", True),)),
    StandardEntity("I_Timezone", "Time zone", (("TimeZoneID", "tznzone", True),)),
]

STANDARD: dict[str, StandardEntity] = {entity.name.upper(): entity for entity in _ENTITIES}

SESSION_VARIABLES = (
    "client",
    "system_date",
    "system_language",
    "user",
    "user_date",
    "user_timezone",
    "system_timezone",
)
