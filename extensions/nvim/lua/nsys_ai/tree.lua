-- :NsysTree, the NVTX hierarchy loaded lazily from nsys/nvtxTree. Each buffer line is one node, indented two
-- spaces per level, so 'foldmethod=indent' folds a node's subtree; expanding a node whose children were never
-- asked for requests them and inserts them under it.
local client = require('nsys_ai.client')
local render = require('nsys_ai.render')

local M = {}

-- buf -> { profile = id, rows = { [line] = {node, depth, loaded, loading} } }
M.buffers = {}

-- Markers: '+' a node whose children are not loaded, '-' an expanded node, '.' a range without children,
-- '*' a kernel.
local function label(node, depth, loaded)
  if node.kind == 'note' then
    return string.rep('  ', depth) .. node.name
  end
  local marker
  if node.kind == 'kernel' then
    marker = '*'
  elseif node.hasChildren then
    marker = loaded and '-' or '+'
  else
    marker = '.'
  end
  local text = node.kind == 'thread' and (node.label ~= '' and node.label or node.name) or node.name
  local parts = {
    string.rep('  ', depth) .. marker .. ' ' .. text,
    'gpu ' .. render.ms(node.gpuNs),
    'wall ' .. render.ms(node.wallNs),
    'kernels ' .. render.cell(node.kernelCount),
  }
  if node.kind ~= 'thread' and node.instances then
    table.insert(parts, 'x' .. render.cell(node.instances))
  end
  return table.concat(parts, '  ')
end

local function rows_to_lines(rows)
  local lines = {}
  for i, r in ipairs(rows) do
    lines[i] = label(r.node, r.depth, r.loaded)
  end
  return lines
end

local function refresh(buf)
  local st = M.buffers[buf]
  render.set_lines(buf, rows_to_lines(st.rows))
end

local function node_rows(nodes, depth)
  local rows = {}
  for _, n in ipairs(nodes) do
    table.insert(rows, { node = n, depth = depth, loaded = not n.hasChildren })
  end
  return rows
end

-- Requests the children of the node on `line` (1-based) and inserts them below it; cb(err, count).
function M.expand(buf, line, cb)
  cb = cb or function() end
  local st = M.buffers[buf]
  local row = st and st.rows[line]
  if not row then
    return cb(nil, 0)
  end
  if row.loaded or row.loading then
    pcall(vim.cmd, 'silent! ' .. line .. 'foldopen')
    return cb(nil, 0)
  end
  row.loading = true
  client.request('nsys/nvtxTree', { profileId = st.profile, parent = row.node.id }, function(err, res)
    row.loading = false
    if err then
      client.error(err)
      return cb(err)
    end
    -- The line may have moved if others expanded meanwhile: find the row again.
    local at
    for i, r in ipairs(st.rows) do
      if r == row then
        at = i
        break
      end
    end
    if not at then
      return cb(nil, 0)
    end
    row.loaded = true
    local children = node_rows(res.nodes or {}, row.depth + 1)
    if res.truncated then
      table.insert(children, {
        node = { kind = 'note', name = '(more children not shown)', hasChildren = false },
        depth = row.depth + 1,
        loaded = true,
      })
    end
    for k, child in ipairs(children) do
      table.insert(st.rows, at + k, child)
    end
    if vim.api.nvim_buf_is_valid(buf) then
      refresh(buf)
      for _, win in ipairs(vim.fn.win_findbuf(buf)) do
        vim.api.nvim_win_call(win, function()
          pcall(vim.cmd, 'silent! ' .. at .. 'foldopen')
        end)
      end
    end
    cb(nil, #children)
  end)
end

function M.node_at(buf, line)
  local st = M.buffers[buf]
  return st and st.rows[line] and st.rows[line].node
end

local function set_keymaps(buf)
  local function map(lhs, fn, desc)
    vim.keymap.set('n', lhs, fn, { buffer = buf, silent = true, desc = desc })
  end
  local function expand_cursor()
    M.expand(buf, vim.api.nvim_win_get_cursor(0)[1])
  end
  map('<CR>', expand_cursor, 'nsys-ai: expand the NVTX node (loads its children)')
  map('l', expand_cursor, 'nsys-ai: expand the NVTX node')
  map('zo', expand_cursor, 'nsys-ai: expand the NVTX node')
  map('za', function()
    local line = vim.api.nvim_win_get_cursor(0)[1]
    local row = M.buffers[buf].rows[line]
    if row and not row.loaded then
      M.expand(buf, line)
    else
      pcall(vim.cmd, 'normal! za')
    end
  end, 'nsys-ai: toggle the NVTX node')
  map('gp', function()
    local node = M.node_at(buf, vim.api.nvim_win_get_cursor(0)[1])
    if node and node.startNs and node.endNs then
      require('nsys_ai').perfetto({ window = { start = node.startNs, ['end'] = node.endNs, clock = 'capture_ns' } })
    end
  end, 'nsys-ai: reveal the node in Perfetto')
end

-- Opens the tree of a profile: the threads first; cb(err, buf).
function M.open(profile_id, cb)
  cb = cb or function() end
  client.request('nsys/nvtxTree', { profileId = profile_id }, function(err, res)
    if err then
      client.error(err)
      return cb(err)
    end
    local name = 'nsys-ai://tree/' .. profile_id
    local buf = render.scratch(name, {}, { filetype = 'nsys_ai_tree' })
    M.buffers[buf] = { profile = profile_id, rows = node_rows(res.nodes or {}, 0) }
    if #M.buffers[buf].rows == 0 then
      M.buffers[buf].rows = { { node = { kind = 'note', name = '(no NVTX ranges in this profile)' }, depth = 0, loaded = true } }
    end
    refresh(buf)
    local win = vim.fn.bufwinid(buf)
    if win ~= -1 then
      vim.api.nvim_win_set_option(win, 'foldmethod', 'indent')
      vim.api.nvim_win_set_option(win, 'foldlevel', 99)
      vim.api.nvim_win_set_option(win, 'foldenable', true)
    end
    vim.api.nvim_buf_set_option(buf, 'shiftwidth', 2)
    set_keymaps(buf)
    cb(nil, buf)
  end)
end

return M
