-- Jobs: a directory of rank exports opened as one. :NsysOpenJob {dir} shows the job view (nsys/jobReport's
-- line per rank, the memory line, and the ranks x steps heat map of job_step_heatmap via nsys/runSkillOnJob);
-- :NsysAnalyzeJob shows nsys/analyzeJob's findings; :NsysJobPerfetto opens the job's timeline in Perfetto as
-- :NsysPerfetto opens a profile's (nsys/openInPerfetto with the jobId); :NsysCloseJob closes it. Each is a request
-- with its progress echoed, and a rendering of the answer. :NsysAnalyzeJob and :NsysJobPerfetto send the job's ranks
-- per node (consecutive ranks that share a node's clock) as ranksPerNode when more than 0: their count
-- (`:NsysJobPerfetto 4` or `ranks_per_node=4`, kept as the job's own), else the job's own, else setup's
-- job.ranks_per_node.
local client = require('nsys_ai.client')
local config = require('nsys_ai.config')
local heatmap = require('nsys_ai.heatmap')
local render = require('nsys_ai.render')

local M = {}

M.jobs = {} -- jobId -> { jobId, directory, ranks, ranks_per_node?, view = { bufnr, map, layout, first } }
M.current = nil -- the last opened job id
M.HEATMAP_SKILL = 'job_step_heatmap'

local function finish(op, err, result, cb)
  require('nsys_ai').finish(op, err, result, cb)
end

-- The job of the current buffer (job view, analysis), else the last opened one.
function M.job_id()
  local ok, id = pcall(vim.api.nvim_buf_get_var, 0, 'nsys_ai_job')
  if ok and M.jobs[id] then
    return id
  end
  return M.current
end

local function need_job(op, cb)
  local id = M.job_id()
  if not id then
    finish(op, { message = 'No job is open: run :NsysOpenJob {directory} first.' }, nil, cb)
  end
  return id
end

-- The params of a job command that sends ranksPerNode (:NsysAnalyzeJob, :NsysJobPerfetto) for the current job, or nil
-- once the error is recorded as `op`. `arg` is the command's count; one that is not a whole number, 0 or more, is
-- refused here, as is such a setup option.
local function job_params(op, command, arg, cb)
  local id = need_job(op, cb)
  if not id then
    return nil
  end
  local job, text = M.jobs[id], vim.trim(arg or '')
  if text ~= '' then
    local n = tonumber(text:match('^ranks_per_node=(%d+)$') or text:match('^(%d+)$'))
    if not n then
      return finish(op, { message = string.format('Usage: :%s [N | ranks_per_node=N]: N consecutive ranks share a '
        .. 'node (one clock), a whole number, 0 or more (0: each rank its own node); got %q', command, text) }, nil, cb)
    end
    job.ranks_per_node = n
  end
  local n = job.ranks_per_node or config.options.job.ranks_per_node
  if type(n) ~= 'number' or n < 0 or n % 1 ~= 0 then
    return finish(op, { message = 'setup({ job = { ranks_per_node = N } }): N must be a whole number, 0 or more (it is '
      .. vim.inspect(n) .. ')' }, nil, cb)
  end
  return { jobId = id, ranksPerNode = n > 0 and n or nil }
end

-- A request with its progress echoed under `title`; cb(err, result).
local function request(method, params, title, cb)
  params.workDoneToken = client.progress_token(title)
  client.request(method, params, function(err, res)
    client.release(params.workDoneToken)
    cb(err, res)
  end)
end

local function bytes(n)
  local units, v, u = { 'B', 'KiB', 'MiB', 'GiB', 'TiB' }, tonumber(n) or 0, 1
  while v >= 1024 and u < #units do
    v, u = v / 1024, u + 1
  end
  return u == 1 and string.format('%d B', v) or string.format('%.1f %s', v, units[u])
end

function M.memory_line(m)
  return string.format(
    'Memory: peak %s of a %s budget · %d rank loads · %d evictions · %d ranks over budget',
    bytes(m.peakAccountedBytes),
    bytes(m.budgetBytes),
    m.loads or 0,
    m.evictions or 0,
    m.overBudgetRanks or 0
  )
end

local RANK_COLUMNS = {
  { name = 'rank', type = 'string' },
  { name = 'kernels', type = 'int' },
  { name = 'GPU time', type = 'double' },
  { name = 'NCCL time', type = 'double' },
  { name = 'NCCL kernels', type = 'int' },
  { name = 'step time', type = 'double' },
  { name = 'steps', type = 'int' },
  { name = 'errors', type = 'string' },
}

local function rank_rows(ranks)
  local rows = {}
  for _, r in ipairs(ranks) do
    local step = (r.stepTimeNs and r.stepTimeNs ~= vim.NIL) and render.ms(r.stepTimeNs) or '-'
    local err = (r.error and r.error ~= vim.NIL) and r.error or ''
    table.insert(rows, { r.rank, r.kernels, render.ms(r.gpuTimeNs), render.ms(r.ncclTimeNs), r.ncclKernels, step, r.steps, err })
  end
  return rows
end

local function pct(p)
  return string.format('%+.1f %%', p)
end

-- "rank0001 · step 3: 61.234 ms, +1.2 % vs the step's median, GPU busy 55.000 ms"
function M.cell_text(c)
  local vs = c.pct and (', ' .. pct(c.pct) .. " vs the step's median") or ''
  local busy = c.gpu_busy_ns and (', GPU busy ' .. render.ms(c.gpu_busy_ns)) or ''
  return string.format('%s · step %d: %s%s%s', c.rank, c.step, render.ms(c.step_ns), vs, busy)
end

local function slowest(map)
  local top
  for _, c in ipairs(map.cells) do
    if c.pct and (not top or c.pct > top.pct) then
      top = c
    end
  end
  return top and ('Slowest against its step: ' .. M.cell_text(top)) or nil
end

local function heatmap_lines(map, layout)
  local lines = {
    '## Step time, ranks x steps (job_step_heatmap)',
    '',
  }
  vim.list_extend(lines, layout.lines)
  table.insert(lines, '')
  table.insert(lines, string.format(
    "Step time from %s %s (dark) to %s %s (bright). K on a cell: its time against the step's median over the ranks.",
    heatmap.BLOCKS[1], render.ms(layout.lo), heatmap.BLOCKS[#heatmap.BLOCKS], render.ms(layout.hi)))
  table.insert(lines, slowest(map))
  return lines
end

local function notes_lines(title, notes)
  local lines = {}
  for _, n in ipairs(notes or {}) do
    table.insert(lines, title .. n)
  end
  return lines
end

-- The view's lines; `first` is the 0-based line of the heat map's header line.
local function view_lines(job, rep, map, layout, hm_err)
  local lines = { string.format('# Job %s (%d ranks, %s)', job.directory, #rep.ranks, job.jobId), '' }
  vim.list_extend(lines, render.table(RANK_COLUMNS, rank_rows(rep.ranks)))
  vim.list_extend(lines, { '', M.memory_line(rep.memory), '' })
  local first
  if hm_err then
    table.insert(lines, 'Heat map: ' .. (hm_err.message or vim.inspect(hm_err)))
  elseif #map.cells == 0 then
    vim.list_extend(lines, notes_lines('Heat map: ', map.notes))
  else
    first = #lines + 2
    vim.list_extend(lines, heatmap_lines(map, layout))
    vim.list_extend(lines, notes_lines('Note: ', map.notes))
  end
  vim.list_extend(lines, { '' })
  vim.list_extend(lines, notes_lines('Note: ', rep.notes))
  return lines, first
end

local function highlight(buf, layout, first)
  local ns = vim.api.nvim_create_namespace('nsys_ai_heatmap')
  vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  if not first then
    return
  end
  for _, m in ipairs(layout.marks) do
    vim.api.nvim_buf_add_highlight(buf, ns, m[4], first + m[1], m[2], m[3])
  end
end

-- The heat map cell under the cursor of a job view, or nil.
function M.cell_under_cursor()
  local job = M.jobs[M.job_id()]
  local view = job and job.view
  local pos = vim.api.nvim_win_get_cursor(0)
  if not view or view.bufnr ~= vim.api.nvim_get_current_buf() or not view.first then
    return nil
  end
  local rank = view.map.ranks[pos[1] - 1 - view.first]
  local line = vim.api.nvim_get_current_line()
  local col = vim.fn.strdisplaywidth(line:sub(1, pos[2]))
  return rank and heatmap.cell_at(view.map, view.layout, rank, col) or nil
end

function M.show_cell()
  local c = M.cell_under_cursor()
  if c then
    client.notify(M.cell_text(c))
  end
  return c
end

local function show(job, rep, map, hm_err)
  local layout = heatmap.layout(map)
  local lines, first = view_lines(job, rep, map, layout, hm_err)
  local buf = render.scratch('nsys-ai://job/' .. job.jobId, lines, { filetype = 'nsys_ai_job' })
  vim.api.nvim_buf_set_var(buf, 'nsys_ai_job', job.jobId)
  local win = vim.fn.bufwinid(buf)
  if win ~= -1 then
    vim.api.nvim_win_set_option(win, 'wrap', false)
  end
  heatmap.define_highlights()
  highlight(buf, layout, first)
  vim.keymap.set('n', 'K', M.show_cell, { buffer = buf, silent = true, desc = 'nsys-ai: the heat map cell' })
  job.view = { bufnr = buf, map = map, layout = layout, first = first }
  return buf
end

-- nsys/jobReport, then job_step_heatmap (a memo hit: its partials were computed in the report's visit of each rank).
function M.view(id, cb)
  local job = M.jobs[id]
  request('nsys/jobReport', { jobId = id }, 'Job report', function(err, rep)
    if err then
      return finish('open_job', err, nil, cb)
    end
    local order = vim.tbl_map(function(r)
      return r.rank
    end, rep.ranks)
    local params = { jobId = id, skill = M.HEATMAP_SKILL }
    request('nsys/runSkillOnJob', params, 'Heat map', function(err2, res)
      local map = heatmap.from_result(res or {}, order)
      map.notes = res and res.notes or {}
      local buf = show(job, rep, map, err2)
      client.brief(string.format('Job %s: %d ranks · %s', vim.fn.fnamemodify(job.directory, ':t'), #rep.ranks, M.memory_line(rep.memory)))
      finish('open_job', nil, { job = job, report = rep, heatmap = map, heatmap_result = res, bufnr = buf }, cb)
    end)
  end)
end

-- :NsysOpenJob {dir}: opens the directory's rank exports as one job and shows its view.
function M.open(dir, cb)
  local path = dir and dir ~= '' and vim.fn.fnamemodify(vim.fn.expand(dir), ':p'):gsub('/$', '') or nil
  if not path or vim.fn.isdirectory(path) ~= 1 then
    return finish('open_job', { message = 'Usage: :NsysOpenJob {directory of rank exports (.sqlite, .nsys-rep, .qdrep)}' }, nil, cb)
  end
  request('nsys/openJob', { directory = path }, 'Opening the job', function(err, res)
    if err then
      return finish('open_job', err, nil, cb)
    end
    M.jobs[res.jobId] = { jobId = res.jobId, directory = path, ranks = res.ranks }
    M.current = res.jobId
    M.view(res.jobId, cb)
  end)
end

-- The findings' Markdown: the server's whole report, else each finding's answer.
local function analysis_lines(res)
  if type(res.markdown) == 'string' and res.markdown ~= '' then
    return render.split_text(res.markdown)
  end
  local lines = { '# ' .. (res.summary or 'Findings across the ranks'), '' }
  for _, f in ipairs(res.findings or {}) do
    vim.list_extend(lines, { '## [' .. tostring(f.severity) .. '] ' .. f.title, '' })
    vim.list_extend(lines, render.split_text(f.answer and f.answer.markdown or ''))
  end
  return lines
end

-- :NsysAnalyzeJob [N]: nsys/analyzeJob's findings in a Markdown buffer.
function M.analyze(arg, cb)
  local params = job_params('analyze_job', 'NsysAnalyzeJob', arg, cb)
  if not params then
    return
  end
  local id = params.jobId
  request('nsys/analyzeJob', params, 'Analyzing the job', function(err, res)
    if err then
      return finish('analyze_job', err, nil, cb)
    end
    local buf = render.scratch('nsys-ai://job/' .. id .. '/analysis.md', analysis_lines(res), { filetype = 'markdown' })
    vim.api.nvim_buf_set_var(buf, 'nsys_ai_job', id)
    client.brief(res.summary or (#(res.findings or {}) .. ' findings across the ranks'))
    finish('analyze_job', nil, { bufnr = buf, result = res }, cb)
  end)
end

-- :NsysJobPerfetto [N]: the path of :NsysPerfetto (init.lua's open_in_perfetto) with the job's id: the server writes
-- every rank on the job's clock into one trace (the bytes nsys/exportJobTrace writes) and serves it behind a token;
-- the opener page opens through window/showDocument, else here.
function M.perfetto(arg, cb)
  local params = job_params('job_perfetto', 'NsysJobPerfetto', arg, cb)
  if not params then
    return
  end
  require('nsys_ai').open_in_perfetto('job_perfetto', params, 'Job trace for Perfetto', cb)
end

-- :NsysCloseJob: closes the job on the server and wipes its buffers.
function M.close(cb)
  local id = need_job('close_job', cb)
  if not id then
    return
  end
  client.request('nsys/closeJob', { jobId = id }, function(err)
    local view = M.jobs[id].view
    M.jobs[id] = nil
    if M.current == id then
      M.current = nil
    end
    if view and vim.api.nvim_buf_is_valid(view.bufnr) then
      vim.api.nvim_buf_delete(view.bufnr, { force = true })
    end
    finish('close_job', err, not err and { jobId = id } or nil, cb)
  end)
end

return M
