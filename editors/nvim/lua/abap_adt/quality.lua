--- Running checks on the object of a buffer: ABAP Unit (:AdtTest) and ATC (:AdtAtc).
---
--- The server publishes the failures and findings as diagnostics (sources `abap-unit` and
--- `atc`) at their places; here the result is summed up in a message and put into the
--- quickfix list, which also reaches places in other includes (the test classes).
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- @param value any
--- @return boolean
local function present(value)
  return value ~= nil and value ~= vim.NIL and value ~= ''
end

--- Fill the quickfix list; the list is opened only on request (:copen), the message says so.
--- @param title string
--- @param items table[] quickfix items
local function set_quickfix(title, items)
  vim.fn.setqflist({}, ' ', { title = title, items = items })
end

--- @param failure table { testClass, method, message, uri?, line? }
--- @return table quickfix item
local function failure_item(failure)
  local where = table.concat(vim.tbl_filter(present, { failure.testClass, failure.method }), '->')
  local uri = present(failure.uri) and failure.uri or nil
  return {
    filename = uri,
    lnum = uri and (tonumber(failure.line) or 0) + 1 or nil,
    text = ('%s: %s'):format(where ~= '' and where or '?', failure.message or ''),
    type = 'E',
    valid = uri and 1 or 0,
  }
end

--- The text of a test run's outcome, e.g. "ZCL_X: 3 passed, 1 failed".
--- @param name string
--- @param result table
--- @return string message, integer level
function M.test_summary(name, result)
  local passed, failed = result.passed or 0, result.failed or 0
  local text = ('unit tests of %s: %d passed, %d failed'):format(name, passed, failed)
  if (result.skipped or 0) > 0 then
    text = text .. (', %d skipped'):format(result.skipped)
  end
  local first = (result.failures or {})[1]
  if first then
    text = text .. ('. First: %s (:copen lists all)'):format(failure_item(first).text)
  elseif passed + failed == 0 then
    text = ('%s has no unit tests'):format(name)
  end
  return text, failed > 0 and levels.ERROR or levels.INFO
end

--- :AdtTest: run the unit tests of the buffer's object (or of one test class or method).
--- @param bufnr integer
--- @param scope table|nil { testClass?: string, method?: string }
--- @param on_done fun(result: table|nil, err: table|nil)|nil
function M.test(bufnr, scope, on_done)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) then
    util.notify('not an adt:// buffer', levels.ERROR)
    return
  end
  local name = util.describe(uri):gsub(' %(.*%)$', '')
  local what = scope
    and table.concat(vim.tbl_filter(present, { scope.testClass, scope.method }), '->')
  util.notify(
    ('running unit tests of %s%s ...'):format(name, what and what ~= '' and (' ' .. what) or '')
  )
  local arguments = { uri }
  if scope and next(scope) then
    table.insert(arguments, scope)
  end
  client.request_async(
    'workspace/executeCommand',
    { command = 'adt.runUnitTests', arguments = arguments },
    bufnr,
    function(result, err)
      if err then
        util.notify(
          ('unit tests of %s failed to run: %s'):format(name, util.error_text(err)),
          levels.ERROR
        )
      else
        result = result or {}
        set_quickfix('ABAP Unit: ' .. name, vim.tbl_map(failure_item, result.failures or {}))
        util.notify(M.test_summary(name, result))
      end
      if on_done then
        on_done(result, err)
      end
    end
  )
end

--- @param finding table an ATC finding (uri, line, column, priority, message, checkTitle ...)
--- @return table quickfix item
local function finding_item(finding)
  local uri = present(finding.uri) and finding.uri or nil
  local priority = tonumber(finding.priority) or 3
  local text = finding.message or finding.text or finding.messageTitle or '?'
  if present(finding.checkTitle) then
    text = ('%s [%s]'):format(text, finding.checkTitle)
  end
  return {
    filename = uri,
    lnum = uri and (tonumber(finding.line) or 0) + 1 or nil,
    col = uri and (tonumber(finding.column) or 0) + 1 or nil,
    text = text,
    type = priority == 1 and 'E' or priority == 2 and 'W' or 'I',
    valid = uri and 1 or 0,
  }
end

--- The text of an ATC run's outcome, e.g. "ATC of ZCL_X: 1 error, 2 warnings".
--- @param name string
--- @param result table
--- @return string message, integer level
function M.atc_summary(name, result)
  local findings = result.findings or {}
  if #findings == 0 then
    return ('ATC of %s: no findings'):format(name), levels.INFO
  end
  local counts = { 0, 0, 0 }
  for _, finding in ipairs(findings) do
    local priority = math.min(math.max(tonumber(finding.priority) or 3, 1), 3)
    counts[priority] = counts[priority] + 1
  end
  local parts = {}
  for i, noun in ipairs({ 'error', 'warning', 'information' }) do
    if counts[i] > 0 then
      local plural = counts[i] == 1 and '' or (noun == 'information' and '' or 's')
      table.insert(parts, ('%d %s%s'):format(counts[i], noun, plural))
    end
  end
  return ('ATC of %s: %s (:copen lists them)'):format(name, table.concat(parts, ', ')),
    counts[1] > 0 and levels.ERROR or levels.WARN
end

--- :AdtAtc: run the ABAP Test Cockpit on the buffer's object.
--- @param bufnr integer
--- @param on_done fun(result: table|nil, err: table|nil)|nil
function M.atc(bufnr, on_done)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) then
    util.notify('not an adt:// buffer', levels.ERROR)
    return
  end
  local name = util.describe(uri):gsub(' %(.*%)$', '')
  util.notify(('running ATC on %s ...'):format(name))
  client.request_async(
    'workspace/executeCommand',
    { command = 'adt.runAtc', arguments = { uri } },
    bufnr,
    function(result, err)
      if err then
        util.notify(
          ('ATC on %s failed to run: %s'):format(name, util.error_text(err)),
          levels.ERROR
        )
      else
        result = result or {}
        set_quickfix('ATC: ' .. name, vim.tbl_map(finding_item, result.findings or {}))
        util.notify(M.atc_summary(name, result))
      end
      if on_done then
        on_done(result, err)
      end
    end
  )
end

return M
