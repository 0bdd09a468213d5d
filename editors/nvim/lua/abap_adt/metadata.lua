--- :AdtPublish and :AdtMessage: commands on the metadata objects a buffer shows as their XML
--- document. The server says how a publish went and that a message was saved
--- (window/showMessage); a message is changed only on the version the buffer shows, so a
--- buffer with unsaved changes is refused and nothing is lost.
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- @param bufnr integer
--- @param path string what the object URL must contain
--- @param what string the kind, for the message
--- @return string|nil uri
local function buffer_uri(bufnr, path, what)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not util.is_adt_uri(uri) or not uri:find(path, 1, true) then
    util.notify(('this buffer is not a %s'):format(what), levels.ERROR)
    return nil
  end
  return uri
end

--- @param bufnr integer
--- @param command string
--- @param arguments table
--- @param failed string what did not happen, for the error
local function execute(bufnr, command, arguments, failed)
  client.request_async(
    'workspace/executeCommand',
    { command = command, arguments = arguments },
    bufnr,
    function(_, err)
      if err then
        util.notify(('%s: %s'):format(failed, util.error_text(err)), levels.ERROR)
      end
    end
  )
end

--- Publish the service binding in the buffer (unpublish with `publish` false).
--- @param bufnr integer
--- @param publish boolean
function M.publish(bufnr, publish)
  local uri = buffer_uri(bufnr, '/businessservices/bindings/', 'service binding')
  if uri then
    local failed = publish and 'not published' or 'not unpublished'
    execute(bufnr, 'adt.publishServiceBinding', { uri, publish }, failed)
  end
end

--- Add message `number` to the message class in the buffer, or change its text.
--- @param bufnr integer
--- @param number string
--- @param text string
function M.set_message(bufnr, number, text)
  local uri = buffer_uri(bufnr, '/messageclass/', 'message class')
  if not uri then
    return
  end
  if not number:match('^%d%d?%d?$') or vim.trim(text) == '' then
    util.notify('usage: :AdtMessage NUMBER TEXT (a number from 000 to 999)', levels.ERROR)
    return
  end
  local failed = ('message %s not saved'):format(number)
  execute(bufnr, 'adt.setMessage', { uri, { number = number, text = text } }, failed)
end

return M
