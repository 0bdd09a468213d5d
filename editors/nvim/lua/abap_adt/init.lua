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
local activation = require('abap_adt.activation')
local browse = require('abap_adt.browse')
local client = require('abap_adt.client')
local commands = require('abap_adt.commands')
local compare = require('abap_adt.compare')
local config = require('abap_adt.config')
local create = require('abap_adt.create')
local document = require('abap_adt.document')
local objects = require('abap_adt.objects')
local quality = require('abap_adt.quality')
local transport = require('abap_adt.transport')
local util = require('abap_adt.util')

local M = {}

local GROUP = 'abap_adt'
local PATTERN = 'adt://*'

M.open = objects.open
M.search = objects.search
M.includes = objects.includes
M.read = document.read
M.write = document.write
M.resolve = document.resolve
M.activate = activation.activate
M.test = quality.test
M.atc = quality.atc
M.new = create.new
M.choose_transport = transport.choose
M.compare = compare.compare
M.browse = browse.open
M.text = document.text
M.client = client.get
M.start = client.ensure
M.stop = client.stop
M.restart = client.restart

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
  vim.filetype.add({ extension = require('abap_adt.kinds').EXTENSIONS })
  commands.define()
  -- a code lens "Run tests" runs here, so its outcome is shown like :AdtTest's
  vim.lsp.commands['adt.runUnitTests'] = function(command, ctx)
    local uri, scope = unpack(command.arguments or {})
    local bufnr = type(uri) == 'string' and util.find_buffer(uri) or ctx.bufnr
    quality.test(bufnr, type(scope) == 'table' and scope or nil)
  end
end

--- @param opts table|nil see lua/abap_adt/config.lua
function M.setup(opts)
  config.set(opts)
  M.register()
end

return M
