local M = {}

--- @param uri string
--- @return boolean
function M.is_adt_uri(uri)
  return type(uri) == 'string' and uri:sub(1, 6) == 'adt://'
end

--- A short name for messages: "ZDEMO_REPORT", "ZCL_DEMO_GREETER (implementations)",
--- "/ABC/CL_X".
--- @param uri string
--- @return string
function M.describe(uri)
  local path = uri:match('^adt://[^/]*(/.*)$') or uri
  local name = path:match('/([^/]+)/source/main$')
  local include
  if not name then
    name, include = path:match('/([^/]+)/includes/([^/]+)$')
  end
  if not name then
    return uri
  end
  name = vim.uri_decode(name):upper()
  return include and ('%s (%s)'):format(name, include) or name
end

--- vim.notify with our prefix (notification plugins get a title as well).
--- @param message string
--- @param level integer|nil vim.log.levels.*, default INFO
function M.notify(message, level)
  vim.notify('abap-adt: ' .. message, level or vim.log.levels.INFO, { title = 'abap-adt' })
end

--- The message of a JSON-RPC error or of a V2 error object.
--- @param err table|string|nil
--- @return string
function M.error_text(err)
  if type(err) ~= 'table' then
    return tostring(err)
  end
  local text = err.message or err.error or vim.inspect(err)
  local data = err.data
  if type(data) == 'table' and data.name then
    text = ('%s [%s]'):format(text, data.name)
  elseif err.name then
    text = ('%s [%s]'):format(text, err.name)
  end
  return text
end

--- Buffers being marked saved by mark_saved() (BufWriteCmd then only resets 'modified').
M.marking = {} --- @type table<integer, true>

--- Mark a buffer saved: the server has its text. Going through :write (instead of just
--- resetting 'modified') lets Neovim update its undo information, so undoing past this
--- point marks the buffer modified again. BufWriteCmd sees the mark and sends nothing.
--- @param bufnr integer
function M.mark_saved(bufnr)
  if not vim.bo[bufnr].modified then
    return
  end
  local ours = vim.api.nvim_get_autocmds({ group = 'abap_adt', event = 'BufWriteCmd' })
  local ignored = vim.o.eventignore:lower()
  if #ours > 0 and not ignored:find('all') and not ignored:find('bufwritecmd') then
    M.marking[bufnr] = true
    pcall(vim.api.nvim_buf_call, bufnr, function()
      vim.cmd('silent keepalt write')
    end)
    M.marking[bufnr] = nil
  end
  vim.bo[bufnr].modified = false
end

return M
