--- :AdtNew: create an object of any kind the server creates (class … function module, the
--- CDS and RAP sources, tables, structures, the dictionary's data elements, domains and table
--- types, message classes, service bindings), then open it. Asks what it needs through
--- vim.ui.select and vim.ui.input (so input and picker plugins show the questions); a data
--- definition, access control or service definition also asks what its template builds on
--- (the server fills the template from it), a service binding its service definition; the
--- server asks for a transport request when the package needs one.
local client = require('abap_adt.client')
local objects = require('abap_adt.objects')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- The kinds the server creates (adt.createObject), in the order they are offered.
M.KINDS = {
  { kind = 'class', label = 'class' },
  { kind = 'interface', label = 'interface' },
  { kind = 'program', label = 'program' },
  { kind = 'include', label = 'include' },
  { kind = 'functionGroup', label = 'function group' },
  { kind = 'functionModule', label = 'function module' },
  {
    kind = 'dataDefinition',
    label = 'data definition (CDS)',
    based_on = 'table or CDS view it selects from',
  },
  { kind = 'metadataExtension', label = 'metadata extension' },
  { kind = 'accessControl', label = 'access control', based_on = 'CDS entity it protects' },
  { kind = 'behaviorDefinition', label = 'behavior definition' },
  { kind = 'serviceDefinition', label = 'service definition', based_on = 'CDS entity it exposes' },
  { kind = 'table', label = 'database table' },
  { kind = 'structure', label = 'structure' },
  { kind = 'tableType', label = 'table type' },
  { kind = 'dataElement', label = 'data element' },
  { kind = 'domain', label = 'domain' },
  { kind = 'messageClass', label = 'message class' },
  { kind = 'serviceBinding', label = 'service binding', based_on = 'service definition it binds' },
}

--- The package of the last object created in this session: the default where the current
--- buffer has no package (an object's own package comes first, as the README says).
local last_package --- @type string|nil

--- @param name string|nil a kind or its label, any case, "function_group" too
--- @return table|nil
local function find_kind(name)
  if not name then
    return nil
  end
  local wanted = name:lower():gsub('[%s_-]', '')
  for _, kind in ipairs(M.KINDS) do
    if kind.kind:lower() == wanted then
      return kind
    end
  end
end

--- The kinds as :AdtNew completes them.
--- @return string[]
function M.kind_names()
  return vim.tbl_map(function(kind)
    return kind.kind
  end, M.KINDS)
end

--- What the current buffer tells about the defaults: its system, package and function group.
--- @param bufnr integer
--- @return { system?: string, package?: string, functionGroup?: string }
local function context_of(bufnr)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  local context = {}
  if not util.is_adt_uri(uri) then
    return context
  end
  context.system = uri:match('^adt://([^/]+)/')
  local group = uri:match('/functions/groups/([^/]+)')
  context.functionGroup = group and vim.uri_decode(group):upper()
  local structure = client.request('adt/objectStructure', { uri = uri })
  if type(structure) == 'table' and type(structure.package) == 'string' then
    context.package = structure.package
  end
  return context
end

--- @param prompt string
--- @param default string|nil
--- @return string|nil the trimmed answer; nil when cancelled or empty
local function ask(prompt, default)
  local answer = util.input({ prompt = 'abap-adt: ' .. prompt .. ': ', default = default })
  answer = answer and vim.trim(answer)
  return answer ~= '' and answer or nil
end

--- Collect the parameters of adt.createObject; nil when the user cancelled.
--- @param kind_name string|nil
--- @param name string|nil
--- @param context table see context_of
--- @return table|nil
local function collect(kind_name, name, context)
  local kind = find_kind(kind_name)
  if kind_name and not kind then
    util.notify(
      ('%s is not a kind of object; use one of %s'):format(
        kind_name,
        table.concat(M.kind_names(), ', ')
      ),
      levels.ERROR
    )
    return nil
  end
  kind = kind
    or util.select(M.KINDS, {
      prompt = 'abap-adt: create which kind of object?',
      kind = 'abap_adt',
      format_item = function(item)
        return item.label
      end,
    })
  if not kind then
    return nil
  end
  local params = { kind = kind.kind, system = context.system }
  params.name = name or ask(('name of the new %s'):format(kind.label))
  if not params.name then
    return nil
  end
  params.name = params.name:upper()
  if kind.kind == 'functionModule' then
    params.functionGroup = ask('function group', context.functionGroup)
    if not params.functionGroup then
      return nil
    end
    params.functionGroup = params.functionGroup:upper()
  end
  params.description = ask(('description of %s'):format(params.name))
  if not params.description then
    return nil
  end
  params.package = ask('package', context.package or last_package)
  if not params.package then
    return nil
  end
  params.package = params.package:upper()
  if kind.based_on then
    -- empty leaves the template's placeholders; cancelling cancels
    local basis = util.input({
      prompt = ('abap-adt: %s (empty: fill it in later): '):format(kind.based_on),
    })
    if basis == nil then
      return nil
    end
    basis = vim.trim(basis)
    params.basedOn = basis ~= '' and basis:upper() or nil
  end
  return params
end

--- :AdtNew [KIND [NAME]]
--- @param kind_name string|nil
--- @param name string|nil
--- @param on_done fun(result: table|nil, err: table|nil)|nil
function M.new(kind_name, name, on_done)
  local bufnr = vim.api.nvim_get_current_buf()
  util.run(function()
    local params = collect(kind_name, name, context_of(bufnr))
    if not params then
      util.notify('nothing created', levels.WARN)
      if on_done then
        on_done(nil, nil)
      end
      return
    end
    util.notify(('creating %s %s in %s ...'):format(params.kind, params.name, params.package))
    client.request_async(
      'workspace/executeCommand',
      { command = 'adt.createObject', arguments = { params } },
      nil,
      function(result, err)
        if err or type(result) ~= 'table' or not result.uri then
          util.notify(
            ('%s was not created: %s'):format(params.name, util.error_text(err or result)),
            levels.ERROR
          )
        else
          last_package = params.package
          local transport = result.transport ~= vim.NIL and result.transport or nil
          util.notify(
            ('created %s %s in %s%s'):format(
              params.kind,
              params.name,
              params.package,
              transport and (', transport request ' .. transport) or ''
            )
          )
          objects.edit(result.uri)
        end
        if on_done then
          on_done(result, err)
        end
      end
    )
  end)
end

return M
