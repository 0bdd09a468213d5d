--- :AdtTransport: choose the transport request the changes of an object go to.
---
--- The server asks (window/showMessageRequest: the user's open requests and "create a new
--- one") and remembers the choice for the object for the rest of the session, so saving no
--- longer asks.
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- @param bufnr integer
--- @param on_done fun(result: table|nil, err: table|nil)|nil
function M.choose(bufnr, on_done)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) then
    util.notify('not an adt:// buffer', levels.ERROR)
    return
  end
  local name = util.describe(uri):gsub(' %(.*%)$', '')
  client.request_async(
    'workspace/executeCommand',
    { command = 'adt.chooseTransport', arguments = { uri } },
    bufnr,
    function(result, err)
      result = type(result) == 'table' and result or {}
      local transport = result.transport ~= vim.NIL and result.transport or nil
      if err then
        util.notify(
          ('cannot choose a transport request for %s: %s'):format(name, util.error_text(err)),
          levels.ERROR
        )
      elseif result.required == false then
        util.notify(
          ('%s needs no transport request (its package %s is not transported)'):format(
            name,
            result.package or '?'
          )
        )
      elseif transport then
        require('abap_adt.document').update_state(bufnr, { transport = transport })
        util.notify(
          result.lockedIn
              and ('%s is on request %s already: its changes go there'):format(name, transport)
            or ('changes of %s go to %s'):format(name, transport)
        )
      else
        util.notify(('no transport request chosen for %s'):format(name), levels.WARN)
      end
      if on_done then
        on_done(result, err)
      end
    end
  )
end

return M
