-- The user's own source files: the nsys-ai client is attached to Python, C/C++/CUDA and Julia buffers
-- under the workspace root, so the standard LSP features carry the profile's numbers onto the annotated lines:
-- code lenses (vim.lsp.codelens), hovers (vim.lsp.buf.hover), diagnostics and code actions
-- (vim.lsp.buf.code_action). The server indexes the root (workspaceFolders at initialize) and answers against the
-- profile opened last; this module only attaches buffers and asks for lenses again when something changed.
local config = require('nsys_ai.config')
local client = require('nsys_ai.client')

local M = {}

-- Filetypes of the languages the server's annotation index reads.
M.filetypes = { 'python', 'c', 'cpp', 'cuda', 'julia' }

M.attached = {} -- bufnr -> true for the source buffers this module attached

local function has_filetype(ft)
  return vim.tbl_contains(M.filetypes, ft)
end

-- The workspace root: the configured one, else the working directory when the server started.
function M.root()
  local root = config.options.root
  if type(root) ~= 'string' or root == '' then
    root = vim.loop.cwd()
  end
  return (vim.fn.fnamemodify(vim.fn.expand(root), ':p'):gsub('/$', ''))
end

-- Whether a file is under the root or one of the configured source roots.
function M.is_source_file(fname)
  if fname == '' then
    return false
  end
  local path = vim.fn.fnamemodify(fname, ':p')
  local roots = { M.root() }
  for _, r in ipairs(config.options.source_roots or {}) do
    table.insert(roots, (vim.fn.fnamemodify(vim.fn.expand(r), ':p'):gsub('/$', '')))
  end
  for _, r in ipairs(roots) do
    if path:sub(1, #r + 1) == r .. '/' then
      return true
    end
  end
  return false
end

local function eligible(buf)
  return vim.api.nvim_buf_is_loaded(buf)
    and vim.api.nvim_buf_get_option(buf, 'buftype') == ''
    and has_filetype(vim.api.nvim_buf_get_option(buf, 'filetype'))
    and M.is_source_file(vim.api.nvim_buf_get_name(buf))
end

-- Asks for the lenses of a buffer again (vim.lsp.codelens works on the current buffer).
function M.refresh_lenses(buf)
  buf = (buf == nil or buf == 0) and vim.api.nvim_get_current_buf() or buf
  if not M.attached[buf] or not vim.api.nvim_buf_is_loaded(buf) or not client.get() then
    return
  end
  if not client.supports('codeLensProvider') then
    return
  end
  -- Asked here rather than through vim.lsp.codelens.refresh(): a buffer deleted while its lenses are on the way
  -- must drop the reply (Neovim 0.7's own handler fails on it with "Invalid buffer id").
  local params = { textDocument = vim.lsp.util.make_text_document_params(buf) }
  client.request('textDocument/codeLens', params, function(err, result)
    if not vim.api.nvim_buf_is_valid(buf) or not client.get() then
      return
    end
    vim.lsp.codelens.on_codelens(err, result, { bufnr = buf, client_id = client.get().id, method = 'textDocument/codeLens' })
  end)
end

-- Every attached buffer shown in a window (after :NsysOpen, or when the server asks with workspace/codeLens/refresh).
function M.refresh_all()
  local seen = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    local buf = vim.api.nvim_win_get_buf(win)
    if M.attached[buf] and not seen[buf] then
      seen[buf] = true
      M.refresh_lenses(buf)
    end
  end
end

-- Attaches the running client to a source buffer, with the lens refresh autocommands. Returns true when attached.
function M.attach(buf)
  buf = (buf == nil or buf == 0) and vim.api.nvim_get_current_buf() or buf
  if config.options.sources == false or not client.get() or not eligible(buf) then
    return false
  end
  if M.attached[buf] then
    return true
  end
  if not vim.lsp.buf_attach_client(buf, client.client_id) then
    return false
  end
  M.attached[buf] = true
  local group = vim.api.nvim_create_augroup('nsys_ai_source_' .. buf, { clear = true })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'CursorHold', 'InsertLeave' }, {
    group = group,
    buffer = buf,
    callback = function()
      M.refresh_lenses(buf)
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufWipeout', 'BufUnload' }, {
    group = group,
    buffer = buf,
    callback = function()
      M.attached[buf] = nil
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })
  M.refresh_lenses(buf)
  return true
end

-- Attaches every loaded source buffer (when the server has started).
function M.attach_all()
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    M.attach(buf)
  end
end

-- The server's workspace/codeLens/refresh (sent when the active profile changes): lenses of the shown buffers.
function M.on_codelens_refresh()
  vim.schedule(M.refresh_all)
  return vim.NIL
end

-- Autocommands that attach source buffers as they are opened, once the server runs (started by :NsysOpen & co).
function M.setup_autocmds()
  local group = vim.api.nvim_create_augroup('nsys_ai_sources', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
end

-- A UTF-16 column of an LSP position as a 1-based byte column of the file's line (for quickfix items).
function M.byte_col(fname, line, character)
  local text
  local buf = vim.fn.bufnr(fname)
  if buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) then
    text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
  elseif vim.fn.filereadable(fname) == 1 then
    text = vim.fn.readfile(fname, '', line + 1)[line + 1]
  end
  if not text then
    return character + 1
  end
  local ok, col = pcall(vim.str_byteindex, text, character, true)
  return (ok and col or character) + 1
end

-- A quickfix item at an LSP location (uri + range).
function M.qf_item(uri, range, text)
  local fname = vim.uri_to_fname(uri)
  local line = range and range.start and range.start.line or 0
  local character = range and range.start and range.start.character or 0
  return { filename = fname, lnum = line + 1, col = M.byte_col(fname, line, character), text = text }
end

return M
