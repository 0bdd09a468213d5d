"""A small travel scenario of our own in every CDS-family form, for CI (the flight scenario
is not always checked out). ``SAMPLES`` maps (name, type) to source text."""

from __future__ import annotations

from adt.abap.cds.catalog import Catalog, CatalogObject, DataElement
from adt.abap.cds.parse import parse

TRAVEL_TABLE = """@EndUserText.label : 'Travels'
@AbapCatalog.tableCategory : #TRANSPARENT
define table ztravel {
  key client     : abap.clnt not null;
  key travel_id  : ztravel_id not null;
  agency_id      : zagency_id;
  @Semantics.amount.currencyCode : 'ztravel.currency_code'
  total_price    : abap.curr(16,2);
  currency_code  : abap.cuky;
  description    : abap.char(80);
  include zs_admin;
}
"""
ADMIN_STRUCTURE = """@EndUserText.label : 'Administrative fields'
define structure zs_admin {
  created_by      : syuname;
  last_changed_at : timestampl;
}
"""
BOOKING_TABLE = """define table zbooking {
  key client     : abap.clnt not null;
  key travel_id  : ztravel_id not null;
  key booking_id : abap.numc(4) not null;
  price          : abap.curr(16,2);
}
"""
AGENCY_TABLE = """define table zagency {
  key client    : abap.clnt not null;
  key agency_id : zagency_id not null;
  name          : abap.char(40);
}
"""
AGENCY_VIEW = """@EndUserText.label: 'Agency'
define view entity ZI_Agency as select from zagency
{
  key agency_id as AgencyID,
      name      as Name
}
"""
TRAVEL_VIEW = """@AccessControl.authorizationCheck: #NOT_REQUIRED
@EndUserText.label: 'Travel'
define root view entity ZI_Travel
  with parameters p_currency : abap.cuky
  as select from ztravel as Travel
  composition [0..*] of ZI_Booking as _Booking
  association [0..1] to ZI_Agency as _Agency on $projection.AgencyID = _Agency.AgencyID
  association [0..1] to I_Currency as _Currency on $projection.CurrencyCode = _Currency.Currency
{
  key travel_id     as TravelID,
      agency_id     as AgencyID,
      @Semantics.amount.currencyCode: 'CurrencyCode'
      total_price   as TotalPrice,
      currency_code as CurrencyCode,
      /* a computed one */
      cast( total_price as abap.dec(16,2) ) as PriceDecimal,
      case currency_code when 'EUR' then 'X' else '' end as IsEuro, // flag
      Travel.created_by as CreatedBy,
      $parameters.p_currency as TargetCurrency,
      _Agency.Name as AgencyName,
      _Booking,
      _Agency,
      _Currency
}
where currency_code <> ''
"""
BOOKING_VIEW = """define view entity ZI_Booking as select from zbooking
  association to parent ZI_Travel as _Travel on $projection.TravelID = _Travel.TravelID
{
  key travel_id  as TravelID,
  key booking_id as BookingID,
      price      as Price,
      _Travel
}
"""
TRAVEL_PROJECTION = """@EndUserText.label: 'Travel projection'
@Metadata.allowExtensions: true
define root view entity ZC_Travel
  provider contract transactional_query
  as projection on ZI_Travel
{
  key TravelID,
      AgencyID,
      _Agency.Name as AgencyName2,
      TotalPrice,
      CurrencyCode,
      _Booking : redirected to composition child ZC_Booking,
      _Agency
}
"""
BOOKING_PROJECTION = """define view entity ZC_Booking as projection on ZI_Booking
{
  key TravelID,
  key BookingID,
      Price,
      _Travel : redirected to parent ZC_Travel
}
"""
TRAVEL_EXTENSION = """extend view entity ZI_Travel with
{
  Travel.description as Description
}
"""
CLASSIC_VIEW = """@AbapCatalog.sqlViewName: 'ZVTRAVEL'
define view ZV_Travel as select from ztravel
  inner join zagency on ztravel.agency_id = zagency.agency_id
{
  key ztravel.travel_id,
      zagency.name
}
"""
ABSTRACT = """define abstract entity ZA_Discount
{
  discount_percent : abap.int1;
}
"""
CUSTOM = """@ObjectModel.query.implementedBy: 'ABAP:ZCL_TRAVEL_QUERY'
define custom entity ZCE_Travel
{
  key TravelID : ztravel_id;
      Note     : abap.char(20);
      _Agency  : association [0..1] to ZI_Agency on _Agency.AgencyID = $projection.TravelID;
}
"""
TABLE_FUNCTION = """define table function ZTF_Travel
  with parameters p_client : abap.clnt
  returns {
    key client    : abap.clnt;
    key travel_id : ztravel_id;
  }
  implemented by method zcl_travel_amdp=>get_travels;
"""
METADATA = """@Metadata.layer: #CORE
annotate entity ZC_Travel with
{
  @UI.lineItem: [{ position: 10 }]
  TravelID;
  @UI: { lineItem: [ { position: 20, importance: #HIGH } ] }
  AgencyID;
}
"""
ROLE = """@EndUserText.label: 'Travel access'
define role ZI_Travel {
  grant select on ZI_Travel where AgencyID = '070001';
  grant select on ZC_Travel where inheriting conditions from entity ZI_Travel;
}
"""
BEHAVIOR = """managed implementation in class zbp_i_travel unique;
strict ( 2 );

define behavior for ZI_Travel alias Travel
persistent table ztravel
lock master
authorization master ( instance )
{
  create;
  update;
  delete;
  field ( readonly ) TravelID;
  field ( mandatory ) AgencyID, CurrencyCode;
  association _Booking { create; }
  action acceptTravel result [1] $self;
  action ( features : instance ) discount parameter ZA_Discount result [1] $self;
  determination setTotal on modify { field TotalPrice; }
  validation validateAgency on save { create; field AgencyID; }
  mapping for ztravel corresponding;
}

define behavior for ZI_Booking alias Booking
persistent table zbooking
lock dependent by _Travel
{
  update;
  association _Travel;
  field ( readonly ) TravelID;
}
"""
PROJECTION_BEHAVIOR = """projection;
strict ( 2 );

define behavior for ZC_Travel alias Travel
{
  use create;
  use update;
  use association _Booking { create; }
}

define behavior for ZC_Booking alias Booking
{
  use update;
}
"""
SERVICE = """@EndUserText.label: 'Travel service'
define service ZUI_Travel {
  expose ZC_Travel as Travel;
  expose ZC_Booking as Booking;
  expose I_CurrencyStdVH;
}
"""
ABAP_REPORT = """REPORT zr_travels.
SELECT travelid, totalprice FROM zc_travel INTO TABLE @DATA(travels).
SELECT SINGLE * FROM ztravel AS t INNER JOIN zagency AS a ON t~agency_id = a~agency_id
  WHERE t~travel_id = '1' INTO @DATA(row).
READ ENTITIES OF zi_travel ENTITY Travel ALL FIELDS WITH VALUE #( ) RESULT DATA(result).
"""

SAMPLES: dict[tuple[str, str], str] = {
    ("ZTRAVEL", "TABL"): TRAVEL_TABLE,
    ("ZS_ADMIN", "TABL"): ADMIN_STRUCTURE,
    ("ZBOOKING", "TABL"): BOOKING_TABLE,
    ("ZAGENCY", "TABL"): AGENCY_TABLE,
    ("ZI_AGENCY", "DDLS"): AGENCY_VIEW,
    ("ZI_TRAVEL", "DDLS"): TRAVEL_VIEW,
    ("ZI_BOOKING", "DDLS"): BOOKING_VIEW,
    ("ZC_TRAVEL", "DDLS"): TRAVEL_PROJECTION,
    ("ZC_BOOKING", "DDLS"): BOOKING_PROJECTION,
    ("ZX_TRAVEL", "DDLS"): TRAVEL_EXTENSION,
    ("ZV_TRAVEL", "DDLS"): CLASSIC_VIEW,
    ("ZA_DISCOUNT", "DDLS"): ABSTRACT,
    ("ZCE_TRAVEL", "DDLS"): CUSTOM,
    ("ZTF_TRAVEL", "DDLS"): TABLE_FUNCTION,
    ("ZC_TRAVEL", "DDLX"): METADATA,
    ("ZI_TRAVEL", "DCLS"): ROLE,
    ("ZI_TRAVEL", "BDEF"): BEHAVIOR,
    ("ZC_TRAVEL", "BDEF"): PROJECTION_BEHAVIOR,
    ("ZUI_TRAVEL", "SRVD"): SERVICE,
}
DATA_ELEMENTS = [
    DataElement("ZTRAVEL_ID", "NUMC(8)", "Travel ID"),
    DataElement("ZAGENCY_ID", "NUMC(6)", "Agency"),
]
CLASSES = ["ZBP_I_TRAVEL", "ZCL_TRAVEL_AMDP"]


def catalog(replace: dict[tuple[str, str], str] | None = None) -> Catalog:
    """The samples' catalog, with some sources replaced (to plant errors)."""
    texts = {**SAMPLES, **(replace or {})}
    objects = [CatalogObject(name, kind, parse(text, kind)) for (name, kind), text in texts.items()]
    return Catalog(objects, DATA_ELEMENTS, CLASSES)
