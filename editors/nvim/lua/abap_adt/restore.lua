--- Nothing lost when the language server goes away (a crash, kill -9, :AdtRestart, a client
--- started by another plugin).
---
--- A new server knows none of the buffers. Each one it gets is opened with the buffer's text
--- (didOpen, unsaved edits included) and then handed the version the buffer was read at:
--- adt/restoreDocument with b:abap_adt.token and, when we still have it, that version's
--- text. The server then saves against that version, so a colleague's change made meanwhile
--- is a conflict (reload, overwrite, merge), never reverted. See docs/lsp-protocol.md.
---
--- Neovim stops following a buffer's changes for good when one happens while no client is
--- attached (its on_lines listener detaches itself, and attaching again does not start a
--- new one). We notice that with a listener of our own and let Neovim listen again before
--- the buffer is attached to the new client; where that is not possible, the buffer's whole
--- text is sent after each change instead.
local sync = require('abap_adt.sync')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- The text of the version each buffer is based on (the one b:abap_adt.token names).
M.bases = {} --- @type table<integer, string>
--- Buffers being read (BufReadCmd): attached by the read itself, never restored.
M.reading = {} --- @type table<integer, true>
--- Buffers whose restore failed: the reason (the server refuses to save them until a restore
--- succeeds; we say so before asking it).
M.failed = {} --- @type table<integer, string>

local fresh = {} --- @type table<integer, true> attached right after a read: nothing to restore
local watched = {} --- @type table<integer, true>
local lost = {} --- @type table<integer, true> Neovim's change listener detached itself
local whole = {} --- @type table<integer, true> send the whole text after each change
local queued = {} --- @type table<integer, true>

--- Whether `text` is the content the token names (the token carries a hash of it).
--- @param text string
--- @param token string|nil
--- @return boolean
function M.matches(text, token)
  if token == '0_empty' then
    return text == ''
  end
  local hash = type(token) == 'string' and token:match('^%d+_(%x+)$')
  return hash and vim.fn.sha256(text):sub(1, #hash) == hash or false
end

--- The buffer is based on version `token` now: keep its text when the buffer shows it.
--- @param bufnr integer
--- @param token string|nil
--- @param text string|nil the version's text when known (a read), else the buffer's
function M.remember(bufnr, token, text)
  text = text or sync.buffer_text(bufnr)
  if M.matches(text, token) then
    M.bases[bufnr] = text
  end
end

--- A function's upvalue by name.
local function upvalue(fn, name)
  for i = 1, 200 do
    local found, value = debug.getupvalue(fn, i)
    if found == nil then
      return nil
    elseif found == name then
      return value
    end
  end
end

--- Let Neovim follow the buffer's changes again after its listener detached itself.
--- @return boolean done (false: Neovim's internals differ; the whole text is sent instead)
local function relisten(bufnr)
  if not lost[bufnr] then
    return true
  end
  local attach = upvalue(vim.lsp.buf_attach_client, 'buf_attach')
  local following = type(attach) == 'function' and upvalue(attach, 'attached_buffers')
  if type(following) ~= 'table' then
    return false
  end
  following[bufnr] = nil
  lost[bufnr] = nil
  vim.lsp.util.buf_versions[bufnr] = vim.b[bufnr].changedtick
  return true
end

--- Send the whole text of the buffer (only where Neovim's listener could not be restarted).
local function send_whole(bufnr)
  queued[bufnr] = nil
  local running = require('abap_adt.client').get()
  if not (running and vim.api.nvim_buf_is_loaded(bufnr)) then
    return
  end
  if vim.lsp.buf_is_attached(bufnr, running.id) then
    running:notify('textDocument/didChange', {
      textDocument = {
        uri = vim.api.nvim_buf_get_name(bufnr),
        version = vim.b[bufnr].changedtick,
      },
      contentChanges = { { text = sync.buffer_text(bufnr) } },
    })
  end
end

--- Send what is still queued for the buffer (before a save).
--- @param bufnr integer
function M.flush(bufnr)
  if queued[bufnr] then
    send_whole(bufnr)
  end
end

--- Watch an adt:// buffer's changes for as long as it is loaded.
--- @param bufnr integer
function M.watch(bufnr)
  if watched[bufnr] then
    return
  end
  watched[bufnr] = true
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      -- Neovim's own listener makes the same test and detaches itself when it holds
      if #vim.lsp.get_clients({ bufnr = bufnr, _uninitialized = true }) == 0 then
        lost[bufnr] = true
      elseif whole[bufnr] and not queued[bufnr] then
        queued[bufnr] = true
        vim.schedule(function()
          send_whole(bufnr)
        end)
      end
    end,
    on_detach = function()
      watched[bufnr], lost[bufnr], whole[bufnr], queued[bufnr] = nil, nil, nil, nil
      M.bases[bufnr], M.failed[bufnr], fresh[bufnr] = nil, nil, nil
    end,
  })
end

--- Attach a buffer that was just read (its didOpen carries the server's version).
--- @param bufnr integer
--- @param running vim.lsp.Client
function M.attach_read(bufnr, running)
  M.failed[bufnr] = nil
  whole[bufnr] = not relisten(bufnr) or nil
  fresh[bufnr] = true
  vim.lsp.buf_attach_client(bufnr, running.id)
  fresh[bufnr] = nil
end

--- Attach a buffer to a client that does not know it yet; on_attach restores it.
--- @param bufnr integer
--- @param running vim.lsp.Client
function M.attach(bufnr, running)
  if not vim.lsp.buf_is_attached(bufnr, running.id) then
    whole[bufnr] = not relisten(bufnr) or nil
    vim.lsp.buf_attach_client(bufnr, running.id)
  end
end

--- The adt:// buffers that were read from the server.
--- @return integer[]
function M.buffers()
  return vim.tbl_filter(function(bufnr)
    local state = vim.api.nvim_buf_is_loaded(bufnr) and vim.b[bufnr].abap_adt
    return state and state.loaded and state.token ~= nil and not M.reading[bufnr] or false
  end, vim.api.nvim_list_bufs())
end

--- A new client: hand it every buffer.
--- @param running vim.lsp.Client
function M.attach_all(running)
  for _, bufnr in ipairs(M.buffers()) do
    M.attach(bufnr, running)
  end
end

--- @param ms number|nil epoch milliseconds
local function when(ms)
  return type(ms) == 'number' and os.date(' at %Y-%m-%d %H:%M', math.floor(ms / 1000)) or ''
end

--- Tell the user what the server found.
local function report(bufnr, uri, result, err)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local name = util.describe(uri)
  if err or not result then
    M.failed[bufnr] = util.error_text(err)
    util.notify(
      (
        'could not hand %s over to the restarted language server: %s. Your edits are kept; '
        .. ':w is refused until :AdtRestart succeeds.'
      ):format(name, M.failed[bufnr]),
      levels.ERROR
    )
    return
  end
  M.failed[bufnr] = nil
  if result.status == 'current' then
    return
  end
  local by = type(result.changedBy) == 'string' and result.changedBy or 'somebody else'
  local edited = vim.bo[bufnr].modified
  local next_step = edited
      and 'Your unsaved edits are kept; :w asks whether to reload, overwrite or merge.'
    or ':w brings the new version into the buffer.'
  if result.status == 'baseUnknown' and edited then
    next_step = next_step
      .. ' The version you read is not known any more, so a merge marks every difference.'
  end
  util.notify(
    ('%s was changed on the server by %s%s since you read it. %s'):format(
      name,
      by,
      when(result.changedAt),
      next_step
    ),
    levels.WARN
  )
end

--- on_attach: restore a buffer the client did not read itself.
--- @param running vim.lsp.Client
--- @param bufnr integer
function M.attached(running, bufnr)
  local state = vim.b[bufnr].abap_adt
  if fresh[bufnr] or not (state and state.loaded and state.token) then
    return
  end
  local uri = vim.api.nvim_buf_get_name(bufnr)
  local params = { uri = uri, baseToken = state.token, baseText = M.bases[bufnr] }
  M.failed[bufnr] = nil -- a new attempt: until it fails, the server decides (it refuses too)
  running:request('adt/restoreDocument', params, function(err, result)
    report(bufnr, uri, result, err)
  end, bufnr)
end

--- Open the buffer in the server again (didClose, didOpen with its text, restore): its copy
--- differs from the buffer.
--- @param bufnr integer
--- @param running vim.lsp.Client
function M.reopen(bufnr, running)
  if vim.lsp.buf_is_attached(bufnr, running.id) then
    vim.lsp.buf_detach_client(bufnr, running.id)
  end
  M.attach(bufnr, running)
end

return M
