--- :checkhealth abap_adt
local M = {}

function M.check()
  local health = vim.health
  local config = require('abap_adt.config')
  health.start('abap-adt')
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok('Neovim ' .. tostring(vim.version()))
  else
    health.error('Neovim 0.11 or newer is needed')
  end
  local cmd = config.options.cmd
  if type(cmd) == 'table' and vim.fn.executable(cmd[1]) == 1 then
    health.ok('language server: ' .. table.concat(cmd, ' '))
  else
    health.error(('%s is not executable'):format(vim.inspect(cmd)), {
      'pip install abap-adt, or set cmd in require("abap_adt").setup()',
    })
  end
  local systems = (config.options.init_options or {}).systems
  if systems then
    for _, system in ipairs(systems) do
      health.info(('system %s: %s as %s'):format(system.name, system.url, system.user))
    end
  else
    health.info('no systems in init_options: the server reads its configuration file')
  end
  local running = require('abap_adt.client').get()
  if running then
    health.ok(
      ('client %d running (position encoding %s)'):format(running.id, running.offset_encoding)
    )
  else
    health.info('the client starts with the first adt:// buffer')
  end
end

return M
