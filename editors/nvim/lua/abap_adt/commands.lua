--- The user commands (:Adt...). Every one takes -bar: ABAP names never contain "|" or '"',
--- so `:AdtOpen zdemo_report | AdtActivate` runs both and a trailing comment is a comment.
local activation = require('abap_adt.activation')
local browse = require('abap_adt.browse')
local compare = require('abap_adt.compare')
local create = require('abap_adt.create')
local document = require('abap_adt.document')
local metadata = require('abap_adt.metadata')
local objects = require('abap_adt.objects')
local preview = require('abap_adt.preview')
local quality = require('abap_adt.quality')
local transport = require('abap_adt.transport')
local util = require('abap_adt.util')

local M = {}

--- @return integer
local function current_buffer()
  return vim.api.nvim_get_current_buf()
end

--- Refuse more arguments than a command takes (nargs has no "at most two").
--- @param opts table the command's arguments
--- @param most integer
--- @param usage string
--- @return boolean ok
local function at_most(opts, most, usage)
  if #opts.fargs > most then
    util.notify(('too many arguments; usage: %s'):format(usage), vim.log.levels.ERROR)
    return false
  end
  return true
end

--- @param values string[]
--- @return fun(lead: string): string[]
local function completing(values)
  return function(lead)
    return vim.tbl_filter(function(value)
      return vim.startswith(value, lead)
    end, values)
  end
end

local OPEN_USAGE = ':AdtOpen [SYSTEM:]NAME [' .. table.concat(objects.INCLUDES, '|') .. ']'

--- @type table<string, { run: fun(opts: table), opts: table }>
M.COMMANDS = {
  AdtOpen = {
    run = function(opts)
      if not at_most(opts, 2, OPEN_USAGE) then
        return
      end
      local name = opts.fargs[1] or objects.name_under_cursor()
      if name == '' then
        util.notify('usage: ' .. OPEN_USAGE, vim.log.levels.ERROR)
        return
      end
      objects.open(name, opts.fargs[2])
    end,
    opts = {
      nargs = '*',
      desc = 'Open an ABAP object: ' .. OPEN_USAGE:sub(10),
      complete = function(lead, line)
        if #vim.split(line, '%s+', { trimempty = true }) + (lead == '' and 1 or 0) >= 3 then
          return completing(objects.INCLUDES)(lead)
        end
        return {}
      end,
    },
  },
  AdtSearch = {
    run = function(opts)
      objects.search(opts.args)
    end,
    opts = { nargs = 1, desc = 'Search ABAP objects (* is the wildcard) into the quickfix list' },
  },
  AdtBrowse = {
    run = function(opts)
      browse.open(opts.args)
    end,
    opts = {
      nargs = '?',
      desc = 'Browse a package tree ([SYSTEM:]PACKAGE, default $TMP): <CR>/l expand, h collapse',
    },
  },
  AdtIncludes = {
    run = function()
      objects.includes(current_buffer())
    end,
    opts = { desc = 'Open another include of the object in this buffer' },
  },
  AdtActivate = {
    run = function(opts)
      activation.activate(current_buffer(), nil, { together = opts.bang })
    end,
    opts = {
      bang = true,
      desc = 'Activate the object in this buffer (!: with the inactive objects it builds on)',
    },
  },
  AdtResolve = {
    run = function(opts)
      document.resolve(current_buffer(), opts.args)
    end,
    opts = {
      nargs = 1,
      desc = 'Resolve a save conflict: reload (theirs), overwrite (with mine) or merge',
      complete = completing(document.CHOICES),
    },
  },
  AdtTest = {
    run = function(opts)
      if at_most(opts, 2, ':AdtTest [TESTCLASS [METHOD]]') then
        local scope = { testClass = opts.fargs[1], method = opts.fargs[2] }
        quality.test(current_buffer(), next(scope) and scope or nil)
      end
    end,
    opts = {
      nargs = '*',
      desc = 'Run the unit tests of the object in this buffer (or of one test class or method)',
    },
  },
  AdtAtc = {
    run = function()
      quality.atc(current_buffer())
    end,
    opts = { desc = 'Run the ABAP Test Cockpit on the object in this buffer' },
  },
  AdtNew = {
    run = function(opts)
      if at_most(opts, 2, ':AdtNew [KIND [NAME]]') then
        create.new(opts.fargs[1], opts.fargs[2])
      end
    end,
    opts = {
      nargs = '*',
      desc = 'Create an object (class … function module, CDS view, behavior or service definition, table …)',
      complete = function(lead, line)
        if #vim.split(line, '%s+', { trimempty = true }) + (lead == '' and 1 or 0) == 2 then
          return completing(create.kind_names())(lead)
        end
        return {}
      end,
    },
  },
  AdtRestart = {
    run = function()
      local ok, err = pcall(require('abap_adt.client').restart)
      if ok then
        util.notify('the language server was restarted; every buffer was handed over')
      else
        util.notify(('cannot restart the language server: %s'):format(err), vim.log.levels.ERROR)
      end
    end,
    opts = { desc = 'Restart the language server; every buffer keeps its unsaved edits' },
  },
  AdtTransport = {
    run = function()
      transport.choose(current_buffer())
    end,
    opts = { desc = 'Choose the transport request for the object in this buffer' },
  },
  AdtPublish = {
    run = function(opts)
      metadata.publish(current_buffer(), not opts.bang)
    end,
    opts = { bang = true, desc = 'Publish the service binding in this buffer (! unpublishes it)' },
  },
  AdtMessage = {
    run = function(opts)
      local number, text = opts.args:match('^%s*(%S+)%s+(.-)%s*$')
      metadata.set_message(current_buffer(), number or opts.args, text or '')
    end,
    -- no -bar: a message text may hold '"' or '|'
    opts = {
      nargs = '+',
      bar = false,
      desc = 'Add a message to the message class in this buffer, or change one: NUMBER TEXT',
    },
  },
  AdtPreview = {
    run = function(opts)
      preview.open(current_buffer(), opts.args)
    end,
    -- no -bar: a condition may hold '"' or '|'
    opts = { nargs = '*', bar = false, desc = 'Preview the data of this table or CDS entity [WHERE]' },
  },
  AdtLogonCancel = {
    run = function()
      require('abap_adt.logon').cancel()
    end,
    opts = { desc = 'Give up a logon in the browser that is still waiting' },
  },
  AdtCompare = {
    run = function(opts)
      compare.compare(current_buffer(), opts.fargs[1])
    end,
    opts = {
      nargs = '?',
      desc = 'Compare the buffer with the active version or a revision (diff mode)',
      complete = completing({ 'active', 'inactive' }),
    },
  },
}

function M.define()
  for name, command in pairs(M.COMMANDS) do
    local opts = vim.tbl_extend('force', { bar = true }, command.opts)
    vim.api.nvim_create_user_command(name, command.run, opts)
  end
end

return M
