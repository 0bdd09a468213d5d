--- :AdtCompare: the buffer beside another version of its source (the active one, or a
--- revision from the version history), in diff mode.
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- Scratch buffers are named adt-version://<name>/<version>: not adt://, so they are never
--- read from or saved to the server.
M.SCHEME = 'adt-version://'

--- @param value any
--- @return string|nil
local function text(value)
  return (value ~= nil and value ~= vim.NIL and value ~= '') and tostring(value) or nil
end

--- A line of the version list: "version 3 (fix)  2026-11-20 10:15  DEVELOPER (A4HK900012)".
--- @param revision table
--- @return string
local function revision_label(revision)
  local parts = { text(revision.label) or text(revision.id) or '?' }
  local date = text(revision.date)
  if date then -- 2026-11-20T10:15:00Z -> 2026-11-20 10:15
    table.insert(parts, (date:gsub('^(%d+-%d+-%d+)T(%d+:%d+).*$', '%1 %2')))
  end
  if text(revision.author) then
    table.insert(parts, text(revision.author))
  end
  local label = table.concat(parts, '  ')
  return text(revision.transport) and ('%s (%s)'):format(label, revision.transport) or label
end

--- Show `version_text` in a scratch window beside the buffer's window; both in diff mode.
--- Wiping the scratch buffer ends the diff of the source window.
--- @param bufnr integer the adt:// buffer
--- @param version_text string
--- @param label string
--- @return integer scratch buffer
function M.show(bufnr, version_text, label)
  local name = ('%s%s/%s'):format(M.SCHEME, util.describe(vim.api.nvim_buf_get_name(bufnr)), label)
  local old = vim.fn.bufnr('^' .. vim.fn.escape(name, '\\/.*$^~[]') .. '$')
  if old > 0 then
    vim.api.nvim_buf_delete(old, { force = true })
  end
  local source_win = vim.fn.bufwinid(bufnr)
  if source_win == -1 then
    vim.cmd('buffer ' .. bufnr)
    source_win = vim.api.nvim_get_current_win()
  end
  vim.api.nvim_set_current_win(source_win)
  vim.cmd('leftabove vnew')
  local scratch = vim.api.nvim_get_current_buf()
  local bo = vim.bo[scratch]
  bo.buftype, bo.bufhidden, bo.swapfile = 'nofile', 'wipe', false
  vim.api.nvim_buf_set_name(scratch, name)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, vim.split(version_text, '\n', { plain = true }))
  bo.filetype = vim.bo[bufnr].filetype
  bo.modifiable, bo.readonly, bo.modified = false, true, false
  vim.cmd('diffthis')
  vim.api.nvim_win_call(source_win, function()
    vim.cmd('diffthis')
  end)
  vim.api.nvim_create_autocmd('BufWipeout', {
    buffer = scratch,
    once = true,
    desc = 'abap-adt: end the comparison',
    callback = function()
      if vim.api.nvim_win_is_valid(source_win) then
        vim.api.nvim_win_call(source_win, function()
          vim.cmd('diffoff')
        end)
      end
    end,
  })
  return scratch
end

--- Read `version` of the buffer's source and show it beside the buffer.
--- @param bufnr integer
--- @param version string active | inactive | a revision id
--- @param on_done fun(scratch: integer|nil)|nil
local function compare_with(bufnr, version, on_done)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  client.request_async(
    'adt/readVersion',
    { uri = uri, version = version },
    bufnr,
    function(result, err)
      local scratch
      if err or type(result) ~= 'table' or type(result.text) ~= 'string' then
        util.notify(
          ('cannot read version %s of %s: %s'):format(
            version,
            util.describe(uri),
            util.error_text(err or result)
          ),
          levels.ERROR
        )
      else
        scratch = M.show(bufnr, result.text, text(result.label) or version)
      end
      if on_done then
        on_done(scratch)
      end
    end
  )
end

--- :AdtCompare [active|inactive|REVISION]: without a version, pick one from the history
--- (the inactive version, if any, the active one, then older ones, newest first).
--- @param bufnr integer
--- @param version string|nil
--- @param on_done fun(scratch: integer|nil)|nil
function M.compare(bufnr, version, on_done)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) then
    util.notify('not an adt:// buffer', levels.ERROR)
    return
  end
  if version and version ~= '' then
    compare_with(bufnr, version, on_done)
    return
  end
  client.request_async('adt/versions', { uri = uri }, bufnr, function(versions, err)
    if err or type(versions) ~= 'table' then
      util.notify(
        ('no versions of %s: %s'):format(util.describe(uri), util.error_text(err or versions)),
        levels.ERROR
      )
      return
    end
    local choices = versions.revisions or {}
    if #choices == 0 then
      util.notify(('%s has no versions to compare with'):format(util.describe(uri)), levels.WARN)
      return
    end
    vim.ui.select(choices, {
      prompt = ('abap-adt: compare %s with'):format(util.describe(uri)),
      kind = 'abap_adt',
      format_item = revision_label,
    }, function(choice)
      if choice then
        compare_with(bufnr, tostring(choice.id), on_done)
      end
    end)
  end)
end

return M
