--- :AdtActivate: activate the object of a buffer (its messages become diagnostics). When the
--- system refuses because the object builds on inactive objects (the table under a CDS
--- view: the server names them as inactiveDependencies), say which and ask whether to
--- activate them together, which the system does in dependency order. :AdtActivate!
--- activates them together without asking.
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

M.TOGETHER = 'activate together'
M.CANCEL = 'cancel'

--- @param bufnr integer
--- @param arguments table the arguments of adt.activate
--- @param callback fun(result: table|nil, err: table|nil)
local function request(bufnr, arguments, callback)
  client.request_async(
    'workspace/executeCommand',
    { command = 'adt.activate', arguments = arguments },
    bufnr,
    callback
  )
end

--- Say how an activation ended.
--- @param name string what was activated
--- @param result table
--- @param err table|nil
local function report(name, result, err)
  if err then
    util.notify(('activation of %s failed: %s'):format(name, util.error_text(err)), levels.ERROR)
  elseif result.activated then
    util.notify(('activated %s'):format(name))
  elseif result.reason then
    util.notify(('%s not activated: %s'):format(name, result.reason), levels.WARN)
  else
    local findings = result.findings or {}
    local first = findings[1] and findings[1].text
    util.notify(
      ('%s not activated: %d message%s%s (see the diagnostics)'):format(
        name,
        #findings,
        #findings == 1 and '' or 's',
        first and (', first: ' .. first) or ''
      ),
      levels.ERROR
    )
  end
end

--- The inactive objects a refused activation names (none after an error or a success).
--- @param result table|nil
--- @return table[]
local function waiting_in(result)
  if type(result) ~= 'table' or result.activated then
    return {}
  end
  local waiting = result.inactiveDependencies
  return type(waiting) == 'table' and waiting or {}
end

--- @param bufnr integer
--- @param on_done fun(result: table|nil, err: table|nil)|nil
--- @param opts { together?: boolean }|nil together: activate the inactive objects it builds
---   on without asking
function M.activate(bufnr, on_done, opts)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) then
    util.notify('not an adt:// buffer', levels.ERROR)
    return
  end
  local name = util.describe(uri)
  local function finish(result, err, what)
    report(what or name, result or {}, err)
    if on_done then
      on_done(result or {}, err)
    end
  end
  util.notify(('activating %s ...'):format(name))
  request(bufnr, { uri }, function(result, err)
    local waiting = waiting_in(not err and result or nil)
    if #waiting == 0 then
      return finish(result, err)
    end
    local names = table.concat(
      vim.tbl_map(function(d)
        return ('%s (%s)'):format(d.name, d.type)
      end, waiting),
      ', '
    )
    util.run(function()
      local go = opts and opts.together
      if not go then
        util.notify(
          ('%s not activated: it uses %s, which %s not active'):format(
            name,
            names,
            #waiting == 1 and 'is' or 'are'
          ),
          levels.WARN
        )
        local answer = util.select({ M.TOGETHER, M.CANCEL }, {
          prompt = ('abap-adt: activate %s together with %s (in dependency order)?'):format(
            names,
            name
          ),
          kind = 'abap_adt',
        })
        go = answer == M.TOGETHER
      end
      if not go then
        if on_done then
          on_done(result, err)
        end
        return
      end
      local urls = vim.tbl_map(function(d)
        return d.objectUrl
      end, waiting)
      local all = table.concat(
        vim.tbl_map(function(d)
          return d.name
        end, waiting),
        ', '
      ) .. ', ' .. name
      util.notify(('activating %s ...'):format(all))
      request(bufnr, { uri, urls }, function(together, together_err)
        finish(together, together_err, all)
      end)
    end)
  end)
end

return M
