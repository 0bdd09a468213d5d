--- Browser logons (OAuth for SAP BTP, single sign-on) the language server asks Neovim to show
--- (`adt/logon`, docs/lsp-protocol.md "Logging on in the browser"): the address is printed and
--- opened with vim.ui.open (option `open_browser`), the outcome is reported, and
--- :AdtLogonCancel gives up a logon that is still waiting (`adt/cancelLogon`).
local config = require('abap_adt.config')
local util = require('abap_adt.util')

local M = {}

--- The client capability that makes the server send `adt/logon`.
M.CAPABILITY = 'adtLogon'

--- Logons waiting for the browser: id -> system.
--- @type table<string, string>
M.waiting = {}

--- @param url string
local function open(url)
  local ok, result, err = pcall(vim.ui.open, url)
  if not ok or (result == nil and err) then
    util.notify(
      ('could not open the browser (%s): open the address above by hand'):format(
        tostring(ok and err or result)
      ),
      vim.log.levels.WARN
    )
  end
end

--- The `adt/logon` notification.
--- @param params {id: string, system: string, state: string, url: string?, message: string?}
function M.show(params)
  if type(params) ~= 'table' or type(params.id) ~= 'string' then
    return
  end
  local system = tostring(params.system)
  if params.state == 'open' and type(params.url) == 'string' then
    M.waiting[params.id] = system
    util.notify(
      ('log on to %s in your browser: %s  (:AdtLogonCancel gives up)'):format(system, params.url)
    )
    if config.options.open_browser and params.url:match('^https?://') then
      open(params.url)
    end
  elseif params.state == 'done' then
    M.waiting[params.id] = nil
    util.notify(('logged on to %s'):format(system))
  elseif params.state == 'failed' then
    M.waiting[params.id] = nil
    util.notify(
      ('logon to %s failed: %s'):format(system, tostring(params.message)),
      vim.log.levels.ERROR
    )
  end
end

--- Whether a logon is waiting for the browser (a request waiting for it may then wait
--- longer than `timeout`).
--- @return boolean
function M.pending()
  return next(M.waiting) ~= nil
end

--- :AdtLogonCancel: give up every logon still waiting for the browser.
function M.cancel()
  local client = require('abap_adt.client').get()
  if not client or next(M.waiting) == nil then
    util.notify('no logon is waiting for the browser')
    return
  end
  for id, system in pairs(M.waiting) do
    client:notify('adt/cancelLogon', { id = id })
    util.notify(('cancelling the logon to %s'):format(system))
  end
end

return M
