--- :AdtPreview: the rows of the table or CDS entity of the current adt:// buffer in a scratch
--- buffer, as an aligned table, a page at a time (adt/dataPreview; ]p and [p turn pages).
local client = require('abap_adt.client')
local util = require('abap_adt.util')

local M = {}

M.PAGE = 100

--- The lines of one page: a header (the column names, keys marked with *), a rule, the rows,
--- and a summary line.
--- @param page table the answer of adt/dataPreview
--- @return string[]
function M.lines(page)
  local names, widths = {}, {}
  for i, column in ipairs(page.columns) do
    names[i] = column.name .. (column.key and '*' or '')
    widths[i] = vim.fn.strdisplaywidth(names[i])
  end
  for _, row in ipairs(page.rows) do
    for i, column in ipairs(page.columns) do
      widths[i] = math.max(widths[i], vim.fn.strdisplaywidth(tostring(row[column.name] or '')))
    end
  end
  local function line(cells)
    local padded = {}
    for i, cell in ipairs(cells) do
      padded[i] = cell .. string.rep(' ', widths[i] - vim.fn.strdisplaywidth(cell))
    end
    return (table.concat(padded, ' | '):gsub('%s+$', ''))
  end
  local out = { line(names) }
  local rule = {}
  for i = 1, #widths do
    rule[i] = string.rep('-', widths[i])
  end
  out[2] = table.concat(rule, '-+-')
  for _, row in ipairs(page.rows) do
    local cells = {}
    for i, column in ipairs(page.columns) do
      cells[i] = (tostring(row[column.name] or ''):gsub('[\r\n]', ' '))
    end
    out[#out + 1] = line(cells)
  end
  local first = #page.rows > 0 and page.offset + 1 or 0
  out[#out + 1] = ''
  out[#out + 1] = ('%s: rows %d-%d of %d'):format(
    page.entity,
    first,
    page.offset + #page.rows,
    page.totalRows
  )
  return out
end

--- @param scratch integer
--- @param state { uri: string, offset: integer, where: string }
local function show(scratch, state)
  local page, err = client.request('adt/dataPreview', {
    uri = state.uri,
    offset = state.offset,
    limit = M.PAGE,
    where = state.where,
  })
  if not page then
    util.notify(('data preview failed: %s'):format(err and err.message or '?'), vim.log.levels.ERROR)
    return
  end
  vim.bo[scratch].modifiable = true
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, M.lines(page))
  vim.bo[scratch].modifiable = false
  vim.b[scratch].abap_adt_preview = { uri = state.uri, total = page.totalRows, offset = state.offset }
end

--- Preview the object of `bufnr` in a new scratch buffer (a split below).
--- @param bufnr integer
--- @param where string|nil a condition, e.g. `CurrencyCode = 'EUR'`
--- @return integer|nil scratch
function M.open(bufnr, where)
  local uri = vim.api.nvim_buf_get_name(bufnr)
  if not vim.startswith(uri, 'adt://') then
    util.notify('open a table or CDS entity (adt://) to preview its data', vim.log.levels.ERROR)
    return nil
  end
  local scratch = vim.api.nvim_create_buf(false, true)
  vim.bo[scratch].bufhidden = 'wipe'
  vim.bo[scratch].filetype = 'abap-adt-preview'
  vim.cmd('belowright split')
  vim.api.nvim_win_set_buf(0, scratch)
  local state = { uri = uri, offset = 0, where = where or '' }
  local function turn(delta)
    return function()
      local known = vim.b[scratch].abap_adt_preview or { total = 0 }
      local next_offset = state.offset + delta
      if next_offset >= 0 and next_offset < math.max(known.total, 1) then
        state.offset = next_offset
        show(scratch, state)
      end
    end
  end
  vim.keymap.set('n', ']p', turn(M.PAGE), { buffer = scratch, desc = 'Next page of rows' })
  vim.keymap.set('n', '[p', turn(-M.PAGE), { buffer = scratch, desc = 'Previous page of rows' })
  show(scratch, state)
  return scratch
end

return M
