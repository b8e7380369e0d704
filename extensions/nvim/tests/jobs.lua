-- Jobs: the per-rank exports of one multi-process job (loaded by run.lua with the shared helpers.lua).
local H = ...
local root = H.root
local tmp = H.tmp
local test = H.test
local eq = H.eq
local truthy = H.truthy
local buf_text = H.buf_text
local contains = H.contains
local noted = H.noted
local binary = H.binary
local fixtures = H.fixtures
local nsys = H.nsys
local client = H.client
local expect_one_open = H.expect_one_open
local run = H.run
local sqlite = H.sqlite

-- Jobs. A job made here at test time from mfu_2gpu_before.sqlite by the shared split_ranks.py (one real
-- export per GPU process: 2 ranks), never committed. Expected figures: sqlite3 on the rank files (kernels, their
-- summed durations, NCCL kernels by name; computed again below) and, for the steps, the `iterations` skill on the
-- unsplit source process by process (pid 144 is rank0000, 145 is rank0001): iterations 0, 6 and 14 below.
local SPLIT = vim.env.NSYS_AI_SPLIT_RANKS or vim.fn.fnamemodify(fixtures .. '/../tools/split_ranks.py', ':p')
local JOB_DIR = tmp .. '/job'
local JOB_RANKS = {
  { rank = 'rank0000', kernels = 1993, gpu = 270875926, nccl_kernels = 33, nccl = 17172652 },
  { rank = 'rank0001', kernels = 2017, gpu = 264324724, nccl_kernels = 33, nccl = 8229100 },
}
local JOB_CELLS = {
  { 'rank0000', 0, 16942682 }, { 'rank0001', 0, 16944146 }, { 'rank0000', 6, 22311001 },
  { 'rank0001', 6, 22313699 }, { 'rank0000', 14, 19586459 }, { 'rank0001', 14, 19633539 },
}
local jobs = require('nsys_ai.job')
local opened_job


-- The heat map line of a rank: its cells after the label column, one glyph per step.
local function heat_glyphs(buf, rank)
  local view = jobs.jobs[opened_job.job.jobId].view
  for i, r in ipairs(view.map.ranks) do
    if r == rank then
      local line = vim.api.nvim_buf_get_lines(buf, view.first + i, view.first + i + 1, false)[1]
      local cells = line:sub(view.layout.x0 + 1)
      local glyphs = {}
      for c = 0, vim.fn.strchars(cells) - 1, 2 do
        table.insert(glyphs, vim.fn.strcharpart(cells, c, 1))
      end
      return glyphs, line
    end
  end
end

test(':NsysOpenJob {dir}: the ranks as sqlite3 counts them, the memory line, the ranks x steps heat map', function()
  vim.fn.system({ 'python3', SPLIT, fixtures .. '/mfu_2gpu_before.sqlite', JOB_DIR })
  eq(vim.v.shell_error, 0, 'split_ranks.py made the job')
  local n_progress = #client.progress_log
  opened_job = run('open_job', 'NsysOpenJob ' .. JOB_DIR)
  local buf = opened_job.bufnr
  eq(vim.api.nvim_get_current_buf(), buf, 'the job view is shown')
  eq(vim.api.nvim_buf_get_name(buf), 'nsys-ai://job/' .. opened_job.job.jobId, 'buffer name')
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  eq(lines[1], '# Job ' .. JOB_DIR .. ' (2 ranks, ' .. opened_job.job.jobId .. ')', 'title')
  for i, e in ipairs(JOB_RANKS) do
    local file = JOB_DIR .. '/' .. e.rank .. '.sqlite'
    local all = sqlite(file, 'select count(*), sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL')
    local nccl = sqlite(file, 'select count(*), sum(k.end - k.start) from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s '
      .. "on s.id = k.demangledName where s.value like '%nccl%'")
    eq(table.concat(all, ' ') .. ' ' .. table.concat(nccl, ' '), e.kernels .. ' ' .. e.gpu .. ' ' .. e.nccl_kernels .. ' ' .. e.nccl, 'sqlite3 ' .. e.rank)
    local r = opened_job.report.ranks[i]
    local words = vim.split(lines[4 + i], '%s+', { trimempty = true })
    eq(table.concat(vim.list_slice(words, 1, 7), ' '), string.format('%s %d %.3f ms %.3f ms %d', e.rank, e.kernels, e.gpu / 1e6, e.nccl / 1e6, e.nccl_kernels), 'rank line ' .. i)
    eq(table.concat(vim.list_slice(words, 8), ' '), string.format('%.3f ms 16', r.stepTimeNs / 1e6), 'step time and steps ' .. i)
  end
  truthy(lines[8]:match('^Memory: peak [%d.]+ MiB of a 4%.0 GiB budget · 2 rank loads · 0 evictions · 0 ranks over budget$'), 'memory line: ' .. lines[8])
  -- The heat map: the server's cells, 16 steps per rank; heights and colours from the shortest to the longest cell.
  local map = opened_job.heatmap
  eq(#map.cells, 32, 'cells')
  for _, c in ipairs(JOB_CELLS) do
    eq(map.grid[c[1]][c[2]].step_ns, c[3], c[1] .. ' step ' .. c[2])
  end
  for _, e in ipairs(JOB_RANKS) do
    local ns = {}
    for s = 0, 15 do
      table.insert(ns, map.grid[e.rank][s].step_ns)
    end
    table.sort(ns)
    eq(opened_job.report.ranks[e.rank == 'rank0000' and 1 or 2].stepTimeNs, math.floor((ns[8] + ns[9]) / 2), 'step time: the median of ' .. e.rank .. "'s cells")
  end
  local glyphs = heat_glyphs(buf, 'rank0001')
  eq(#glyphs, 16, 'one glyph per step')
  eq(glyphs[7], '█', 'the longest cell (rank0001 step 6)')
  eq(glyphs[11], '▁', 'the shortest cell (rank0001 step 10)')
  local ns = vim.api.nvim_create_namespace('nsys_ai_heatmap')
  local marks = vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })
  eq(#marks, 32, 'one highlight per cell')
  local groups = {}
  for _, m in ipairs(marks) do
    groups[m[4].hl_group] = (groups[m[4].hl_group] or 0) + 1
  end
  eq(groups.NsysAiHeat5, 2, 'step 6 of both ranks is the hottest')
  truthy(vim.fn.hlexists('NsysAiHeat1') == 1, 'the highlight groups are defined')
  contains(buf_text(buf), 'Slowest against its step: rank0001 · step 14: 19.634 ms, +0.1 % vs the step\'s median, GPU busy 17.053 ms', 'slowest cell')
  -- Progress: openJob, jobReport and runSkillOnJob each begin and end (per-rank reports come at most 10 a second).
  local kinds = { begin = 0, ['end'] = 0 }
  for i = n_progress + 1, #client.progress_log do
    local v = client.progress_log[i]
    kinds[v.kind] = (kinds[v.kind] or 0) + 1
    truthy(v.kind ~= 'report' or (v.message or ''):match('^rank000[01] done %([12]/2%)$'), 'a per-rank report: ' .. vim.inspect(v))
  end
  eq(kinds.begin .. ' ' .. kinds['end'], '3 3', 'begin and end of the three requests')
end)

test('K on a heat map cell shows its figures', function()
  local _, line = heat_glyphs(opened_job.bufnr, 'rank0000')
  local view = jobs.jobs[opened_job.job.jobId].view
  local row = view.first + 2 -- 1-based: the header, then rank0000
  eq(vim.api.nvim_buf_get_lines(opened_job.bufnr, row - 1, row, false)[1], line, 'rank0000 line')
  -- Step 6's second column: the byte offset of display column x0 + 13.
  vim.api.nvim_win_set_cursor(0, { row, #vim.fn.strcharpart(line, 0, view.layout.x0 + 13) })
  vim.cmd('normal K')
  truthy(noted("rank0000 · step 6: 22.311 ms, -0.0 % vs the step's median, GPU busy 18.663 ms"), 'K echoed the cell')
  vim.api.nvim_win_set_cursor(0, { row, 0 })
  eq(jobs.cell_under_cursor(), nil, 'no cell on the label')
end)

test(':NsysAnalyzeJob: the findings across the ranks as Markdown in a buffer', function()
  local res = run('analyze_job', 'NsysAnalyzeJob')
  eq(#res.result.findings, 1, 'one finding')
  local f = res.result.findings[1]
  eq(f.rootCause, 'job_straggler', 'root cause')
  truthy(f.title:match('^rank0001 is the last to start %d+ of 33 collectives'), 'title ' .. f.title)
  eq(vim.api.nvim_buf_get_name(res.bufnr), 'nsys-ai://job/' .. opened_job.job.jobId .. '/analysis.md', 'buffer name')
  eq(vim.api.nvim_buf_get_option(res.bufnr, 'filetype'), 'markdown', 'filetype')
  contains(buf_text(res.bufnr), f.title, 'the finding in the buffer')
  contains(buf_text(res.bufnr), '| rank0001 | ', 'its evidence table')
end)

local function sha256_of(file)
  local text = vim.fn.system({ 'sha256sum', file })
  eq(vim.v.shell_error, 0, 'sha256sum ' .. file)
  return text:match('^(%x+)')
end

-- The path of :NsysPerfetto with the job's id: nsys/openInPerfetto {jobId}, the page opened through the server's
-- window/showDocument; the served trace is the file nsys/exportJobTrace writes for the same job, byte for byte.
test(':NsysJobPerfetto opens the job’s timeline like :NsysPerfetto: exportJobTrace’s bytes behind a token', function()
  local before = #client.opened_urls
  local res = run('job_perfetto', 'NsysJobPerfetto')
  local port, token = res.url:match('^http://127%.0%.0%.1:(%d+)/p/(%x+)/$')
  truthy(port, 'loopback url ' .. res.url)
  eq(tonumber(port), res.port, 'port')
  eq(token, res.token, 'token')
  eq(#token, 32, 'token length')
  eq(res.traceUrl, res.url .. 'trace.pftrace', 'traceUrl')
  eq(res.window, 'whole job', 'window')
  eq(res.showDocument, true, 'the server used window/showDocument')
  expect_one_open(before, 'opened once')
  eq(client.opened_urls[#client.opened_urls], res.url, 'the opener got the url')
  eq(vim.trim(vim.fn.system({ 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', res.url })), '200', 'the opener page answers')
  local fetched = tmp .. '/job-fetched.pftrace'
  eq(vim.trim(vim.fn.system({ 'curl', '-s', '-o', fetched, '-w', '%{http_code}', res.traceUrl })), '200', 'the trace answers')
  eq(vim.fn.getfsize(fetched), res.bytes, 'bytes served')
  eq(sha256_of(fetched), res.sha256, 'sha256 of the served trace')
  local exported
  client.request('nsys/exportJobTrace', { jobId = opened_job.job.jobId }, function(e, r)
    exported = { err = e, res = r }
  end)
  truthy(vim.wait(120000, function()
    return exported ~= nil
  end, 20), 'exportJobTrace answered')
  truthy(not exported.err, 'exportJobTrace: ' .. vim.inspect(exported.err))
  local ok, err = pcall(function()
    eq(exported.res.sha256, sha256_of(exported.res.path), 'exportJobTrace’s file and its sha256')
    eq(exported.res.sha256, res.sha256, 'the published trace is exportJobTrace’s, byte for byte')
    eq(exported.res.slices.kernels, JOB_RANKS[1].kernels + JOB_RANKS[2].kernels, 'every rank’s kernels')
  end)
  vim.fn.delete(exported.res.path)
  vim.fn.delete(fetched)
  if not ok then
    error(err, 0)
  end
end)

-- The ranks per node (consecutive ranks that share a node's clock): setup's job.ranks_per_node, or the job's own from
-- a command's count, sent as ranksPerNode when more than 0. On this job 2 ranks on one node share a clock, so the
-- server's straggler finding and trace differ from those of a clock per rank; the plugin shows the server's answer
-- to the same request made directly.
local function answer(method, params)
  local got
  client.request(method, params, function(e, r)
    got = { err = e, res = r }
  end)
  truthy(vim.wait(120000, function()
    return got ~= nil
  end, 20), method .. ' answered')
  truthy(not got.err, method .. ': ' .. vim.inspect(got.err))
  return got.res
end

-- The params (without the progress token) of each `method` request the plugin sent while `command` ran, and its result.
local function on_the_wire(method, op, command, want_err)
  local request, sent = client.request, {}
  client.request = function(m, params, cb)
    if m == method then
      local own = vim.deepcopy(params)
      own.workDoneToken = nil
      table.insert(sent, own)
    end
    return request(m, params, cb)
  end
  local ok, res = pcall(run, op, command, want_err)
  client.request = request
  if not ok then
    error(res, 0)
  end
  return sent, res
end

-- The sha256 of the trace nsys/exportJobTrace writes (into the server's cache) for these params.
local function exported_sha(params)
  local res = answer('nsys/exportJobTrace', params)
  local sha = sha256_of(res.path)
  vim.fn.delete(res.path)
  eq(sha, res.sha256, 'exportJobTrace’s file and its sha256')
  return sha
end

local function setup_job(ranks_per_node)
  nsys.setup({ cmd = { binary, 'serve', '--stdio' }, open_url = function() end, job = { ranks_per_node = ranks_per_node } })
end

test('setup job.ranks_per_node = 2: :NsysAnalyzeJob sends ranksPerNode 2 and shows the server’s findings for it', function()
  setup_job(2)
  local id = opened_job.job.jobId
  local sent, res = on_the_wire('nsys/analyzeJob', 'analyze_job', 'NsysAnalyzeJob')
  eq(vim.inspect(sent), vim.inspect({ { jobId = id, ranksPerNode = 2 } }), 'sent')
  local direct = answer('nsys/analyzeJob', { jobId = id, ranksPerNode = 2 })
  truthy(direct.findings[1].title ~= answer('nsys/analyzeJob', { jobId = id }).findings[1].title, 'the value changes the answer')
  truthy(vim.deep_equal(res.result, direct), 'the server’s answer for 2 ranks per node')
  contains(buf_text(res.bufnr), direct.findings[1].title, 'its finding in the buffer')
end)

test('a negative or malformed ranks per node is refused with a message and nothing is sent', function()
  setup_job(-1)
  local sent, err = on_the_wire('nsys/analyzeJob', 'analyze_job', 'NsysAnalyzeJob', true)
  eq(err.message, 'setup({ job = { ranks_per_node = N } }): N must be a whole number, 0 or more (it is -1)', 'setup')
  truthy(noted(err.message, vim.log.levels.ERROR), 'shown')
  eq(#sent, 0, 'nothing sent')
  setup_job(0)
  for _, c in ipairs({ { 'analyze_job', 'NsysAnalyzeJob -1', 'nsys/analyzeJob' }, { 'job_perfetto', 'NsysJobPerfetto ranks_per_node=x', 'nsys/openInPerfetto' } }) do
    sent, err = on_the_wire(c[3], c[1], c[2], true)
    contains(err.message, 'Usage: :' .. vim.split(c[2], ' ')[1] .. ' [N | ranks_per_node=N]', c[2])
    eq(#sent, 0, c[2] .. ': nothing sent')
  end
  eq(jobs.jobs[opened_job.job.jobId].ranks_per_node, nil, 'the job has no value of its own')
end)

test(':NsysJobPerfetto 2 opens once the trace exportJobTrace writes for 2 ranks per node; the count stays the job’s', function()
  local id = opened_job.job.jobId
  local before = #client.opened_urls
  local sent, res = on_the_wire('nsys/openInPerfetto', 'job_perfetto', 'NsysJobPerfetto 2')
  eq(vim.inspect(sent), vim.inspect({ { jobId = id, ranksPerNode = 2 } }), 'sent (setup says 0)')
  expect_one_open(before, 'opened once')
  local fetched = tmp .. '/job2-fetched.pftrace'
  eq(vim.trim(vim.fn.system({ 'curl', '-s', '-o', fetched, '-w', '%{http_code}', res.traceUrl })), '200', 'the trace answers')
  eq(sha256_of(fetched), res.sha256, 'sha256 of the served trace')
  vim.fn.delete(fetched)
  eq(res.sha256, exported_sha({ jobId = id, ranksPerNode = 2 }), 'exportJobTrace’s trace for 2 ranks per node')
  truthy(res.sha256 ~= exported_sha({ jobId = id }), 'not the trace of a clock per rank')
  -- The job keeps its count: the next command sends it; its own 0 then beats setup's 2 and sends none.
  sent = on_the_wire('nsys/analyzeJob', 'analyze_job', 'NsysAnalyzeJob')
  eq(vim.inspect(sent), vim.inspect({ { jobId = id, ranksPerNode = 2 } }), 'the job’s own 2')
  setup_job(2)
  sent = on_the_wire('nsys/analyzeJob', 'analyze_job', 'NsysAnalyzeJob ranks_per_node=0')
  sent = vim.list_extend(sent, (on_the_wire('nsys/analyzeJob', 'analyze_job', 'NsysAnalyzeJob')))
  eq(vim.inspect(sent), vim.inspect({ { jobId = id }, { jobId = id } }), 'the job’s own 0, twice')
  setup_job(0)
end)

-- The old names (the multi-rank noun was "run"): each old command is the new one's function, and setup's old `run`
-- table is read as `job`.
test('the old names :NsysOpenRun, :NsysAnalyzeRun, :NsysRunPerfetto, :NsysCloseRun and setup({ run = ... }) still work', function()
  local cmds = vim.api.nvim_get_commands({})
  for old, new in pairs({ NsysOpenRun = 'NsysOpenJob', NsysAnalyzeRun = 'NsysAnalyzeJob',
    NsysRunPerfetto = 'NsysJobPerfetto', NsysCloseRun = 'NsysCloseJob' }) do
    truthy(cmds[old], ':' .. old .. ' is defined')
    eq(cmds[old].nargs, cmds[new].nargs, ':' .. old .. ' nargs')
    contains(cmds[old].definition, 'old name of :' .. new, ':' .. old .. ' description')
  end
  local id = opened_job.job.jobId
  jobs.jobs[id].ranks_per_node = nil -- the previous test left the job's own 0, which would beat setup's value
  nsys.setup({ cmd = { binary, 'serve', '--stdio' }, open_url = function() end, run = { ranks_per_node = 2 } })
  local sent, res = on_the_wire('nsys/analyzeJob', 'analyze_job', 'NsysAnalyzeRun')
  setup_job(0)
  eq(vim.inspect(sent), vim.inspect({ { jobId = id, ranksPerNode = 2 } }), 'the old command sent nsys/analyzeJob with the old setup table’s value')
  eq(vim.api.nvim_buf_get_name(res.bufnr), 'nsys-ai://job/' .. id .. '/analysis.md', 'the job’s analysis buffer')
  truthy(vim.deep_equal(res.result, answer('nsys/analyzeJob', { jobId = id, ranksPerNode = 2 })), 'the server’s answer')
end)

test(':NsysCloseJob closes the job on the server', function()
  local id = opened_job.job.jobId
  run('close_job', 'NsysCloseJob')
  eq(jobs.jobs[id], nil, 'forgotten')
  eq(vim.api.nvim_buf_is_valid(opened_job.bufnr), false, 'its view is wiped')
  local err
  client.request('nsys/jobReport', { jobId = id }, function(e)
    err = e or false
  end)
  truthy(vim.wait(10000, function()
    return err ~= nil
  end, 20), 'answered')
  eq(err and err.code, -32602, 'the id is gone')
end)

test(':NsysOpenJob errors: not a directory, a directory without rank exports', function()
  local err = run('open_job', 'NsysOpenJob ' .. tmp .. '/no/such/dir', true)
  contains(err.message, 'Usage: :NsysOpenJob', 'usage')
  vim.fn.mkdir(tmp .. '/empty_job', 'p')
  err = run('open_job', 'NsysOpenJob ' .. tmp .. '/empty_job', true)
  contains(err.message, tmp .. '/empty_job', 'the server names the directory')
  truthy(noted(err.message, vim.log.levels.ERROR), 'shown as it is')
end)


