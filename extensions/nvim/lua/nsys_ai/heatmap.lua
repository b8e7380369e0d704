-- The ranks x steps heat map of job_step_heatmap as text: one line per rank, two columns per step. A cell's block
-- height and its colour (a highlight group, cool to hot) both place its step time between the shortest and the
-- longest cell. Only presentation: every figure is the server's.
local M = {}

M.BLOCKS = { '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█' }
-- NsysAiHeat1 (the shortest steps) .. NsysAiHeat5 (the longest): viridis, as the VS Code view draws it.
M.GROUPS = {
  { cterm = 54, gui = '#482878' },
  { cterm = 24, gui = '#31688e' },
  { cterm = 36, gui = '#1f9e89' },
  { cterm = 76, gui = '#6ece58' },
  { cterm = 226, gui = '#fde725' },
}

-- The highlight groups, as defaults a colour scheme or the user may override.
function M.define_highlights()
  for i, c in ipairs(M.GROUPS) do
    vim.cmd(string.format('highlight default NsysAiHeat%d ctermfg=%d guifg=%s', i, c.cterm, c.gui))
  end
end

local function column(columns, name)
  for i, c in ipairs(columns or {}) do
    if c.name == name then
      return i
    end
  end
end

local function number(v)
  return type(v) == 'number' and v or nil
end

-- The skill's rows as { ranks = {names in order}, steps = n, grid = {[rank] = {[step] = cell}}, cells = {...} }.
function M.from_result(res, rank_order)
  local idx = {}
  for _, name in ipairs({ 'rank', 'step', 'step_ns', 'gpu_busy_ns', 'vs_step_median_pct' }) do
    idx[name] = column(res.columns, name)
  end
  local map = { ranks = vim.deepcopy(rank_order or {}), steps = 0, grid = {}, cells = {} }
  for _, row in ipairs(res.rows or {}) do
    local cell = {
      rank = row[idx.rank],
      step = row[idx.step],
      step_ns = row[idx.step_ns],
      gpu_busy_ns = number(row[idx.gpu_busy_ns]),
      pct = number(row[idx.vs_step_median_pct]),
    }
    if not map.grid[cell.rank] then
      map.grid[cell.rank] = {}
      if not vim.tbl_contains(map.ranks, cell.rank) then
        table.insert(map.ranks, cell.rank)
      end
    end
    map.grid[cell.rank][cell.step] = cell
    map.steps = math.max(map.steps, cell.step + 1)
    table.insert(map.cells, cell)
  end
  return map
end

-- The position of `ns` between the shortest and the longest cell, as 1..n.
local function level(ns, lo, hi, n)
  if hi <= lo then
    return n
  end
  return 1 + math.floor((ns - lo) / (hi - lo) * (n - 1) + 0.5)
end

local function range_of(cells)
  local lo, hi = math.huge, -math.huge
  for _, c in ipairs(cells) do
    lo = math.min(lo, c.step_ns)
    hi = math.max(hi, c.step_ns)
  end
  return lo, hi
end

function M.block(ns, lo, hi)
  return M.BLOCKS[level(ns, lo, hi, #M.BLOCKS)]
end

function M.group(ns, lo, hi)
  return 'NsysAiHeat' .. level(ns, lo, hi, #M.GROUPS)
end

-- The step numbers above the columns: one every `every` steps, at its column.
local function header(steps, pad)
  local every = steps > 40 and 10 or 5
  local line = string.rep(' ', pad)
  for s = 0, steps - 1, every do
    local at = pad + 2 * s
    if at > #line or (at == #line and s == 0) then -- a label that would touch the previous one is left out
      line = line .. string.rep(' ', at - #line) .. tostring(s)
    end
  end
  return line
end

-- Lines and highlights ({line (0-based, relative), col_start, col_end (bytes), group}) of the map; x0 is the byte
-- column where the cells start on every rank line.
function M.layout(map)
  local lo, hi = range_of(map.cells)
  local width = 0
  for _, r in ipairs(map.ranks) do
    width = math.max(width, #r)
  end
  local pad = width + 2
  local lines, marks = { header(map.steps, pad) }, {}
  for _, rank in ipairs(map.ranks) do
    local text = rank .. string.rep(' ', pad - #rank)
    for s = 0, map.steps - 1 do
      local c = (map.grid[rank] or {})[s]
      local glyph = c and M.block(c.step_ns, lo, hi) or '·'
      if c then
        table.insert(marks, { #lines, #text, #text + 2 * #glyph, M.group(c.step_ns, lo, hi) })
      end
      text = text .. glyph .. glyph
    end
    table.insert(lines, text)
  end
  return { lines = lines, marks = marks, x0 = pad, lo = lo, hi = hi }
end

-- The cell under display column `col` (0-based) of rank line `rank`, or nil.
function M.cell_at(map, layout, rank, col)
  if col < layout.x0 then
    return nil
  end
  return (map.grid[rank] or {})[math.floor((col - layout.x0) / 2)]
end

return M
