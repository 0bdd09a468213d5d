--- The one language-server client shared by every adt:// buffer.
local config = require('abap_adt.config')
local sync = require('abap_adt.sync')
local util = require('abap_adt.util')

local M = {}

--- How often a request's wait was extended because a browser logon was under way.
M.logon_waits = 0

M.NAME = 'abap_adt'

--- Synchronous requests in flight (reading, saving, resolving). A question from the server
--- that comes after their answer waits until they are done, so it never pops up in the
--- middle of a :write.
M.busy = 0

--- The synchronous requests being waited for, innermost last:
--- { answered: boolean, deferrable: boolean, asked: boolean }.
local waits = {}

local client_id --- @type integer|nil the client we started last

--- The running client, if any (also while it is still initializing).
--- @return vim.lsp.Client|nil
function M.get()
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if client and not client:is_stopped() then
    return client
  end
  -- a client of ours started by somebody else (another plugin restarting it)
  for _, other in ipairs(vim.lsp.get_clients({ name = M.NAME })) do
    if not other:is_stopped() and other.initialized then
      client_id = other.id
      M.adopt(other)
      return other
    end
  end
end

--- The answers to the server's conflict question (lsp_server/features/conflicts.py).
local CONFLICT_ACTIONS = { ['Reload theirs'] = true, ['Overwrite with mine'] = true, Merge = true }

--- Let the coroutine `co` sleep `ms` milliseconds.
local function pause(co, ms)
  vim.defer_fn(function()
    coroutine.resume(co)
  end, ms)
  coroutine.yield()
end

--- window/showMessageRequest: ask with vim.ui.select (any picker plugin may provide it).
--- Runs in a coroutine (Neovim dispatches server requests that way); the chosen action, or
--- null when dismissed, is the response.
---
--- A question that arrives while a synchronous request still waits for its answer is part of
--- that request (the server asks for a transport request before it can save). Neovim takes
--- no keys while it waits, so a picker could not be answered: a save stops waiting (it
--- finishes when the question is answered, see document.write) and the question is asked
--- afterwards; any other request gets the question at once (a built-in prompt works there).
--- A question that comes after the answer (a save conflict) waits until the :write has
--- reported its outcome.
local function show_message_request(err, params, ctx)
  local co, is_main = coroutine.running()
  if not co or is_main then -- cannot wait for an answer here: let Neovim's handler do it
    return vim.lsp.handlers['window/showMessageRequest'](err, params, ctx)
  end
  local blocked = waits[#waits]
  if blocked and not blocked.answered then
    blocked.asked = true
  end
  if not (blocked and not blocked.answered and not blocked.deferrable) then
    while M.busy > 0 do
      pause(co, 20)
    end
  end
  local actions = params.actions or {}
  vim.ui.select(actions, {
    prompt = 'abap-adt: ' .. params.message,
    kind = 'abap_adt',
    format_item = function(action)
      return action.title
    end,
  }, function(choice)
    -- resume later: with a synchronous vim.ui.select we have not yielded yet
    vim.schedule(function()
      coroutine.resume(co, choice or vim.NIL)
    end)
  end)
  local choice = coroutine.yield()
  if choice ~= vim.NIL and CONFLICT_ACTIONS[choice.title] then
    -- The server resolves on its own and does not report back: the buffer stays modified
    -- until the next :w, which then saves only what is still unsaved (usually nothing).
    util.notify(
      ('%s: the server carries it out; :w afterwards marks the buffer saved'):format(choice.title)
    )
  end
  return choice
end

local LEVELS = {
  [1] = vim.log.levels.ERROR,
  [2] = vim.log.levels.WARN,
  [3] = vim.log.levels.INFO,
  [4] = vim.log.levels.DEBUG,
}

--- window/showMessage through vim.notify, so notification plugins show it.
local function show_message(_, params)
  util.notify(params.message, LEVELS[params.type] or vim.log.levels.INFO)
  return vim.NIL
end

--- workspace/applyEdit: Neovim's handler, but an adt:// buffer that was unmodified stays
--- unmodified. The server edits a clean document only to show a newer server version (a
--- refresh after somebody else saved), so the buffer still equals what the server stores.
local function apply_edit(err, params, ctx)
  local clean = {}
  local edit = params and params.edit or {}
  local uris = vim.tbl_keys(edit.changes or {})
  for _, change in ipairs(edit.documentChanges or {}) do
    table.insert(uris, change.textDocument and change.textDocument.uri)
  end
  for _, uri in ipairs(uris) do
    if util.is_adt_uri(uri) then
      local bufnr = vim.uri_to_bufnr(uri)
      if vim.api.nvim_buf_is_loaded(bufnr) and not vim.bo[bufnr].modified then
        table.insert(clean, bufnr)
      end
    end
  end
  local result = vim.lsp.handlers['workspace/applyEdit'](err, params, ctx)
  for _, bufnr in ipairs(clean) do
    util.mark_saved(bufnr)
  end
  return result
end

--- Route our didOpen/didChange through sync.repair (see sync.lua). Only the notifications
--- are rewritten; Neovim's own change tracking is left alone.
--- @param client vim.lsp.Client
local followed = setmetatable({}, { __mode = 'k' }) --- @type table<vim.lsp.Client, true>

local function follow_documents(client)
  if followed[client] then
    return
  end
  followed[client] = true
  local counts = {} --- @type table<string, integer> lines the server sees, per URI
  for bufnr in pairs(client.attached_buffers) do -- opened before we saw the client
    if vim.api.nvim_buf_is_loaded(bufnr) then
      counts[vim.api.nvim_buf_get_name(bufnr)] = sync.buffer_line_count(bufnr)
    end
  end
  local notify = client.notify
  --- @diagnostic disable-next-line: duplicate-set-field
  client.notify = function(self, method, params)
    if method == 'textDocument/didChange' and params then
      local uri = params.textDocument.uri
      if counts[uri] then
        params, counts[uri] = sync.repair_all(params, counts[uri], vim.uri_to_bufnr(uri))
      end
    elseif method == 'textDocument/didOpen' and params then
      local doc = params.textDocument
      if util.is_adt_uri(doc.uri) then
        counts[doc.uri] = sync.line_count(doc.text)
      end
    elseif method == 'textDocument/didClose' and params then
      counts[params.textDocument.uri] = nil
    end
    return notify(self, method, params)
  end
end

--- Show our diagnostics as the `diagnostics` option says (default: with their messages as
--- virtual text, which Neovim 0.11 turned off by default, so a syntax error is more than a
--- sign). Left alone when the option is false or the user shows virtual text or lines
--- globally already.
--- @param client vim.lsp.Client
local function show_diagnostics(client)
  local wanted = config.options.diagnostics
  local global = vim.diagnostic.config() or {}
  if type(wanted) ~= 'table' or global.virtual_text or global.virtual_lines then
    return
  end
  vim.diagnostic.config(wanted, vim.lsp.diagnostic.get_namespace(client.id, false))
end

--- Keep the code lenses ("Run tests" over local test classes and methods) of a buffer
--- current, when the `codelens` option asks for it (Neovim shows lenses only when asked).
--- @param client vim.lsp.Client
--- @param bufnr integer
local function show_code_lenses(client, bufnr)
  if not config.options.codelens or not client:supports_method('textDocument/codeLens') then
    return
  end
  local function refresh()
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.lsp.buf_is_attached(bufnr, client.id) then
      vim.lsp.codelens.refresh({ bufnr = bufnr })
    end
  end
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
    group = vim.api.nvim_create_augroup('abap_adt_codelens_' .. bufnr, { clear = true }),
    buffer = bufnr,
    desc = 'abap-adt: refresh the code lenses',
    callback = refresh,
  })
  vim.schedule(refresh)
end

--- Start the client (or return the running one), initialized.
--- @return vim.lsp.Client
function M.ensure()
  local opts = config.options
  local client = M.get()
  local started = false
  if not client then
    local cmd = opts.cmd
    if type(cmd) == 'table' and vim.fn.executable(cmd[1]) ~= 1 then
      error(
        ('cannot start the language server: %q is not executable (set cmd in setup())'):format(
          cmd[1]
        ),
        0
      )
    end
    local capabilities = vim.lsp.protocol.make_client_capabilities()
    if opts.capabilities then
      capabilities = vim.tbl_deep_extend('force', capabilities, opts.capabilities)
    end
    -- browser logons are shown here (abap_adt.logon), not opened by the server itself
    capabilities.experimental = vim.tbl_extend(
      'force',
      capabilities.experimental or {},
      { [require('abap_adt.logon').CAPABILITY] = true }
    )
    local id = vim.lsp.start({
      name = M.NAME,
      cmd = cmd,
      cmd_env = opts.cmd_env,
      root_dir = opts.root_dir or vim.fn.getcwd(),
      init_options = opts.init_options or vim.empty_dict(),
      capabilities = capabilities,
      flags = { debounce_text_changes = opts.debounce_text_changes },
      handlers = {
        ['window/showMessageRequest'] = show_message_request,
        ['window/showMessage'] = show_message,
        ['workspace/applyEdit'] = apply_edit,
        ['adt/baseVersion'] = function(_, params)
          require('abap_adt.document').follow_base(params)
        end,
        -- an agent's change (MCP passthrough) was refused because of this buffer's unsaved
        -- edits: the agent is told, and so is the user, who can save or undo to unblock it
        ['adt/agentEditRefused'] = function(_, params)
          util.notify(params.message, vim.log.levels.WARN)
        end,
        ['adt/logon'] = function(_, params)
          require('abap_adt.logon').show(params)
        end,
      },
      on_attach = function(client, bufnr)
        M.adopt(client)
        require('abap_adt.restore').attached(client, bufnr)
        show_code_lenses(client, bufnr)
        if opts.on_attach then
          opts.on_attach(client, bufnr)
        end
      end,
      on_exit = function(code, signal)
        if code ~= 0 or (signal ~= 0 and signal ~= 15) then
          vim.schedule(function()
            util.notify(
              (
                'the language server stopped (exit code %d, signal %d). Your buffers and '
                .. 'unsaved edits are kept: :w, :e or :AdtRestart starts it again and hands '
                .. 'every buffer over'
              ):format(code, signal),
              vim.log.levels.ERROR
            )
          end)
        end
      end,
    }, {
      attach = false,
      reuse_client = function()
        return false -- M.get() already looked for a live one
      end,
    })
    client = id and vim.lsp.get_client_by_id(id)
    client_id = id
    if not client then
      error('cannot start the language server: ' .. table.concat(cmd, ' '), 0)
    end
    M.adopt(client)
    started = true
  end
  if not client.initialized then
    vim.wait(opts.timeout, function()
      return client.initialized or client:is_stopped()
    end, 10)
    if not client.initialized then
      error('the language server did not start (see :LspLog)', 0)
    end
  end
  if started then -- a new server: every buffer, with the version it was read at
    require('abap_adt.restore').attach_all(client)
  end
  return client
end

--- Follow a client of ours (once): the didChange repair, our diagnostics display.
--- @param client vim.lsp.Client
function M.adopt(client)
  if not followed[client] then
    follow_documents(client)
    show_diagnostics(client)
  end
end

--- :AdtRestart: stop the language server (it releases its locks) and start a new one, which
--- gets every buffer with its unsaved edits and the version it was read at.
--- @return vim.lsp.Client
function M.restart()
  local old = M.get()
  if old then
    M.stop()
    vim.wait(config.options.exit_timeout, function()
      return vim.lsp.get_client_by_id(old.id) == nil
    end, 20)
  end
  client_id = nil
  return M.ensure()
end

--- Send a request and wait for the answer (starting the server if needed).
---
--- With `opts.on_late`, the wait ends early when the server asks the user something before
--- it can answer (see show_message_request): the result is then `nil, { deferred = true }`
--- and `opts.on_late(result, err)` runs when the answer comes.
--- @param method string
--- @param params table
--- @param bufnr integer|nil pending changes of this buffer are sent first
--- @param opts { on_late?: fun(result: any, err: table|nil) }|nil
--- @return any result, table|nil err  err: { code?, message, data?, deferred? }
function M.request(method, params, bufnr, opts)
  opts = opts or {}
  local started, client = pcall(M.ensure)
  if not started then
    return nil, { message = tostring(client) }
  end
  local wait = { answered = false, deferrable = opts.on_late ~= nil, asked = false }
  local answer = {} --- @type { err?: table, result?: any }
  local late --- @type fun(result: any, err: table|nil)|nil
  local sent, request_id = client:request(method, params, function(err, result)
    wait.answered, answer.err, answer.result = true, err, result
    if late then
      late(result, err)
    end
  end, bufnr)
  if not sent then
    return nil, { message = 'the language server is not running' }
  end
  M.busy = M.busy + 1
  table.insert(waits, wait)
  local timeout = config.options.timeout
  local function done()
    return wait.answered or (wait.deferrable and wait.asked)
  end
  local ok, code = vim.wait(timeout, done, 10)
  -- a logon in the browser (MFA, a slow identity provider) may take longer than `timeout`:
  -- the request waits as long as the logon does (Ctrl-C still interrupts), then `timeout` more
  while not ok and code == -1 and require('abap_adt.logon').pending() and not client:is_stopped() do
    M.logon_waits = M.logon_waits + 1
    ok, code = vim.wait(timeout, done, 10)
  end
  table.remove(waits)
  M.busy = M.busy - 1
  if wait.answered then
    if answer.err then
      return nil, answer.err
    end
    return answer.result
  elseif ok then -- the server asks first; its answer comes later
    late = opts.on_late
    return nil, { deferred = true, message = 'waiting for your answer to the question' }
  end
  client:cancel_request(request_id)
  return nil,
    {
      message = code == -1 and ('no answer within %d ms'):format(timeout)
        or 'interrupted (the request was cancelled)',
    }
end

--- Send a request; `callback(result, err)` runs when the answer is there.
--- @param method string
--- @param params table
--- @param bufnr integer|nil
--- @param callback fun(result: any, err: table|nil)
function M.request_async(method, params, bufnr, callback)
  local started, client = pcall(M.ensure)
  if not started then
    callback(nil, { message = tostring(client) })
    return
  end
  client:request(method, params, function(err, result)
    callback(result, err)
  end, bufnr)
end

--- Stop the client and wait (at most `timeout` ms) until the server has exited, so it can
--- release its locks first. Neovim's own exit handler sends `shutdown` and quits without
--- waiting (or, with flags.exit_timeout, always waits that long); the server would be gone
--- before its unlock requests.
--- @param timeout integer|nil
--- @return boolean stopped
function M.stop(timeout)
  -- also a client that is already stopping (Neovim's own VimLeavePre handler stops it)
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if not client or client.rpc.is_closing() then
    return true
  end
  client:stop()
  return vim.wait(timeout or config.options.exit_timeout, function()
    return client.rpc.is_closing()
  end, 20)
end

return M
