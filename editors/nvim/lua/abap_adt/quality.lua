--- Running checks on the object of a buffer: ABAP Unit (:AdtTest) and ATC (:AdtAtc).
---
--- The server publishes the failures and findings as diagnostics (sources `abap-unit` and
--- `atc`) at their places and shows a summary; here the places also go into the quickfix
--- list, which reaches them in other includes (the test classes) as well.
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- @param value any
--- @return boolean
local function present(value)
  return value ~= nil and value ~= vim.NIL and value ~= ''
end

--- @param failure table { testClass, method, message, uri?, line? (1-based) }
--- @return table quickfix item
local function failure_item(failure)
  local where = table.concat(vim.tbl_filter(present, { failure.testClass, failure.method }), '->')
  local uri = present(failure.uri) and failure.uri or nil
  return {
    filename = uri,
    lnum = uri and tonumber(failure.line) or nil,
    text = ('%s: %s'):format(where ~= '' and where or '?', failure.message or ''),
    type = 'E',
    valid = uri and 1 or 0,
  }
end

--- @param finding table an ATC finding { priority, check, message, uri?, line? (1-based), column? }
--- @return table quickfix item
local function finding_item(finding)
  local uri = present(finding.uri) and finding.uri or nil
  local priority = tonumber(finding.priority) or 3
  local text = finding.message or '?'
  if present(finding.check) then
    text = ('%s [%s, priority %d]'):format(text, finding.check, priority)
  end
  return {
    filename = uri,
    lnum = uri and tonumber(finding.line) or nil,
    col = uri and (tonumber(finding.column) or 0) + 1 or nil,
    text = text,
    type = priority == 1 and 'E' or priority == 2 and 'W' or 'I',
    valid = uri and 1 or 0,
  }
end

--- Run a command of the server on the buffer's object. The server publishes the diagnostics;
--- here the places go into the quickfix list. The last message is the summary ("ABAP Unit:
--- 3 passed, 1 failed") with the quickfix hint after it, so the summary stays on screen
--- instead of being replaced by the hint.
--- @param bufnr integer
--- @param spec { command: string, arguments: table, what: string, list: string, items: fun(result: table): table[], summary: fun(result: table): string, worrying: fun(result: table): boolean }
--- @param on_done fun(result: table|nil, err: table|nil)|nil
local function run(bufnr, spec, on_done)
  util.notify(('%s ...'):format(spec.what))
  client.request_async(
    'workspace/executeCommand',
    { command = spec.command, arguments = spec.arguments },
    bufnr,
    function(result, err)
      if err then
        util.notify(('%s failed: %s'):format(spec.what, util.error_text(err)), levels.ERROR)
      else
        result = type(result) == 'table' and result or {}
        local items = spec.items(result)
        vim.fn.setqflist({}, ' ', { title = spec.list, items = items })
        local text = spec.summary(result)
        if #items > 0 then
          text = ('%s; %d place%s in the quickfix list (:copen)'):format(
            text,
            #items,
            #items == 1 and '' or 's'
          )
        end
        util.notify(text, spec.worrying(result) and levels.WARN or levels.INFO)
      end
      if on_done then
        on_done(result, err)
      end
    end
  )
end

--- @param bufnr integer
--- @return string|nil uri, string name
local function object_of(bufnr)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) then
    util.notify('not an adt:// buffer', levels.ERROR)
    return nil, ''
  end
  return uri, (util.describe(uri):gsub(' %(.*%)$', ''))
end

--- :AdtTest: run the unit tests of the buffer's object (or of one test class or method).
--- Failures become diagnostics where they failed (source abap-unit).
--- @param bufnr integer
--- @param scope table|nil { testClass?: string, method?: string }
--- @param on_done fun(result: table|nil, err: table|nil)|nil
function M.test(bufnr, scope, on_done)
  local uri, name = object_of(bufnr)
  if not uri then
    return
  end
  local what = scope
    and table.concat(vim.tbl_filter(present, { scope.testClass, scope.method }), '->')
  local arguments = { uri }
  if what and what ~= '' then
    table.insert(arguments, scope)
  end
  run(bufnr, {
    command = 'adt.runUnitTests',
    arguments = arguments,
    what = ('unit tests of %s%s'):format(name, what and what ~= '' and (' ' .. what) or ''),
    list = 'ABAP Unit: ' .. name,
    items = function(result)
      return vim.tbl_map(failure_item, result.failures or {})
    end,
    summary = function(result)
      if (tonumber(result.tests) or 0) == 0 then
        return 'ABAP Unit: no tests ran'
      end
      return ('ABAP Unit: %d passed, %d failed'):format(
        tonumber(result.passed) or 0,
        tonumber(result.failed) or 0
      )
    end,
    worrying = function(result)
      return (tonumber(result.failed) or 0) > 0 or (tonumber(result.tests) or 0) == 0
    end,
  }, on_done)
end

--- :AdtAtc: run the ABAP Test Cockpit on the buffer's object; findings become diagnostics
--- (source atc; priority 1 error, 2 warning, 3 information).
--- @param bufnr integer
--- @param on_done fun(result: table|nil, err: table|nil)|nil
function M.atc(bufnr, on_done)
  local uri, name = object_of(bufnr)
  if not uri then
    return
  end
  run(bufnr, {
    command = 'adt.runAtc',
    arguments = { uri },
    what = 'ATC of ' .. name,
    list = 'ATC: ' .. name,
    items = function(result)
      return vim.tbl_map(finding_item, result.findings or {})
    end,
    summary = function(result)
      local count = #(result.findings or {})
      return count == 0 and 'ATC: no findings'
        or ('ATC: %d finding%s'):format(count, count == 1 and '' or 's')
    end,
    worrying = function(result)
      return #(result.findings or {}) > 0
    end,
  }, on_done)
end

return M
