--- Keeps the server's copy of a document equal to the buffer when the buffer has no final
--- newline.
---
--- ABAP sources never end with a newline, so their buffers are `noeol`, and `didOpen`
--- sends the text without one (Neovim appends the line ending only when 'eol' is set).
--- Neovim's incremental `didChange`, however, always treats every line as ending with a line
--- ending, 'eol' or not. Edits at the end of the buffer then refer to a position after that
--- final newline, one line past the end of the server's document. Examples on the two-line
--- text "a\nb":
---
---   `Go`  sends  [1,1]-[2,0] "\n\n"   (the server, clamping, would get "a\nb\n\n")
---   `Gdd` sends  [1,0]-[2,0] ""       (the server would keep an empty last line)
---
--- Every such change is rewritten here into the equivalent change on the text without the
--- final newline. To know where the document ends, the number of lines the server sees is
--- followed from `didOpen` through every change (the server splits lines at "\n", "\r\n" and
--- "\r", as LSP does). Changes that stay inside the document pass through untouched, so
--- buffers that do end with a newline ('eol') are never affected.
---
--- The same count also catches a slip of Neovim's own change tracking (0.11.4,
--- vim.lsp.sync): when a buffer of two empty lines is joined into one (`J`), both changes it
--- sends are empty, and the server would keep two lines. After every notification the count
--- is compared with the buffer; if they differ, the whole text is sent as one more change.

local M = {}

--- LSP: "If the character value is greater than the line length it defaults back to the
--- line length". Used for the end of a line whose length we do not track.
M.LINE_END = 2147483647

--- Number of line breaks in `text`, counted like the server does.
--- @param text string
--- @return integer
local function breaks(text)
  local _, lf = text:gsub('\n', '')
  local _, cr = text:gsub('\r', '')
  local _, crlf = text:gsub('\r\n', '')
  return lf + cr - crlf
end

--- Number of lines of a document text (the empty text is one empty line).
--- @param text string
--- @return integer
function M.line_count(text)
  return breaks(text) + 1
end

--- Rewrite one content change against a document of `count` lines.
--- @param change table  a TextDocumentContentChangeEvent
--- @param count integer lines of the document before the change
--- @return table change, integer count  the change to send, lines after it
function M.repair(change, count)
  if not change.range then
    return change, M.line_count(change.text)
  end
  local start, finish, text = change.range.start, change.range['end'], change.text
  if finish.line >= count then
    -- The change reaches the final newline that only Neovim believes in. Neovim's result is
    -- "document up to start" .. text, always ending with a newline; the server's text is
    -- the same without that newline.
    local last = count - 1
    if start.line >= count then -- starts after the final newline: it follows the last line
      start = { line = last, character = M.LINE_END }
      text = '\n' .. text
    end
    finish = { line = last, character = M.LINE_END }
    if text:sub(-1) == '\n' then
      text = text:sub(1, -2)
    elseif text == '' and start.character == 0 and start.line > 0 then
      -- whole lines deleted through the end: the newline before them goes as well
      start = { line = start.line - 1, character = M.LINE_END }
    end
    change = { range = { start = start, ['end'] = finish }, text = text }
  end
  return change, count - (finish.line - start.line) + breaks(text)
end

--- The text of a buffer as the server sees it (with a final newline only when 'eol').
--- @param bufnr integer
--- @return string
function M.buffer_text(bufnr)
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  return vim.bo[bufnr].eol and text .. '\n' or text
end

--- The number of lines the server should see for a buffer.
--- @param bufnr integer
--- @return integer
function M.buffer_line_count(bufnr)
  return vim.api.nvim_buf_line_count(bufnr) + (vim.bo[bufnr].eol and 1 or 0)
end

--- Rewrite the changes of a `didChange` notification.
--- @param params table DidChangeTextDocumentParams (not modified)
--- @param count integer lines of the document before the notification
--- @param bufnr integer|nil the buffer, to check the result against
--- @return table params, integer count
function M.repair_all(params, count, bufnr)
  local changes = {}
  for i, change in ipairs(params.contentChanges) do
    changes[i], count = M.repair(change, count)
  end
  if bufnr and vim.api.nvim_buf_is_loaded(bufnr) and count ~= M.buffer_line_count(bufnr) then
    -- Changes are sent when they are flushed, so the buffer now shows their result.
    vim.lsp.log.warn(
      'abap_adt: line count differs after didChange, sending the whole text',
      params.textDocument.uri
    )
    local text = M.buffer_text(bufnr)
    table.insert(changes, { text = text })
    count = M.line_count(text)
  end
  return { textDocument = params.textDocument, contentChanges = changes }, count
end

return M
