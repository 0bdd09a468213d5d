--- Options of require('abap_adt').setup() and their defaults.
local M = {}

M.defaults = {
  --- How to start the language server.
  cmd = { 'abap-adt', 'lsp' },
  --- Extra environment for the server process (merged into Neovim's).
  cmd_env = nil,
  --- initializationOptions: systems, default, lockMode, pollInterval, checkDelay, mergeOnSave, ...
  --- (see docs/lsp-protocol.md). Empty: the server reads its configuration file.
  init_options = {},
  --- Workspace root reported to the server (default: the current directory at start).
  root_dir = nil,
  --- Client capabilities merged over Neovim's defaults, e.g.
  --- { general = { positionEncodings = { 'utf-16' } } }.
  capabilities = nil,
  --- function(client, bufnr), called when an adt:// buffer is attached.
  on_attach = nil,
  --- Milliseconds to wait for reading, saving and resolving (they block the editor); a
  --- logon in the browser under way adds its own duration.
  timeout = 60000,
  --- Milliseconds to wait at exit for the server to release its locks.
  exit_timeout = 3000,
  --- Milliseconds of quiet before edits are sent to the server. 0: at once (the server's
  --- cost per change is tiny). Keep it 0: with a delay, an edit the server makes (a refresh
  --- after somebody else saved) can reach it merged with your typing, and the server then
  --- does not recognise its own edit (see README, "Server edits").
  debounce_text_changes = 0,
  --- Filetype of the buffers (also the languageId of didOpen).
  filetype = 'abap',
  --- vim.diagnostic.config() for the server's diagnostics (syntax check, activation, unit
  --- tests, ATC). The default shows their messages as virtual text; false leaves Neovim's
  --- settings alone (they also apply when you enable virtual text or lines globally).
  diagnostics = { virtual_text = true },
  --- Show the server's code lenses ("Run tests" over local test classes and methods; run
  --- the one on the cursor line with vim.lsp.codelens.run()).
  codelens = true,
  --- Open the address of a browser logon (OAuth, single sign-on) with vim.ui.open; it is
  --- printed either way. false: open it yourself (e.g. Neovim on a remote machine).
  open_browser = true,
}

M.options = vim.deepcopy(M.defaults)

--- @param opts table|nil
function M.set(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  -- lists are values, not merged by index: take the command as given
  if opts and opts.cmd then
    M.options.cmd = opts.cmd
  end
  if opts and opts.diagnostics ~= nil then -- false, or a table that replaces ours
    M.options.diagnostics = opts.diagnostics
  end
end

return M
