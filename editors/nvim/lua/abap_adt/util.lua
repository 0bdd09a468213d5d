local M = {}

--- @param uri string
--- @return boolean
function M.is_adt_uri(uri)
  return type(uri) == 'string' and uri:sub(1, 6) == 'adt://'
end

--- The loaded buffer named `uri`, if any (without creating one, unlike vim.uri_to_bufnr).
--- @param uri string
--- @return integer|nil
function M.find_buffer(uri)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.api.nvim_buf_get_name(bufnr) == uri then
      return bufnr
    end
  end
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
  local name = type(data) == 'table' and data.name or err.name
  if name then
    text = ('%s [%s]'):format(text, name)
  end
  if name == 'AUTH_FAILED' then -- what to do, in Neovim's words
    text = text
      .. '. Correct the password (or user) of the system in setup() (init_options.systems:'
      .. ' password or the variable named by passwordEnv), then run :AdtRestart.'
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

--- vim.ui.input inside a coroutine: the text entered, or nil when cancelled. Works with
--- synchronous and asynchronous input plugins alike.
--- @param opts table vim.ui.input options
--- @return string|nil
function M.input(opts)
  local co = assert(coroutine.running(), 'util.input needs a coroutine')
  vim.ui.input(opts, function(text)
    vim.schedule(function() -- after our yield, also when vim.ui.input answered at once
      coroutine.resume(co, text)
    end)
  end)
  return coroutine.yield()
end

--- vim.ui.select inside a coroutine: the chosen item, or nil when dismissed.
--- @param items any[]
--- @param opts table vim.ui.select options
--- @return any|nil
function M.select(items, opts)
  local co = assert(coroutine.running(), 'util.select needs a coroutine')
  vim.ui.select(items, opts, function(item)
    vim.schedule(function()
      coroutine.resume(co, item)
    end)
  end)
  return coroutine.yield()
end

--- Run `fn` as a coroutine (for a sequence of questions); an error in it becomes a message.
--- @param fn fun()
function M.run(fn)
  coroutine.wrap(function()
    local ok, err = xpcall(fn, debug.traceback)
    if not ok then
      M.notify(tostring(err), vim.log.levels.ERROR)
    end
  end)()
end

return M
