--- adt:// buffers: reading them from the server, saving, resolving conflicts, activating.
---
--- The buffer name is the document URI (Neovim keeps names with a scheme as they are). The
--- per-buffer state lives in b:abap_adt: { loaded, token, objectUrl, objectType, system,
--- changedAt, changedBy, inactive, conflict? }.
local client = require('abap_adt.client')
local config = require('abap_adt.config')
local restore = require('abap_adt.restore')
local kinds = require('abap_adt.kinds')
local sync = require('abap_adt.sync')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- Merge-conflict markers the server writes into the buffer (lsp_server/merge.py).
local OURS_MARK, THEIRS_MARK = '<<<<<<< yours (unsaved)', '>>>>>>> server'

--- @param bufnr integer
--- @param fields table values to set
--- @param clear string[]|nil keys to remove
function M.update_state(bufnr, fields, clear)
  local state = vim.b[bufnr].abap_adt or {}
  for key, value in pairs(fields) do
    state[key] = value
  end
  for _, key in ipairs(clear or {}) do
    state[key] = nil
  end
  vim.b[bufnr].abap_adt = state
end

--- @param bufnr integer
--- @return vim.lsp.Client|nil
local function attached_client(bufnr)
  local running = client.get()
  if running and vim.lsp.buf_is_attached(bufnr, running.id) then
    return running
  end
end

--- Put `text` into the buffer exactly: Neovim adds a line ending after the last line only
--- when 'eol' is set, so a text without a final newline (every ABAP source) gets 'noeol'.
--- 'nofixeol' keeps Neovim from adding one on its own; 'fileformat=unix' makes the line
--- ending "\n" (the LSP client sends "\r\n" for dos buffers, the server wants "\n").
--- @param bufnr integer
--- @param text string
local function fill(bufnr, text)
  local lines = vim.split(text, '\n', { plain = true })
  local eol = #lines > 1 and lines[#lines] == ''
  if eol then
    table.remove(lines)
  end
  local bo = vim.bo[bufnr]
  bo.swapfile = false
  bo.buftype = 'acwrite' -- :write runs BufWriteCmd
  local undolevels = bo.undolevels
  bo.undolevels = -1 -- loading is not an undoable change
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  bo.undolevels = undolevels
  bo.fileformat = 'unix'
  bo.eol = eol
  bo.fixeol = false
  -- before attaching: it is didOpen's languageId (abap-cds, abap-bdef … by the URI's kind)
  bo.filetype = kinds.filetype(vim.api.nvim_buf_get_name(bufnr), config.options.filetype)
  bo.modified = false -- after the options above, which count as changes otherwise
end

--- The text of the buffer as the server sees it.
M.text = sync.buffer_text

--- While positive, a failed read only records its reason in b:abap_adt.error (the caller,
--- :AdtOpen, reports it and wipes the buffer) instead of raising it as an error.
M.quiet_reads = 0

--- BufReadCmd: read the document from the server, fill the buffer, attach the client
--- (which sends didOpen with the same text).
--- @param bufnr integer
function M.read(bufnr)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  restore.reading[bufnr] = true -- a server started for this read must not restore it
  local ok, err = pcall(function()
    local running = attached_client(bufnr)
    if running then -- :edit of a loaded buffer: start over (didClose, then a fresh didOpen)
      vim.lsp.buf_detach_client(bufnr, running.id)
    end
    local result, rpc_err = client.request('adt/readDocument', { uri = uri })
    if not result then
      error(util.error_text(rpc_err), 0)
    end
    fill(bufnr, result.text)
    vim.b[bufnr].abap_adt = {
      loaded = true,
      token = result.token,
      objectUrl = result.objectUrl,
      objectType = result.objectType,
      system = result.system,
      changedAt = result.changedAt,
      changedBy = result.changedBy,
      inactive = result.inactive,
    }
    restore.watch(bufnr)
    restore.remember(bufnr, result.token, result.text)
    restore.attach_read(bufnr, client.ensure())
  end)
  restore.reading[bufnr] = nil
  if not ok then
    vim.b[bufnr].abap_adt = { loaded = false, error = tostring(err) }
    vim.bo[bufnr].buftype = 'acwrite'
    vim.bo[bufnr].swapfile = false
    if M.quiet_reads == 0 then
      util.notify(('cannot read %s: %s'):format(uri, err), levels.ERROR)
    end
  end
end

--- adt/baseVersion: the server version the buffer is based on changed (a save, a reload, a
--- refresh after somebody else saved, an agent's edit) or was activated; b:abap_adt follows.
--- @param params { uri: string, token: string, changedAt?: integer, changedBy?: string, inactive?: boolean, version?: integer, clean?: boolean }
function M.follow_base(params)
  local bufnr = util.find_buffer(params.uri)
  local state = bufnr and vim.b[bufnr].abap_adt
  if not (state and state.loaded) then
    return
  end
  local unknown = vim.tbl_filter(function(key)
    return params[key] == nil
  end, { 'changedBy', 'inactive' })
  M.update_state(bufnr, {
    token = params.token,
    changedAt = params.changedAt,
    changedBy = params.changedBy,
    inactive = params.inactive,
  }, unknown)
  restore.remember(bufnr, params.token)
  -- the server wrote what the buffer shows (a rename, an agent's edit): not unsaved any more,
  -- unless the buffer changed since (its changedtick is the version the server saw)
  if params.clean == true and params.version == vim.b[bufnr].changedtick then
    vim.bo[bufnr].modified = false
  end
end

--- Make sure the server has the buffer open (after a server restart it has not). It then
--- gets the buffer's text and the version the buffer was read at (b:abap_adt.token, see
--- restore.lua), and saves against that version: a change made on the server since is a
--- conflict, not something the save reverts.
--- @param bufnr integer
--- @return vim.lsp.Client
local function ensure_open(bufnr)
  local running = client.ensure()
  restore.attach(bufnr, running)
  restore.flush(bufnr)
  return running
end

--- @param ms number|nil epoch milliseconds
local function when(ms)
  return type(ms) == 'number' and os.date(' at %Y-%m-%d %H:%M', math.floor(ms / 1000)) or ''
end

--- Tell the user about a conflict and remember it for :AdtResolve.
local function report_conflict(bufnr, uri, conflict)
  local details = type(conflict) == 'table' and conflict.details or {}
  local by = details.changedBy ~= nil and details.changedBy ~= vim.NIL and details.changedBy
    or 'somebody else'
  M.update_state(bufnr, { conflict = details })
  -- the server asks what to do unless the user turned its question off
  local asks = (config.options.init_options or {}).askOnConflict ~= false
  util.notify(
    ('NOT saved: %s was changed on the server by %s%s. Your edits are kept. %s'):format(
      util.describe(uri),
      by,
      when(details.changedAt),
      asks and 'Choose reload, overwrite or merge when asked, or run :AdtResolve.'
        or 'Run :AdtResolve reload, overwrite or merge.'
    ),
    levels.WARN
  )
end

--- Show the result of adt/saveDocument or adt/resolveConflict; mark the buffer saved when
--- the server has its text.
--- @param in_write boolean inside BufWriteCmd (which updates the undo information itself)
local function report_result(bufnr, uri, result, in_write)
  local name = util.describe(uri)
  local status = result.status
  if status == 'saved' or status == 'merged' or status == 'unchanged' or status == 'reloaded' then
    if in_write then
      vim.bo[bufnr].modified = false
    else
      util.mark_saved(bufnr)
    end
    M.update_state(bufnr, {
      token = result.token,
      changedAt = result.changedAt,
      changedBy = result.changedBy,
    }, { 'conflict' })
    restore.remember(bufnr, result.token)
    local message = ({
      saved = ('saved %s (%s change%s)'):format(
        name,
        result.hunks or '?',
        result.hunks == 1 and '' or 's'
      ),
      merged = ('merged and saved %s: your edits and the server changes'):format(name),
      unchanged = ('%s: nothing to save, it equals the server version'):format(name),
      reloaded = ('reloaded %s from the server; your edits are gone (u brings them back)'):format(
        name
      ),
    })[status]
    util.notify(message)
  elseif status == 'conflict' then
    report_conflict(bufnr, uri, result.conflict)
  elseif status == 'mergeConflicts' then
    local conflicts = result.conflicts or {}
    local first = conflicts[1] and conflicts[1][1]
    M.update_state(bufnr, {}, { 'conflict' })
    util.notify(
      (
        'NOT saved: %s has %d overlapping change%s, marked with %s ... %s%s. '
        .. 'Keep what should stay, delete the markers, then :w.'
      ):format(
        name,
        #conflicts,
        #conflicts == 1 and '' or 's',
        OURS_MARK,
        THEIRS_MARK,
        first and (' from line %d'):format(first) or ''
      ),
      levels.WARN
    )
  elseif status == 'noConflict' then
    util.notify(('%s: no conflict to resolve'):format(name))
  else -- 'error' and anything unexpected
    local err = result.error or result
    util.notify(('NOT saved %s: %s'):format(name, util.error_text(err)), levels.ERROR)
  end
end

--- Whether the buffer still contains the server's merge-conflict markers.
--- @param bufnr integer
--- @return integer|nil line (1-based) of the first marker
local function marker_line(bufnr)
  local ours
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line == OURS_MARK then
      ours = ours or i
    elseif line == THEIRS_MARK and ours then
      return ours
    end
  end
end

--- adt/saveDocument; a question of the server before the answer ends the wait early.
local function save(bufnr, uri)
  return client.request('adt/saveDocument', { uri = uri }, bufnr, {
    on_late = function(late, late_err)
      M.report_late(bufnr, uri, late, late_err, 'NOT saved')
    end,
  })
end

--- Whether the server answered "unchanged" about a text that is not the buffer's (the token
--- carries a hash of the server's text).
local function differs(bufnr, result)
  return result ~= nil
    and result.status == 'unchanged'
    and not restore.matches(M.text(bufnr), result.token)
end

--- BufWriteCmd: save through adt/saveDocument. The buffer stays modified unless the server
--- has the text (then :wq quits, otherwise it does not).
--- @param bufnr integer
--- @param target string the name written to (<amatch>)
--- @param force boolean :write!
function M.write(bufnr, target, force)
  if util.marking[bufnr] then -- util.mark_saved(): the server already has the text
    vim.bo[bufnr].modified = false
    return
  end
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if target ~= uri then
    util.notify(
      ('cannot write %s to another ADT object (%s)'):format(util.describe(uri), target),
      levels.ERROR
    )
    return
  end
  local state = vim.b[bufnr].abap_adt
  if not (state and state.loaded) then
    -- never attach a buffer that was not read: the server would take the empty buffer as
    -- "delete everything"
    util.notify(
      ('%s was not read from the server; :edit to try again'):format(util.describe(uri)),
      levels.ERROR
    )
    return
  end
  local marker = marker_line(bufnr)
  if marker and not force then
    util.notify(
      (
        'NOT saved: %s still has merge-conflict markers (line %d). '
        .. 'Resolve them, or :w! to save them as they are.'
      ):format(util.describe(uri), marker),
      levels.ERROR
    )
    return
  end
  local ok, running = pcall(ensure_open, bufnr)
  if not ok then
    util.notify(('NOT saved %s: %s'):format(util.describe(uri), running), levels.ERROR)
    return
  end
  if restore.failed[bufnr] then
    util.notify(
      (
        'NOT saved: %s could not be handed over to the restarted language server (%s), so '
        .. "a save could revert somebody else's change. Your edits are kept; :AdtRestart "
        .. 'tries again.'
      ):format(util.describe(uri), restore.failed[bufnr]),
      levels.ERROR
    )
    return
  end
  local result, rpc_err = save(bufnr, uri)
  if differs(bufnr, result) then
    -- The server's copy is not the buffer (changes that never reached it): open it again
    -- with the buffer's text and the version it was read at, and save once more.
    restore.reopen(bufnr, running)
    result, rpc_err = save(bufnr, uri)
    if differs(bufnr, result) then
      result, rpc_err = nil, { message = "the server's copy differs from the buffer; :AdtRestart" }
    end
  end
  if rpc_err and rpc_err.deferred then
    util.notify(
      ('%s: answer the question; the save finishes then'):format(util.describe(uri)),
      levels.WARN
    )
  elseif not result then
    util.notify(
      ('NOT saved %s: %s'):format(util.describe(uri), util.error_text(rpc_err)),
      levels.ERROR
    )
  else
    report_result(bufnr, uri, result, true)
  end
end

--- The answer to a save or resolve that stopped waiting for it (the server asked the user
--- something first): report it, and mark the buffer saved when it is.
--- @param failed string how a failure starts ("NOT saved")
function M.report_late(bufnr, uri, result, err, failed)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if result then
    report_result(bufnr, uri, result, false)
  else
    util.notify(
      ('%s %s: %s'):format(failed, util.describe(uri), util.error_text(err)),
      levels.ERROR
    )
  end
end

M.CHOICES = { 'reload', 'overwrite', 'merge' }

--- :AdtResolve: answer a save conflict (see docs/lsp-protocol.md, adt/resolveConflict).
--- @param bufnr integer
--- @param choice string reload | overwrite | merge
function M.resolve(bufnr, choice)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not vim.tbl_contains(M.CHOICES, choice) then
    util.notify('choose reload, overwrite or merge', levels.ERROR)
    return
  end
  if not util.is_adt_uri(uri) or not attached_client(bufnr) then
    util.notify('not an open adt:// buffer', levels.ERROR)
    return
  end
  local result, err = client.request('adt/resolveConflict', { uri = uri, choice = choice }, bufnr, {
    on_late = function(late, late_err)
      M.report_late(bufnr, uri, late, late_err, ('cannot resolve (%s)'):format(choice))
    end,
  })
  if err and err.deferred then
    util.notify(
      ('%s: answer the question; resolving (%s) finishes then'):format(util.describe(uri), choice),
      levels.WARN
    )
    return
  elseif not result then
    util.notify(
      ('cannot resolve (%s) %s: %s'):format(choice, util.describe(uri), util.error_text(err)),
      levels.ERROR
    )
    return
  end
  report_result(bufnr, uri, result, false)
end

return M
