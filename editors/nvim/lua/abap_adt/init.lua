--- ABAP sources on SAP systems as adt:// buffers, through the abap-adt language server.
---
---   require('abap_adt').setup({
---     cmd = { 'abap-adt', 'lsp' },
---     init_options = { systems = { { name = 'A4H', url = 'https://host:50001', user = 'DEVELOPER',
---                                     passwordEnv = 'A4H_PASSWORD' } } },
---   })
---
--- Then :edit adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main, or
--- :AdtOpen zdemo_report. See editors/nvim/README.md.
local client = require('abap_adt.client')
local config = require('abap_adt.config')
local document = require('abap_adt.document')
local objects = require('abap_adt.objects')

local M = {}

local GROUP = 'abap_adt'
local PATTERN = 'adt://*'

M.open = objects.open
M.search = objects.search
M.includes = objects.includes
M.read = document.read
M.write = document.write
M.resolve = document.resolve
M.activate = document.activate
M.text = document.text
M.client = client.get
M.start = client.ensure
M.stop = client.stop

--- @return integer
local function current_buffer()
  return vim.api.nvim_get_current_buf()
end

local function define_commands()
  local command = vim.api.nvim_create_user_command
  command('AdtOpen', function(opts)
    local name = opts.fargs[1] or vim.fn.expand('<cword>')
    if name == '' then
      vim.notify('abap-adt: :AdtOpen {name} [include]', vim.log.levels.ERROR)
      return
    end
    objects.open(name, opts.fargs[2])
  end, {
    nargs = '*',
    desc = 'Open an ABAP object: [SYSTEM:]NAME [definitions|implementations|macros|testclasses]',
    complete = function(_, line)
      if #vim.split(line, '%s+', { trimempty = true }) >= 2 then
        return { 'main', 'definitions', 'implementations', 'macros', 'testclasses' }
      end
      return {}
    end,
  })
  command('AdtSearch', function(opts)
    objects.search(opts.args)
  end, { nargs = 1, desc = 'Search ABAP objects (* is the wildcard) into the quickfix list' })
  command('AdtIncludes', function()
    objects.includes(current_buffer())
  end, { desc = 'Open another include of the object in this buffer' })
  command('AdtActivate', function()
    document.activate(current_buffer())
  end, { desc = 'Activate the object in this buffer' })
  command('AdtResolve', function(opts)
    document.resolve(current_buffer(), opts.args)
  end, {
    nargs = 1,
    desc = 'Resolve a save conflict: reload (theirs), overwrite (with mine) or merge',
    complete = function()
      return document.CHOICES
    end,
  })
end

local function define_autocmds()
  local group = vim.api.nvim_create_augroup(GROUP, { clear = true })
  local autocmd = vim.api.nvim_create_autocmd
  autocmd('BufReadCmd', {
    group = group,
    pattern = PATTERN,
    desc = 'abap-adt: read the source from the server',
    callback = function(ev)
      document.read(ev.buf)
    end,
  })
  autocmd('BufWriteCmd', {
    group = group,
    pattern = PATTERN,
    nested = true, -- a server edit handled during a save may mark another buffer saved
    desc = 'abap-adt: save the source as a checked patch',
    callback = function(ev)
      document.write(ev.buf, ev.match, vim.v.cmdbang == 1)
    end,
  })
  autocmd('FileWriteCmd', {
    group = group,
    pattern = PATTERN,
    desc = 'abap-adt: partial writes are refused',
    callback = function()
      vim.notify('abap-adt: only whole buffers can be saved to the server', vim.log.levels.ERROR)
    end,
  })
  autocmd('VimLeavePre', {
    group = group,
    desc = 'abap-adt: let the server release its locks before Neovim exits',
    callback = function()
      client.stop()
    end,
  })
end

--- Define the autocommands and commands (plugin/abap_adt.lua does it at startup; setup()
--- does it again, which is harmless).
function M.register()
  define_autocmds()
  define_commands()
end

--- @param opts table|nil see lua/abap_adt/config.lua
function M.setup(opts)
  config.set(opts)
  M.register()
end

return M
