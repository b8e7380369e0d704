-- Kernel -> source: code lenses, explanations, diagnostics, refine, .qdrep reports (loaded by run.lua with the shared helpers.lua).
local H = ...
local root = H.root
local tmp = H.tmp
local test = H.test
local skip = H.skip
local eq = H.eq
local truthy = H.truthy
local buf_text = H.buf_text
local contains = H.contains
local notes = H.notes
local noted = H.noted
local binary = H.binary
local fixtures = H.fixtures
local MAIN = H.MAIN
local nsys = H.nsys
local client = H.client
local run = H.run
local sqlite = H.sqlite

-- The profile's numbers on the user's own source lines. The real pair: the EfficientCenterFormer
-- evaluation script whose nvtx.annotate ranges produced titanrtx_tensorrt_nvtx.sqlite (TensorRT: no kernel table).
-- Expected figures from sqlite3 (NVTX_EVENTS with StringIds, eventType 59/60, grouped by name): every range 188
-- calls; wall 270.2 / 3009.1 / 2155.7 / 117.4 / 402.0 / 1000.1 ms (also in fixtures/sources/README.md).
-- A copy in the test's temporary directory, so that a code action's edit can be applied and written.
local SOURCES = tmp .. '/efficientcenterformer'
vim.fn.system({ 'cp', '-r', fixtures .. '/sources/efficientcenterformer', tmp })
vim.fn.system({ 'chmod', '-R', 'u+w', SOURCES })
local EVAL = SOURCES .. '/tools/eval_models.py'
local TITAN = fixtures .. '/titanrtx_tensorrt_nvtx.sqlite'
-- A small C++ file written for the tests, whose FUSER_PERF_SCOPE names are ranges of h200_nvfuser_nvtx.sqlite.
local NVFUSER_SRC = vim.fn.fnamemodify(root .. '/../vscode/test/data/nvfuser', ':p'):gsub('/$', '')
local RANGES = {
  { 'reader', 147, 270.2 },
  { '3D_backbone', 150, 3009.1 },
  { 'find_centers', 166, 2155.7 },
  { 'poolformer_forward', 192, 117.4 },
  { 'bbox_head', 198, 402.0 },
  { 'post_processing', 204, 1000.1 },
}

-- A fresh server whose workspace root is the real pair's sources (and the C++ test data as a source root).
local function restart_with_sources()
  nsys.stop()
  truthy(vim.wait(10000, function()
    return client.client_id == nil
  end, 20), 'the server stopped')
  nsys.setup({
    cmd = { binary, 'serve', '--stdio' },
    llm = { provider = 'none' },
    root = SOURCES,
    source_roots = { NVFUSER_SRC },
  })
end

local source = require('nsys_ai.source')
local eval_buf
local lens_ready = false
if vim.fn.filereadable(EVAL) ~= 1 then
  skip('source lenses', 'no real source pair at ' .. EVAL)
else
  test(':NsysOpen with a source root: the client attaches to the script and its lenses carry the profile’s numbers', function()
    restart_with_sources()
    local res = run('open', 'NsysOpen ' .. TITAN)
    eq(res.profile.path, TITAN, 'opened')
    truthy(client.supports('codeLensProvider'), 'the server announces codeLensProvider')
    vim.cmd('filetype on') -- -u NONE starts without filetype detection
    vim.cmd('edit ' .. vim.fn.fnameescape(EVAL))
    eval_buf = vim.api.nvim_get_current_buf()
    eq(vim.bo[eval_buf].filetype, 'python', 'filetype')
    truthy(vim.lsp.buf_is_attached(eval_buf, client.client_id), 'the client is attached to the source buffer')
    -- The server indexes the root in the background; the lenses come once it has.
    truthy(vim.wait(30000, function()
      if #vim.lsp.codelens.get(eval_buf) >= #RANGES then
        return true
      end
      source.refresh_lenses(eval_buf)
      return false
    end, 200), 'lenses arrived: ' .. vim.inspect(vim.lsp.codelens.get(eval_buf)))
    local by_line = {}
    for _, lens in ipairs(vim.lsp.codelens.get(eval_buf)) do
      by_line[lens.range.start.line] = lens
    end
    for _, r in ipairs(RANGES) do
      local lens = truthy(by_line[r[2]], 'a lens on line ' .. (r[2] + 1) .. ' (' .. r[1] .. ')')
      local title = lens.command.title
      eq(title:sub(1, #'188 calls · '), '188 calls · ', 'calls of ' .. r[1])
      local ms = tonumber(title:match('· ([%d.]+) ms'))
      truthy(ms and math.abs(ms - r[3]) < 0.6, r[1] .. ': ' .. title .. ' vs ' .. r[3] .. ' ms')
      contains(title, 'no kernel data', 'title')
      eq(lens.command.command, 'nsys-ai.revealRange', 'lens command')
      eq(lens.command.arguments[1].name, r[1], 'lens argument name')
    end
    -- Shown as virtual text on those lines.
    local ns = vim.lsp.codelens.__namespaces[client.client_id]
    local marks = vim.api.nvim_buf_get_extmarks(eval_buf, ns, { 150, 0 }, { 150, -1 }, { details = true })
    truthy(#marks == 1, 'one lens mark on line 151')
    contains(marks[1][4].virt_text[1][1], '188 calls', 'virtual text')
    lens_ready = true
  end)

  test('K on a range name in the script: textDocument/hover with its calls and wall time', function()
    truthy(lens_ready, 'the lenses test ran')
    vim.api.nvim_set_current_buf(eval_buf)
    local line = vim.api.nvim_buf_get_lines(eval_buf, 150, 151, false)[1]
    vim.api.nvim_win_set_cursor(0, { 151, line:find('3D_backbone', 1, true) + 1 })
    local resp = vim.lsp.buf_request_sync(eval_buf, 'textDocument/hover', vim.lsp.util.make_position_params(), 30000)
    local r = truthy(resp and resp[client.client_id], 'hover answered')
    truthy(not r.err and r.result, 'a hover: ' .. vim.inspect(r))
    contains(r.result.contents.value, '3D_backbone', 'hover')
    contains(r.result.contents.value, '188', 'hover calls')
  end)

  test('the lens command runs on the server (Perfetto opens on the range)', function()
    truthy(lens_ready, 'the lenses test ran')
    vim.api.nvim_set_current_buf(eval_buf)
    vim.api.nvim_win_set_cursor(0, { 151, 0 })
    local before = #client.opened_urls
    nsys.setup({ cmd = { binary, 'serve', '--stdio' }, root = SOURCES, source_roots = { NVFUSER_SRC }, open_url = function() end })
    vim.lsp.codelens.run()
    truthy(vim.wait(30000, function()
      return #client.opened_urls > before
    end, 20), 'window/showDocument opened the Perfetto page')
    truthy(client.opened_urls[#client.opened_urls]:match('^http://127%.0%.0%.1:%d+/p/'), 'loopback url')
  end)
end

test(':NsysExplain and nsys-ai://explain/ buffers show a kernel’s explanation', function()
  local h200 = run('open', 'NsysOpen ' .. fixtures .. '/h200_nvfuser_nvtx.sqlite').profile
  local res = run('explain', 'NsysExplain nvfuser_pointwise_f0_c1_r0_g0')
  eq(vim.api.nvim_buf_get_name(res.bufnr), 'nsys-ai://explain/' .. h200.profileId .. '/nvfuser_pointwise_f0_c1_r0_g0', 'name')
  contains(buf_text(res.bufnr), 'nvfuser_pointwise_f0_c1_r0_g0', 'explanation')
  eq(res.result.calls, 1, 'calls (sqlite3: one execution)')
  eq(res.result.totalNs, 694040, 'GPU time (sqlite3: end - start)')
  -- A hover's kernel link: the name percent-encoded.
  local before = nsys.done.explain
  vim.cmd('edit ' .. vim.fn.fnameescape('nsys-ai://explain/' .. h200.profileId .. '/nvfuser%5Fpointwise%5Ff1%5Fc1%5Fr0%5Fg1'))
  truthy(vim.wait(30000, function()
    return nsys.done.explain > before
  end, 20), 'the link was explained')
  eq(vim.api.nvim_buf_get_name(0), 'nsys-ai://explain/' .. h200.profileId .. '/nvfuser%5Fpointwise%5Ff1%5Fc1%5Fr0%5Fg1', 'the link\'s buffer')
  contains(buf_text(0), 'nvfuser_pointwise_f1_c1_r0_g1', 'the linked kernel')
end)

test(':NsysSources {kernel}: the source lines that launch it, in the quickfix list', function()
  if not client.supports('nsys/kernelSources') then
    error('the server has no nsys/kernelSources')
  end
  run('open', 'NsysOpen ' .. fixtures .. '/h200_nvfuser_nvtx.sqlite')
  -- nvfuser_pointwise_f0_c1_r0_g0 runs once (694040 ns, sqlite3 on CUPTI_ACTIVITY_KIND_KERNEL) inside
  -- ExecutorRunFusion::cuLaunchKernel, the innermost scope launch.cpp annotates (line 15).
  local res
  for _ = 1, 150 do
    res = run('sources', 'NsysSources nvfuser_pointwise_f0_c1_r0_g0')
    if #res.items > 0 then
      break
    end
    vim.wait(200)
  end
  truthy(#res.items > 0, 'the C++ test data was indexed')
  local qf = vim.fn.getqflist({ title = 1, items = 1 })
  eq(#qf.items, 1, 'one location')
  contains(qf.title, 'nvfuser_pointwise_f0_c1_r0_g0', 'title')
  eq(vim.api.nvim_buf_get_name(qf.items[1].bufnr), NVFUSER_SRC .. '/launch.cpp', 'file')
  eq(qf.items[1].lnum, 15, 'line')
  local text = vim.fn.readfile(NVFUSER_SRC .. '/launch.cpp')[15]
  eq(qf.items[1].col, res.result.locations[1].range.start.character + 1, 'column (ASCII line: UTF-16 = bytes)')
  contains(text, 'ExecutorRunFusion::cuLaunchKernel', 'the line')
  contains(qf.items[1].text, 'ExecutorRunFusion::cuLaunchKernel · 100.0 % of its GPU time · 0.7 ms · 1 calls', 'text')
end)

if client.supports('codeActionProvider') then
  test('a code action on the script: its edit applies and the file still compiles', function()
    truthy(eval_buf, 'the script is open')
    vim.api.nvim_set_current_buf(eval_buf)
    -- Inside parse_args (line 21), which has no NVTX range: "Annotate this function".
    vim.api.nvim_win_set_cursor(0, { 23, 4 })
    local params = vim.lsp.util.make_range_params()
    params.context = { diagnostics = {} }
    local resp = vim.lsp.buf_request_sync(eval_buf, 'textDocument/codeAction', params, 30000)
    local r = truthy(resp and resp[client.client_id], 'codeAction answered')
    local action
    for _, a in ipairs(r.result or {}) do
      if a.edit and a.title:lower():find('annotate', 1, true) then
        action = a
      end
    end
    truthy(action, 'an "Annotate this function" action: ' .. vim.inspect(r.result))
    vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
    contains(buf_text(eval_buf), 'parse_args', 'the edit names the function')
    vim.cmd('write')
    local out = vim.fn.system({ 'python3', '-m', 'py_compile', EVAL })
    eq(vim.v.shell_error, 0, 'py_compile: ' .. out)
  end)
else
  test('code action on the script', function() error('the server has no codeActionProvider') end)
end

local opened_ok, h200_opened = pcall(run, 'open', 'NsysOpen ' .. fixtures .. '/h200_nvfuser_nvtx.sqlite')
if opened_ok and nsys.coverage_of(h200_opened.profile) ~= nil then
  test(':NsysCoverage reports the mapping coverage of h200_nvfuser_nvtx.sqlite', function()
    -- sqlite3 (see extensions/vscode/test/sources.test.ts): 3131549 of 10167602 ns in innermost ranges launching one
    -- kernel per call; the server computes it in the background after the load.
    local res
    for _ = 1, 100 do
      res = run('coverage', 'NsysCoverage')
      if res.coverage ~= vim.NIL then
        break
      end
      vim.wait(200)
    end
    eq(res.coverage.mappedNs, 3131549, 'mappedNs')
    eq(res.coverage.kernelNs, 10167602, 'kernelNs')
    contains(res.text, 'NVTX coverage 30.8 %', 'text')
    truthy(noted('NVTX coverage 30.8 %'), 'shown')
  end)
else
  test(':NsysCoverage', function() error('the server does not report mappingCoverage') end)
end

if client.supports('nsys/annotationPlan') then
  test(':NsysSuggest lists the refinements; :NsysSuggestApply applies one’s edit', function()
    local res = run('suggest', 'NsysSuggest')
    local n
    for i, it in ipairs(res.result.items) do
      if it.name == 'KernelExecutor::runFusion::intermediates' then
        n = i
      end
    end
    truthy(n, 'the range launching 2 kernels is listed: ' .. vim.inspect(res.result.items))
    local qf = vim.fn.getqflist({ title = 1, items = 1 })
    contains(qf.title, 'nsys-ai suggest: NVTX coverage 30.8 %', 'title')
    eq(vim.api.nvim_buf_get_name(qf.items[n].bufnr), NVFUSER_SRC .. '/launch.cpp', 'item file')
    eq(qf.items[n].lnum, 21, 'item line')
    run('suggest_apply', 'NsysSuggestApply ' .. n)
    local buf = vim.fn.bufnr(NVFUSER_SRC .. '/launch.cpp')
    contains(buf_text(buf), 'KernelExecutor::runFusion::intermediates/', 'nested ranges named X/<callee>')
    vim.api.nvim_buf_delete(buf, { force = true }) -- the test data stays as it is
  end)
else
  test(':NsysSuggest', function() error('the server has no nsys/annotationPlan') end)
end

-- Source diagnostics, the refine code action and a profile switch on h200_nvfuser_nvtx.sqlite with the C++ test data
-- (launch.cpp) and the script copy. Figures from sqlite3 on h200 (NVTX_EVENTS eventType 59/60 by name, kernels joined
-- to CUPTI_ACTIVITY_KIND_RUNTIME by correlationId on the range's thread and time): of
-- KernelExecutor::runFusion::intermediates' 6 calls one launches 2 kernels, both vectorized_elementwise_kernel<2,
-- FillFunctor<long>> (2848 ns): up to 2 per call, 0.3 on average, 1 kind -> the one range to refine. runFusion's
-- kernels are launched in the nested ExecutorRunFusion::cuLaunchKernel (one kernel per call): nothing on them. The
-- script's range names (and the parse_args range the code action test added) have no row in h200; none of these names
-- is among mfu_2gpu_after.sqlite's 17113 ranges.
local LAUNCH = NVFUSER_SRC .. '/launch.cpp'
local INTERMEDIATES = 'KernelExecutor::runFusion::intermediates'
local REFINE_MESSAGE = 'launches up to 2 kernels (0.3 on average) of 1 kind per call: add finer ranges'
local launch_buf
local function launch_diagnostics()
  return vim.diagnostic.get(vim.fn.bufnr(LAUNCH))
end
local function lenses_of(buf)
  return #vim.lsp.codelens.get(buf)
end

test('source diagnostics: Information on launch.cpp’s range to refine, a Hint on each script range h200 never ran', function()
  run('open', 'NsysOpen ' .. fixtures .. '/h200_nvfuser_nvtx.sqlite')
  vim.cmd('edit ' .. vim.fn.fnameescape(LAUNCH))
  launch_buf = vim.api.nvim_get_current_buf()
  eq(vim.bo[launch_buf].filetype, 'cpp', 'filetype')
  truthy(vim.lsp.buf_is_attached(launch_buf, client.client_id), 'the client is attached to launch.cpp')
  truthy(vim.wait(10000, function()
    return #launch_diagnostics() == 1
  end, 20), 'one diagnostic on launch.cpp: ' .. vim.inspect(launch_diagnostics()))
  local d = launch_diagnostics()[1]
  local text = vim.fn.readfile(LAUNCH)
  local col = text[21]:find('"' .. INTERMEDIATES .. '"', 1, true)
  truthy(col, 'line 21 names the range')
  eq(d.lnum, 20, 'line (0-based)')
  eq(d.col, col - 1, 'column: the name literal')
  eq(d.end_col, col - 1 + #INTERMEDIATES + 2, 'end column')
  eq(d.severity, vim.diagnostic.severity.INFO, 'severity')
  eq(vim.diagnostic.severity.INFO, 3, 'Information is LSP severity 3')
  eq(d.message, REFINE_MESSAGE, 'message')
  eq(d.code, 'nvtx-refine', 'code')
  eq(d.source, 'nsys-ai', 'source')
  -- The script: a Hint on the name literal of each range (lines found in the edited copy).
  local hints = vim.diagnostic.get(eval_buf)
  local lines = vim.api.nvim_buf_get_lines(eval_buf, 0, -1, false)
  local want = {}
  for i, l in ipairs(lines) do
    local name = l:match('nvtx%.annotate%(["\']([^"\']+)["\']')
    if name then
      table.insert(want, { i - 1, name })
    end
  end
  eq(#want, #RANGES + 1, 'the six ranges and parse_args in the script: ' .. vim.inspect(want))
  eq(#hints, #want, 'one Hint per range: ' .. vim.inspect(hints))
  table.sort(hints, function(a, b)
    return a.lnum < b.lnum
  end)
  for i, h in ipairs(hints) do
    eq(h.lnum, want[i][1], 'Hint line of ' .. want[i][2])
    eq(h.severity, vim.diagnostic.severity.HINT, 'severity of ' .. want[i][2])
    eq(h.message, "'" .. want[i][2] .. "' did not run in this profile", 'message')
    eq(h.code, 'nvtx-not-run', 'code')
  end
  eq(vim.diagnostic.severity.HINT, 4, 'Hint is LSP severity 4')
end)

test('the code action on the range to refine: one file’s edit; applied to a copy, two nested scopes that compile', function()
  truthy(launch_buf, 'launch.cpp is open')
  vim.api.nvim_set_current_buf(launch_buf)
  local line = vim.api.nvim_buf_get_lines(launch_buf, 20, 21, false)[1]
  vim.api.nvim_win_set_cursor(0, { 21, (line:find(INTERMEDIATES, 1, true)) })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(launch_buf, 20) }
  eq(#params.context.diagnostics, 1, 'the line’s diagnostic goes with the request')
  local resp = vim.lsp.buf_request_sync(launch_buf, 'textDocument/codeAction', params, 30000)
  local r = truthy(resp and resp[client.client_id], 'codeAction answered')
  truthy(not r.err, 'no error: ' .. vim.inspect(r.err))
  eq(#r.result, 1, 'one action: ' .. vim.inspect(r.result))
  local action = r.result[1]
  eq(action.title, "Add NVTX ranges inside '" .. INTERMEDIATES .. "'", 'title')
  eq(action.kind, 'refactor.rewrite', 'kind')
  eq(action.edit.documentChanges, nil, 'documentChanges')
  local uris = vim.tbl_keys(action.edit.changes)
  eq(#uris, 1, 'exactly one document changes')
  eq(uris[1], vim.uri_from_fname(LAUNCH), 'the document')
  local edits = action.edit.changes[uris[1]]
  eq(#edits, 2, 'one edit per statement that calls something (zeroBuffer, fillBuffer)')
  -- Applied to a copy of the file (the test data stays as it is).
  local dir = tmp .. '/refine'
  vim.fn.mkdir(dir, 'p')
  local original = vim.fn.readfile(LAUNCH)
  vim.fn.writefile(original, dir .. '/launch.cpp')
  vim.fn.writefile({ '#include <cstdint>', 'void launchSegment(int64_t);', 'void zeroBuffer(int64_t);', 'void fillBuffer(int64_t);' }, dir .. '/callees.h')
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/launch.cpp'))
  local copy = vim.api.nvim_get_current_buf()
  truthy(not vim.lsp.buf_is_attached(copy, client.client_id), 'the copy is outside the source roots')
  vim.lsp.util.apply_text_edits(edits, copy, 'utf-16')
  vim.cmd('write')
  local edited = vim.fn.readfile(dir .. '/launch.cpp')
  eq(#edited, #original + 6, 'each statement in a new { } block: 3 lines more each')
  local scopes = {}
  for i, l in ipairs(edited) do
    local name = l:match('FUSER_PERF_SCOPE%("([^"]*)"%);')
    if name and name:sub(1, #INTERMEDIATES + 1) == INTERMEDIATES .. '/' then
      table.insert(scopes, i .. ' ' .. name)
    end
  end
  eq(table.concat(scopes, ', '), '23 ' .. INTERMEDIATES .. '/zeroBuffer, 27 ' .. INTERMEDIATES .. '/fillBuffer', 'nested ranges X/<callee>')
  eq(table.concat(vim.list_slice(edited, 1, 21), '\n'), table.concat(vim.list_slice(original, 1, 21), '\n'), 'lines before the body')
  -- launch.cpp declares its scope macro but not the functions it calls: those come through -include.
  local function compiles(file)
    local out = vim.fn.system({ 'g++', '-std=c++17', '-fsyntax-only', '-include', dir .. '/callees.h', file })
    eq(vim.v.shell_error, 0, 'g++ -fsyntax-only ' .. file .. ': ' .. out)
  end
  compiles(LAUNCH)
  compiles(dir .. '/launch.cpp')
  vim.api.nvim_buf_delete(copy, { force = true })
  eq(vim.api.nvim_buf_get_option(launch_buf, 'modified'), false, 'launch.cpp itself is not edited')
end)

test('opening another profile replaces the source diagnostics and the lenses are asked again', function()
  truthy(launch_buf, 'launch.cpp is open')
  -- launch.cpp stays shown in a window when :NsysOpen puts its report in the other.
  vim.api.nvim_set_current_buf(launch_buf)
  vim.cmd('split')
  truthy(vim.wait(10000, function()
    return lenses_of(launch_buf) == 3
  end, 20), 'h200: the three scopes of launch.cpp have lenses: ' .. lenses_of(launch_buf))
  local refreshes = 0
  local on_refresh = source.on_codelens_refresh
  source.on_codelens_refresh = function()
    refreshes = refreshes + 1
    return on_refresh()
  end
  local eval_uri = vim.uri_from_bufnr(eval_buf)
  local eval_published = 0
  local on_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, conf)
    if result and result.uri == eval_uri then
      eval_published = eval_published + 1
    end
    return on_publish(err, result, ctx, conf)
  end
  local ok, err = pcall(function()
    run('open', 'NsysOpen ' .. MAIN)
    -- The refresh of this switch (it clears launch.cpp, publishes the script's Hints again, then looks at launch.cpp
    -- once more) must be over before switching back: the server runs the refreshes of two switches concurrently, and
    -- the older one's last look then clears what the newer one published for launch.cpp (server logs: h200's Info
    -- published, then [] from the mfu refresh; about one run in eight without the quarter second below, 30 runs
    -- clean with it).
    truthy(vim.wait(30000, function()
      return refreshes > 0 and #launch_diagnostics() == 0 and lenses_of(launch_buf) == 0 and eval_published > 0
    end, 20), 'mfu_2gpu_after: workspace/codeLens/refresh, no diagnostic and no lens on launch.cpp, the script '
      .. 're-published: ' .. refreshes .. ', ' .. #launch_diagnostics() .. ', ' .. lenses_of(launch_buf) .. ', '
      .. eval_published)
    eq(#vim.diagnostic.get(eval_buf, { severity = vim.diagnostic.severity.HINT }), #RANGES + 1, 'the script’s Hints stay')
    local params = { textDocument = { uri = vim.uri_from_bufnr(launch_buf) }, context = { diagnostics = {} },
      range = { start = { line = 20, character = 20 }, ['end'] = { line = 20, character = 20 } } }
    local resp = vim.lsp.buf_request_sync(launch_buf, 'textDocument/codeAction', params, 30000)
    eq(#truthy(resp and resp[client.client_id] and resp[client.client_id].result, 'codeAction answered'), 0,
      'no refine action: the range did not run in mfu_2gpu_after')
    vim.wait(250)
    refreshes = 0
    run('open', 'NsysOpen ' .. fixtures .. '/h200_nvfuser_nvtx.sqlite')
    truthy(vim.wait(30000, function()
      return refreshes > 0 and #launch_diagnostics() == 1 and lenses_of(launch_buf) == 3
    end, 20), 'h200 again: workspace/codeLens/refresh, its diagnostic and lenses are back: ' .. refreshes .. ', '
      .. #launch_diagnostics() .. ', ' .. lenses_of(launch_buf))
    eq(launch_diagnostics()[1].message, REFINE_MESSAGE, 'message')
  end)
  source.on_codelens_refresh = on_refresh
  vim.lsp.handlers['textDocument/publishDiagnostics'] = on_publish
  vim.cmd('only')
  if not ok then
    error(err, 0)
  end
end)

-- .qdrep reports (what Nsight Systems wrote until 2021.1) open as .nsys-rep reports do: converted by the
-- installed nsys into the server's cache, named by the report; jobs take them as ranks; a file named .qdrep that is
-- not a report gets the server's plain error. Expected figures: the READMEs' kernel counts of the exports made from
-- these reports (brainstorm 114, gtx1650 4696) and sqlite3 on the brainstorm export.
local QDREP = fixtures .. '/realworld/rtx3090_pytorch_brainstorm_sample.qdrep'
local QDREP2 = fixtures .. '/realworld/gtx1650_keras_tf_darknet53.qdrep'
if vim.fn.filereadable(QDREP) == 1 and vim.fn.filereadable(QDREP2) == 1 and vim.fn.executable('nsys') == 1 then
  test(':NsysOpen {file.qdrep}: the report converts and opens, named by the report', function()
    local res = run('open', 'NsysOpen ' .. QDREP, false, 120000)
    eq(res.profile.info.sourcePath, QDREP, 'sourcePath')
    eq(nsys.profiles[res.profile.profileId].path, QDREP, 'the profile is shown by the report')
    truthy(res.profile.path ~= QDREP and res.profile.path:match('%.sqlite$'), 'its conversion: ' .. res.profile.path)
    eq(res.profile.info.devices[1].name, 'NVIDIA GeForce RTX 3090', 'the GPU')
    local kernels
    for _, t in ipairs(res.profile.info.tables or {}) do
      if t.name == 'CUPTI_ACTIVITY_KIND_KERNEL' then
        kernels = t.rows
      end
    end
    eq(kernels, tonumber(sqlite(fixtures .. '/realworld/rtx3090_pytorch_brainstorm_sample.sqlite',
      'select count(*) from CUPTI_ACTIVITY_KIND_KERNEL')[1]), 'kernels (sqlite3 on its export)')
    if res.bufnr then
      contains(buf_text(res.bufnr), 'rtx3090_pytorch_brainstorm_sample', 'report')
    end
    local fake = tmp .. '/notes.qdrep'
    vim.fn.writefile({ 'meeting notes, not a profile' }, fake)
    local err = run('open', 'NsysOpen ' .. fake, true)
    contains(err.message, "'" .. fake .. "' is not an Nsight Systems report", 'error')
    truthy(noted('is not an Nsight Systems report', vim.log.levels.ERROR), 'the server message was shown')
  end)

  test(':NsysOpenJob {dir of .qdrep}: each report is a rank', function()
    local dir = tmp .. '/qdrep_job'
    vim.fn.mkdir(dir, 'p')
    vim.fn.system({ 'cp', QDREP, dir .. '/rank0.qdrep' })
    vim.fn.system({ 'cp', QDREP2, dir .. '/rank1.qdrep' })
    local opened = run('open_job', 'NsysOpenJob ' .. dir, false, 120000)
    eq(#opened.report.ranks, 2, 'ranks')
    eq(opened.report.ranks[1].rank .. ' ' .. opened.report.ranks[1].kernels, 'rank0 114', 'rank0')
    eq(opened.report.ranks[2].rank .. ' ' .. opened.report.ranks[2].kernels, 'rank1 4696', 'rank1')
    vim.cmd('only')
  end)
end

