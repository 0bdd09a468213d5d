--- :AdtBrowse, a package tree in a scratch buffer. Packages are listed lazily: a package's
--- children are asked for (adt/packageContents) the first time it is expanded, so a large
--- package hierarchy costs one request per package the user opens.
local client = require('abap_adt.client')
local objects = require('abap_adt.objects')
local util = require('abap_adt.util')

local M = {}

local levels = vim.log.levels

--- The package shown when :AdtBrowse names none: every user's local objects.
M.DEFAULT_PACKAGE = '$TMP'

--- @class abap_adt.BrowseNode
--- @field name string
--- @field type string DEVC/K for a package
--- @field description string
--- @field uri string|nil the adt:// document of an object with a source
--- @field children abap_adt.BrowseNode[]|nil nil until listed
--- @field expanded boolean
--- @field loading boolean

--- @class abap_adt.BrowseRow
--- @field node abap_adt.BrowseNode
--- @field parent abap_adt.BrowseNode|nil

--- The tree of each browse buffer.
--- @type table<integer, { root: abap_adt.BrowseNode, system: string|nil, rows: abap_adt.BrowseRow[] }>
local trees = {}

--- @param value any
--- @return string
local function text(value)
  return (type(value) == 'string') and value or ''
end

--- @param name string
--- @param description string|nil
--- @return abap_adt.BrowseNode
local function package_node(name, description)
  return {
    name = name,
    type = 'DEVC/K',
    description = text(description),
    expanded = false,
    loading = false,
  }
end

--- @param node abap_adt.BrowseNode
--- @param depth integer
--- @return string
local function line(node, depth)
  local indent = string.rep('  ', depth)
  local label
  if node.type == 'DEVC/K' then
    local sign = node.loading and '…' or (node.expanded and '▾' or '▸')
    label = ('%s %s'):format(sign, node.name)
  else
    label = ('  %s %s'):format(node.type, node.name)
  end
  if node.description ~= '' then
    label = label .. '  ' .. node.description
  end
  return indent .. label
end

--- Redraw the buffer from its tree, keeping the cursor on the same node.
--- @param bufnr integer
local function render(bufnr)
  local tree = trees[bufnr]
  if not tree or not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local lines, rows = {}, {}
  local function walk(node, parent, depth)
    table.insert(lines, line(node, depth))
    table.insert(rows, { node = node, parent = parent })
    if node.expanded then
      for _, child in ipairs(node.children or {}) do
        walk(child, node, depth + 1)
      end
      if node.children and #node.children == 0 then
        table.insert(lines, string.rep('  ', depth + 1) .. '  (empty)')
        table.insert(rows, { node = node, parent = parent })
      end
    end
  end
  walk(tree.root, nil, 0)
  tree.rows = rows
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modifiable = false
  vim.bo[bufnr].modified = false
end

--- @param bufnr integer
--- @param node abap_adt.BrowseNode
local function move_to(bufnr, node)
  for index, row in ipairs(trees[bufnr].rows) do
    if row.node == node then
      for _, win in ipairs(vim.fn.win_findbuf(bufnr)) do
        vim.api.nvim_win_set_cursor(win, { index, 0 })
      end
      return
    end
  end
end

--- List a package's children (once), then show them.
--- @param bufnr integer
--- @param node abap_adt.BrowseNode
local function expand(bufnr, node)
  if node.children then
    node.expanded = true
    render(bufnr)
    return
  end
  if node.loading then
    return
  end
  node.loading = true
  render(bufnr)
  local params = { package = node.name, system = trees[bufnr].system }
  client.request_async('adt/packageContents', params, nil, function(result, err)
    node.loading = false
    if err or type(result) ~= 'table' then
      util.notify(
        ('cannot list package %s: %s'):format(node.name, util.error_text(err)),
        levels.ERROR
      )
      render(bufnr)
      return
    end
    local children = {}
    for _, package in ipairs(result.packages or {}) do
      table.insert(children, package_node(package.name, package.description))
    end
    for _, object in ipairs(result.objects or {}) do
      table.insert(children, {
        name = object.name,
        type = object.type,
        description = text(object.description),
        uri = type(object.documentUri) == 'string' and object.documentUri or nil,
        expanded = false,
        loading = false,
      })
    end
    node.children, node.expanded = children, true
    render(bufnr)
  end)
end

--- @param bufnr integer
--- @return abap_adt.BrowseRow|nil
local function row_at_cursor(bufnr)
  local tree = trees[bufnr]
  return tree and tree.rows[vim.api.nvim_win_get_cursor(0)[1]]
end

--- <CR>: open an object, expand or collapse a package.
--- @param bufnr integer
function M.activate(bufnr)
  local row = row_at_cursor(bufnr)
  if not row then
    return
  end
  local node = row.node
  if node.type == 'DEVC/K' then
    if node.expanded then
      node.expanded = false
      render(bufnr)
    else
      expand(bufnr, node)
    end
  elseif node.uri then
    objects.edit(node.uri)
  else
    util.notify(
      ('%s %s has no source to open in an editor'):format(node.type, node.name),
      levels.WARN
    )
  end
end

--- `l`: expand the package under the cursor (an object: open it).
--- @param bufnr integer
function M.expand(bufnr)
  local row = row_at_cursor(bufnr)
  if row and row.node.type == 'DEVC/K' then
    expand(bufnr, row.node)
  elseif row then
    M.activate(bufnr)
  end
end

--- `h`: collapse the package under the cursor, or the package the cursor is in.
--- @param bufnr integer
function M.collapse(bufnr)
  local row = row_at_cursor(bufnr)
  if not row then
    return
  end
  local target = (row.node.type == 'DEVC/K' and row.node.expanded) and row.node or row.parent
  if target then
    target.expanded = false
    render(bufnr)
    move_to(bufnr, target)
  end
end

--- `R`: list the package under the cursor (or the cursor's package) again.
--- @param bufnr integer
function M.refresh(bufnr)
  local row = row_at_cursor(bufnr)
  if not row then
    return
  end
  local target = row.node.type == 'DEVC/K' and row.node or row.parent
  if target then
    target.children = nil
    expand(bufnr, target)
  end
end

--- Open the tree of a package ("SYSTEM:PACKAGE" for another system), its first level listed.
--- @param package string|nil default M.DEFAULT_PACKAGE
function M.open(package)
  package = (package and package ~= '') and package or M.DEFAULT_PACKAGE
  local system
  if package:find(':', 1, true) then
    system, package = package:match('^([^:]*):(.*)$')
  end
  package = package:upper()
  system = system ~= '' and system or nil
  local name = ('adt-browse://%s%s'):format(system and system .. '/' or '', package)
  local existing = vim.fn.bufnr('^' .. vim.fn.escape(name, '$.*~[]\\') .. '$')
  if existing > 0 and trees[existing] then
    vim.api.nvim_set_current_buf(existing)
    return
  end
  local bufnr = vim.api.nvim_create_buf(true, true)
  vim.api.nvim_buf_set_name(bufnr, name)
  vim.bo[bufnr].bufhidden = 'hide' -- back to the tree with CTRL-^ after opening an object
  vim.bo[bufnr].swapfile = false
  vim.bo[bufnr].filetype = 'adtbrowse'
  trees[bufnr] = { root = package_node(package), system = system, rows = {} }
  vim.api.nvim_create_autocmd('BufWipeout', {
    buffer = bufnr,
    once = true,
    callback = function()
      trees[bufnr] = nil
    end,
  })
  local maps = {
    ['<CR>'] = { M.activate, 'Open the object, expand or collapse the package' },
    l = { M.expand, 'Expand the package' },
    h = { M.collapse, 'Collapse the package' },
    R = { M.refresh, 'List the package again' },
  }
  for key, map in pairs(maps) do
    vim.keymap.set('n', key, function()
      map[1](bufnr)
    end, { buffer = bufnr, desc = map[2], nowait = true })
  end
  vim.api.nvim_set_current_buf(bufnr)
  expand(bufnr, trees[bufnr].root)
end

--- The tree's nodes as shown, for tests and statuslines.
--- @param bufnr integer
--- @return { name: string, type: string, uri: string|nil, expanded: boolean }[]|nil
function M.rows(bufnr)
  local tree = trees[bufnr == 0 and vim.api.nvim_get_current_buf() or bufnr]
  return tree
    and vim.tbl_map(function(row)
      return {
        name = row.node.name,
        type = row.node.type,
        uri = row.node.uri,
        expanded = row.node.expanded,
      }
    end, tree.rows)
end

return M
