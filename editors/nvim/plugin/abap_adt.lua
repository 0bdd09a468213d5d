-- adt:// buffers work from the start (also `nvim adt://...`), with the default options until
-- require('abap_adt').setup() is called.
if vim.g.loaded_abap_adt or vim.fn.has('nvim-0.11') == 0 then
  return
end
vim.g.loaded_abap_adt = 1
require('abap_adt').register()
