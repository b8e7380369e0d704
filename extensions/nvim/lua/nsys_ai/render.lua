-- Scratch buffers and text layout. Only presentation: every figure comes from the server as it is.
local M = {}

-- A scratch buffer named `name` (reused when it exists), filled with `lines`, shown in a window.
function M.scratch(name, lines, opts)
  opts = opts or {}
  local buf = M.find(name)
  if not buf then
    buf = vim.api.nvim_create_buf(true, true)
    vim.api.nvim_buf_set_name(buf, name)
  end
  vim.api.nvim_buf_set_option(buf, 'buftype', 'nofile')
  vim.api.nvim_buf_set_option(buf, 'bufhidden', 'hide')
  vim.api.nvim_buf_set_option(buf, 'swapfile', false)
  M.set_lines(buf, lines)
  if opts.filetype then
    vim.api.nvim_buf_set_option(buf, 'filetype', opts.filetype)
  end
  if opts.show ~= false then
    M.show(buf)
  end
  return buf
end

-- The buffer named exactly `name`, or nil.
function M.find(name)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_get_name(b) == name then
      return b
    end
  end
end

function M.set_lines(buf, lines)
  vim.api.nvim_buf_set_option(buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(buf, 'modifiable', false)
  vim.api.nvim_buf_set_option(buf, 'modified', false)
end

-- Shows buf in the current window unless a window shows it already.
function M.show(buf)
  local win = vim.fn.bufwinid(buf)
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
  else
    vim.api.nvim_set_current_buf(buf)
  end
end

function M.split_text(text)
  return vim.split(text or '', '\n', { plain = true })
end

-- A cell as text: integers without decimals, other numbers with at most 3, null as empty.
function M.cell(v)
  if v == nil or v == vim.NIL then
    return ''
  end
  if type(v) == 'number' then
    if v == math.floor(v) and math.abs(v) < 1e15 then
      return string.format('%d', v)
    end
    local s = string.format('%.3f', v):gsub('0+$', ''):gsub('%.$', '')
    return s
  end
  if type(v) == 'table' then
    return vim.fn.json_encode(v)
  end
  return tostring(v)
end

-- Columns [{name,type}] and rows (arrays) as aligned lines: header, rule, rows. Numbers right-aligned.
function M.table(columns, rows, max_width)
  max_width = max_width or 80
  local widths, numeric = {}, {}
  local text_rows = {}
  for i, c in ipairs(columns) do
    widths[i] = vim.fn.strdisplaywidth(c.name)
    numeric[i] = c.type == 'int' or c.type == 'double'
  end
  for r, row in ipairs(rows) do
    local cells = {}
    for i = 1, #columns do
      local s = M.cell(row[i])
      if vim.fn.strchars(s) > max_width then
        s = vim.fn.strcharpart(s, 0, max_width - 3) .. '...'
      end
      cells[i] = s
      widths[i] = math.max(widths[i], vim.fn.strdisplaywidth(s))
    end
    text_rows[r] = cells
  end
  local function line(cells, right)
    local parts = {}
    for i, s in ipairs(cells) do
      local pad = string.rep(' ', widths[i] - vim.fn.strdisplaywidth(s))
      parts[i] = (right and numeric[i]) and (pad .. s) or (s .. pad)
    end
    return (table.concat(parts, '  '):gsub('%s+$', ''))
  end
  local header, rule = {}, {}
  for i, c in ipairs(columns) do
    header[i] = c.name
    rule[i] = string.rep('-', widths[i])
  end
  local out = { line(header, true), line(rule, false) }
  for _, cells in ipairs(text_rows) do
    table.insert(out, line(cells, true))
  end
  return out
end

-- Nanoseconds as milliseconds for labels.
function M.ms(ns)
  if type(ns) ~= 'number' then
    return '-'
  end
  return string.format('%.3f ms', ns / 1e6)
end

return M
