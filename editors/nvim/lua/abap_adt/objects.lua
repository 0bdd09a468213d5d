--- Finding objects: :AdtOpen, :AdtSearch, :AdtIncludes.
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- The sources of a class besides its main one; other objects have only `main`.
M.INCLUDES = { 'main', 'definitions', 'implementations', 'macros', 'testclasses' }

--- :edit a document URI (escaped: the % of %2f in namespaced names would otherwise expand
--- to the current file name). A buffer the server could not fill is wiped again, so a failed
--- open leaves nothing behind; the reason is shown once, as a message.
--- @param uri string
--- @return boolean opened
function M.edit(uri)
  local document = require('abap_adt.document')
  local failed = util.find_buffer(uri)
  if failed and (vim.b[failed].abap_adt or {}).loaded == false then
    vim.api.nvim_buf_delete(failed, { force = true }) -- an earlier failed :edit: read again
  end
  document.quiet_reads = document.quiet_reads + 1
  local ok, err = pcall(vim.cmd.edit, vim.fn.fnameescape(uri))
  document.quiet_reads = document.quiet_reads - 1
  if not ok then -- e.g. E37, the current buffer has unsaved changes
    err = tostring(err)
    util.notify(err:match('Vim%(%a+%):(.*)$') or err, levels.ERROR)
    return false
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local state = vim.b[bufnr].abap_adt
  if vim.api.nvim_buf_get_name(bufnr) == uri and state and state.loaded == false then
    util.notify(('cannot open %s: %s'):format(uri, state.error or 'unknown error'), levels.ERROR)
    vim.api.nvim_buf_delete(bufnr, { force = true })
    return false
  end
  return true
end

--- The object name under the cursor: letters, digits, `_` and the slashes of a namespace
--- (`/ABC/CL_X`), which the keyword under the cursor (<cword>) would cut.
--- @return string
function M.name_under_cursor()
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2] + 1
  local start, finish = col, col - 1
  while start > 1 and line:sub(start - 1, start - 1):match('[%w_/]') do
    start = start - 1
  end
  while finish < #line and line:sub(finish + 1, finish + 1):match('[%w_/]') do
    finish = finish + 1
  end
  -- "/abc/cl_x" keeps its slashes; a slash that starts no namespace is not part of a name
  local name = line:sub(start, finish):match('^/?[%w_]+/[%w_]+$') or line:sub(start, finish)
  return name:match('[%w_]') and name or vim.fn.expand('<cword>')
end

--- @param value any
--- @return boolean
local function present(value)
  return value ~= nil and value ~= vim.NIL and value ~= ''
end

--- @param hit table a search hit
local function label(hit)
  local text = ('%s  %s'):format(hit.type or '?', hit.name or '?')
  if hit.description and hit.description ~= vim.NIL and hit.description ~= '' then
    text = text .. ' - ' .. hit.description
  end
  if hit.package and hit.package ~= vim.NIL and hit.package ~= '' then
    text = text .. ' (' .. hit.package .. ')'
  end
  return text
end

--- Open an object's source by name.
--- @param name string object name, optionally "SYSTEM:NAME"
--- @param include string|nil class include (definitions, implementations, macros, testclasses)
--- @param object_type string|nil e.g. CLAS/OC, when the name is ambiguous
function M.open(name, include, object_type)
  if include and not vim.tbl_contains(M.INCLUDES, include:lower()) then
    util.notify(
      ('%s is not an include; use one of %s'):format(include, table.concat(M.INCLUDES, ', ')),
      levels.ERROR
    )
    return
  end
  include = include and include:lower()
  local system
  if name:find(':', 1, true) then
    system, name = name:match('^([^:]*):(.*)$')
  end
  local params = {
    name = name,
    type = object_type,
    system = system ~= '' and system or nil,
    includeType = include ~= 'main' and include or nil,
  }
  local result, err = client.request('adt/openObject', params)
  if not result then
    util.notify(('cannot open %s: %s'):format(name, util.error_text(err)), levels.ERROR)
    return
  end
  if result.found then
    M.edit(result.uri)
    return
  end
  local candidates = result.candidates or {}
  if #candidates == 0 and not name:find('*', 1, true) then
    -- nothing by that exact name: offer the objects with a source whose names start with it
    local hits =
      client.request('adt/searchObjects', { query = name .. '*', system = params.system })
    candidates = vim.tbl_filter(function(hit)
      return hit.documentUri ~= nil and hit.documentUri ~= vim.NIL
    end, hits or {})
  end
  candidates = vim.tbl_filter(function(hit)
    return type(hit) == 'table' and hit.name ~= nil
  end, candidates)
  -- only what has a source can be opened: offering a package would ask the same question
  -- again after it is picked
  local sourceless = vim.tbl_filter(function(hit)
    return not present(hit.documentUri)
  end, candidates)
  candidates = vim.tbl_filter(function(hit)
    return present(hit.documentUri)
  end, candidates)
  if #candidates == 0 then
    local first = sourceless[1]
    local message = result.message or ('no object named %s'):format(name)
    if first then
      local kind = first.type == 'DEVC/K' and 'a package'
        or ('an object of type ' .. tostring(first.type))
      message = ('%s is %s without a source to open; :AdtSearch %s lists objects by name'):format(
        first.name,
        kind,
        name
      )
    end
    util.notify(message, levels.WARN)
    return
  end
  vim.ui.select(candidates, {
    prompt = ('abap-adt: %s. Open which?'):format(result.message or name),
    kind = 'abap_adt',
    format_item = label,
  }, function(hit)
    if not hit then
      return
    elseif hit.documentUri and not include then
      M.edit(hit.documentUri)
    else -- the same name with its type picks exactly one object
      M.open((system and system .. ':' or '') .. hit.name, include, hit.type)
    end
  end)
end

--- Search objects (quick search, * is the wildcard) into the quickfix list.
--- @param query string
--- @param on_done fun(items: table[])|nil
function M.search(query, on_done)
  local pattern = query:find('*', 1, true) and query or query .. '*'
  client.request_async(
    'adt/searchObjects',
    { query = pattern, maxResults = 100 },
    nil,
    function(hits, err)
      if err then
        util.notify(
          ('search for %s failed: %s'):format(pattern, util.error_text(err)),
          levels.ERROR
        )
        return
      end
      local items = {}
      for _, hit in ipairs(hits or {}) do
        local uri = hit.documentUri ~= vim.NIL and hit.documentUri or nil
        -- objects without a source (packages, ...) are listed, but cannot be jumped to
        table.insert(
          items,
          { filename = uri, lnum = uri and 1 or nil, text = label(hit), valid = uri and 1 or 0 }
        )
      end
      vim.fn.setqflist({}, ' ', { title = 'ADT search: ' .. pattern, items = items })
      if #items == 0 then
        util.notify(('nothing found for %s'):format(pattern), levels.WARN)
      else
        vim.cmd('botright copen')
      end
      if on_done then
        on_done(items)
      end
    end
  )
end

--- Pick one of the includes of the object in the buffer (a class has several).
--- @param bufnr integer
function M.includes(bufnr)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) then
    util.notify('not an adt:// buffer', levels.ERROR)
    return
  end
  local structure, err = client.request('adt/objectStructure', { uri = uri })
  if not structure then
    util.notify(
      ('no structure for %s: %s'):format(util.describe(uri), util.error_text(err)),
      levels.ERROR
    )
    return
  end
  local includes = structure.includes or {}
  if #includes == 0 then
    util.notify(('%s has no includes'):format(util.describe(uri)))
    return
  end
  vim.ui.select(includes, {
    prompt = ('abap-adt: includes of %s'):format(structure.name or util.describe(uri)),
    kind = 'abap_adt',
    format_item = function(include)
      return include.includeType
    end,
  }, function(include)
    if include then
      M.edit(include.uri)
    end
  end)
end

return M
