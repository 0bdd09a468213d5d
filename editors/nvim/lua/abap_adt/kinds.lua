--- The filetype of an adt:// buffer by the object kind its URI names (the language ids of
--- adt/kinds: abap-cds, abap-bdef, abap-srvd, abap-ddic, xml); ABAP sources keep the configured
--- filetype. Each abap-* filetype has a syntax file of ours in editors/nvim/syntax/; xml is Neovim's.
local M = {}

--- ADT collection (a Lua pattern on the URI path) -> filetype.
M.FILETYPES = {
  { '/sap/bc/adt/ddic/ddl/sources/', 'abap-cds' },
  { '/sap/bc/adt/ddic/ddlx/sources/', 'abap-cds' },
  { '/sap/bc/adt/acm/dcl/sources/', 'abap-cds' },
  { '/sap/bc/adt/bo/behaviordefinitions/', 'abap-bdef' },
  { '/sap/bc/adt/ddic/srvd/sources/', 'abap-srvd' },
  { '/sap/bc/adt/ddic/tables/', 'abap-ddic' },
  { '/sap/bc/adt/ddic/structures/', 'abap-ddic' },
  -- metadata objects: their ADT document, indented (Neovim's own xml filetype and syntax)
  { '/sap/bc/adt/ddic/dataelements/', 'xml' },
  { '/sap/bc/adt/ddic/domains/', 'xml' },
  { '/sap/bc/adt/ddic/tabletypes/', 'xml' },
  { '/sap/bc/adt/messageclass/', 'xml' },
  { '/sap/bc/adt/businessservices/bindings/', 'xml' },
}

--- abapGit file suffixes of the same sources (opened as files).
M.EXTENSIONS = {
  asddls = 'abap-cds',
  asddlxs = 'abap-cds',
  asdcls = 'abap-cds',
  asbdef = 'abap-bdef',
  srvdsrv = 'abap-srvd',
}

--- @param uri string an adt:// URI
--- @param default string the filetype of ABAP sources
--- @return string
function M.filetype(uri, default)
  local lower = uri:lower()
  for _, entry in ipairs(M.FILETYPES) do
    if lower:find(entry[1], 1, true) then
      return entry[2]
    end
  end
  return default
end

return M
