-- Profiles: opening, the report buffer, analyze, ask, skills, diff, Perfetto (loaded by run.lua with the shared helpers.lua).
local H = ...
local tmp = H.tmp
local test = H.test
local skip = H.skip
local eq = H.eq
local truthy = H.truthy
local buf_text = H.buf_text
local contains = H.contains
local noted = H.noted
local binary = H.binary
local fixtures = H.fixtures
local MAIN = H.MAIN
local nsys = H.nsys
local client = H.client
local expect_one_open = H.expect_one_open
local run = H.run

-- 1. The server is missing: a clear error naming the fix.
test('a missing server gives a clear error', function()
  nsys.setup({ cmd = { tmp .. '/no-such-nsys-ai', 'serve', '--stdio' } })
  local err = run('open', 'NsysOpen ' .. MAIN, true)
  contains(err.message, 'no-such-nsys-ai', 'error')
  contains(err.message, 'setup({ cmd', 'error')
  truthy(noted('no-such-nsys-ai', vim.log.levels.ERROR), 'the error was shown with vim.notify')
end)

-- A key the user names by a variable goes to the server only as the plugin's own NSYS_AI_* variable.
test('llm.apiKeyEnv is read by the plugin and handed over as NSYS_AI_NVIM_LLM_API_KEY', function()
  local cfg = require('nsys_ai.config')
  local llm, env = cfg.llm_for_server({ llm = { provider = 'openai', model = 'm', apiKeyEnv = 'MY_KEY' } },
    { MY_KEY = 'sk-from-env' })
  eq(llm.apiKeyEnv, 'NSYS_AI_NVIM_LLM_API_KEY', 'apiKeyEnv sent')
  eq(env.NSYS_AI_NVIM_LLM_API_KEY, 'sk-from-env', 'the key in the server environment')
  eq(env.MY_KEY, nil, 'nothing else copied')
  llm, env = cfg.llm_for_server({ llm = { provider = 'openai', model = 'm', apiKeyEnv = 'NSYS_AI_MINE' },
    cmd_env = { A = '1' } }, {})
  eq(llm.apiKeyEnv, 'NSYS_AI_MINE', 'an NSYS_AI_* name is the server own')
  eq(env.A, '1', 'cmd_env kept')
  llm, env = cfg.llm_for_server({}, {})
  eq(llm, nil, 'no llm')
  eq(env, nil, 'no env')
end)

nsys.setup({ cmd = { binary, 'serve', '--stdio' }, llm = { provider = 'none' } })

test(':checkhealth nsys_ai reports the server', function()
  vim.cmd('checkhealth nsys_ai')
  local text = buf_text(0)
  contains(text, 'nsys-ai', 'health')
  contains(text, 'server: ' .. vim.fn.exepath(binary), 'health')
  contains(text, 'OK', 'health')
  truthy(not text:find('ERROR', 1, true), 'no ERROR in the health report')
  vim.cmd('tabclose')
end)

-- Server errors are shown as they are.
test('a server error is shown as it is', function()
  local err = run('open', 'NsysOpen ' .. tmp .. '/no/such.sqlite', true)
  contains(err.message, tmp .. '/no/such.sqlite', 'error')
  truthy(noted(err.message, vim.log.levels.ERROR), 'the server message was shown verbatim')
end)

local has_report = false
local has_tree = false
local report
test('the server starts and initializes', function()
  truthy(vim.wait(30000, function()
    return client.init_result ~= nil
  end, 20), 'initialize answered')
  eq(client.init_result.serverInfo.name, 'nsys-ai', 'serverInfo.name')
  truthy(client.supports('nsys/openProfile'), 'nsysMethods lists nsys/openProfile')
  has_report = client.supports('nsys/report')
  has_tree = client.supports('nsys/nvtxTree')
end)

-- Top kernels by the server's own skill, to check that names in the report are the profile's.
local top_names = {}
local function load_top_names(pid)
  local done = false
  client.request('nsys/runSkill', { profileId = pid, skill = 'top_kernels', args = { limit = 50 } }, function(err, res)
    truthy(not err, 'top_kernels ran')
    local col
    for i, c in ipairs(res.columns) do
      if c.name == 'name' then
        col = i
      end
    end
    for _, row in ipairs(res.rows) do
      top_names[row[col]] = true
    end
    done = true
  end)
  truthy(vim.wait(60000, function()
    return done
  end, 20), 'top_kernels answered')
end

if has_report then
  test(':NsysOpen renders the report into a buffer named by its uri', function()
    local n_progress = #client.progress_log
    report = run('open', 'NsysOpen ' .. MAIN)
    local buf = report.bufnr
    eq(vim.api.nvim_get_current_buf(), buf, 'the report is shown')
    eq(vim.api.nvim_buf_get_name(buf), report.report.uri, 'buffer name')
    truthy(report.report.uri:match('^nsys%-report://' .. report.profile.profileId .. '/report%.md$'), 'uri shape')
    eq(report.profile.path, MAIN, 'path')
    local text = buf_text(buf)
    contains(text, 'mfu_2gpu_after.sqlite', 'report')
    truthy(#report.report.kernels > 0, 'kernel spans')
    -- Painted as the server computed it: the summary first, then each section; the end has no placeholder.
    truthy((report.partials or 0) >= 4, 'painted progressively: ' .. tostring(report.partials) .. ' partial results')
    contains(report.first_text, 'Kernels:   (loading the kernel table…)', 'the first paint is the summary')
    contains(report.first_text, '(analyzing…)', 'the first paint holds the findings’ place')
    eq(text:find('(analyzing', 1, true), nil, 'no placeholder is left')
    load_top_names(report.profile.profileId)
    local span = report.report.kernels[1]
    local line = vim.api.nvim_buf_get_lines(buf, span.line, span.line + 1, false)[1]
    local shown = line:sub(span.character + 1, span.character + span.length):gsub('%.%.%.$', '')
    truthy(#shown > 3, 'the span covers text')
    truthy(span.name:find(shown, 1, true) or shown:find(span.name, 1, true), 'span text ' .. shown .. ' is the kernel ' .. span.name)
    local any = false
    for name in pairs(top_names) do
      if name == span.name or name:find(shown, 1, true) then
        any = true
      end
    end
    truthy(any, 'the kernel ' .. shown .. ' is among the profile top_kernels')
    -- The LSP client is attached, progress was shown.
    truthy(vim.lsp.buf_is_attached(buf, client.client_id), 'the client is attached to the report buffer')
    local kinds = {}
    for i = n_progress + 1, #client.progress_log do
      kinds[client.progress_log[i].kind or '?'] = true
    end
    truthy(kinds['begin'] and kinds['end'], 'begin and end progress of the open were seen')
    eq(vim.fn.maparg('K', 'n', false, true).buffer, 1, 'K is buffer-local')
  end)

  -- On Neovim 0.7 the LSP client drops `mappingCoverage: null`, which read as "this server does not report
  -- it" when the coverage was merely not computed yet.
  test(':NsysOpen: the coverage line says "not computed yet" or the coverage, never that the server lacks it', function()
    truthy(report.coverage ~= nil, 'coverage is known or pending, not unsupported')
    local brief = noted('mfu_2gpu_after.sqlite · NVTX coverage')
    truthy(brief, 'the coverage line was shown')
    truthy(not tostring(brief.msg):find('does not report', 1, true), 'coverage line: ' .. tostring(brief.msg))
    eq(nsys.coverage_of({ profileId = 'p1', path = MAIN, info = {} }), vim.NIL, 'a dropped null is "not yet"')
  end)

  -- The report buffer shows where each GPU's time goes: every (pid, device) span of the server's own
  -- time_budget rows (on this fixture GPU 0 of pid 148 spans 299.251 ms, 49 % of it tensor-core kernels), each slice
  -- with its share, a 40-cell bar and its time.
  test('the report buffer shows the time budget: each GPU span, its slices, shares and bars', function()
    local budget
    client.request('nsys/runSkill', { profileId = report.profile.profileId, skill = 'time_budget' }, function(err, res)
      budget = err and { err = err } or res
    end)
    truthy(vim.wait(60000, function()
      return budget ~= nil
    end, 20), 'time_budget answered')
    truthy(not budget.err, 'time_budget ran: ' .. vim.inspect(budget.err))
    local col = {}
    for i, c in ipairs(budget.columns) do
      col[c.name] = i
    end
    local text = buf_text(report.bufnr)
    contains(text, '## Where the GPU time goes', 'the budget heading')
    contains(text, 'GPU 0 (pid 148): span 299.251 ms', 'GPU 0 span line')
    truthy(#budget.rows > 2, 'time_budget has slices')
    for _, row in ipairs(budget.rows) do
      local pct = row[col.span_pct]
      local cells = math.floor(pct / 2.5 + 0.5)
      local line = string.format('  %-17s %5.1f%%  %s%s  %10.3f ms', row[col.slice], pct, string.rep('█', cells),
        string.rep('·', 40 - cells), row[col.time_ns] / 1e6)
      contains(text, line, 'slice ' .. row[col.slice] .. ' of pid ' .. row[col.pid])
    end
  end)

  test('K over a kernel name: textDocument/hover explains it', function()
    local buf = report.bufnr
    local span = report.report.kernels[1]
    vim.api.nvim_win_set_cursor(0, { span.line + 1, span.character + 1 })
    local params = vim.lsp.util.make_position_params()
    local resp = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 30000)
    truthy(resp and resp[client.client_id], 'hover answered')
    local r = resp[client.client_id]
    truthy(not r.err, 'no hover error: ' .. vim.inspect(r.err))
    eq(r.result.contents.kind, 'markdown', 'hover kind')
    -- The kernel's short name: the identifier before its template/argument list, without namespaces.
    local ident = span.name:gsub('^void ', ''):match('^[%w_:]+') or span.name
    local short = ident:match('([%w_]+)$') or ident
    truthy(#short > 3, 'a short name ' .. short)
    contains(r.result.contents.value, short, 'hover markdown')
    -- On a finding: its Markdown.
    local fspan = report.report.findings[1]
    truthy(fspan, 'the report lists findings')
    params.position = { line = fspan.line, character = fspan.character + 1 }
    resp = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 30000)
    local fr = resp[client.client_id].result
    truthy(fr and fr.contents and fr.contents.value ~= '', 'hover on a finding answers')
    eq(fr.contents.kind, 'markdown', 'finding hover kind')
    -- Away from any span: null.
    params.position = { line = 0, character = 0 }
    resp = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 30000)
    truthy(resp[client.client_id].result == nil, 'no hover at 0:0')
    -- The K mapping shows it in a floating window.
    vim.api.nvim_win_set_cursor(0, { span.line + 1, span.character + 1 })
    vim.cmd('normal K')
    local float = vim.wait(30000, function()
      for _, w in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(w).relative ~= '' then
          return true
        end
      end
    end, 20)
    truthy(float, 'a floating window opened')
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= '' then
        contains(buf_text(vim.api.nvim_win_get_buf(w)), short, 'floating hover')
        vim.api.nvim_win_close(w, true)
      end
    end
  end)
else
  skip(':NsysOpen report buffer', 'the server has no nsys/report yet (SPEC11); opening the profile only')
  skip('K hover', 'the server has no nsys/report yet (SPEC11)')
  test(':NsysOpen opens the profile (openProfile only)', function()
    local profile
    nsys.open_profile(MAIN, function(err, res)
      profile = res or { err = err }
    end)
    truthy(vim.wait(120000, function()
      return profile ~= nil
    end, 20), 'opened')
    eq(profile.path, MAIN, 'path')
    load_top_names(profile.profileId)
    truthy(next(top_names), 'kernels')
  end)
end

test(':NsysAnalyze puts the findings into the quickfix list', function()
  local res = run('analyze', 'NsysAnalyze')
  truthy(#res.findings > 0, 'the fixture has findings')
  local qf = vim.fn.getqflist({ title = 1, items = 1 })
  eq(#qf.items, #res.findings, 'quickfix items')
  contains(qf.title, 'mfu_2gpu_after.sqlite', 'quickfix title')
  for i, f in ipairs(res.findings) do
    contains(qf.items[i].text, f.title, 'quickfix text ' .. i)
    contains(qf.items[i].text, '[' .. f.severity .. ']', 'quickfix severity ' .. i)
  end
  if has_report then
    -- Findings spans of the report put the items at their line there.
    eq(qf.items[1].bufnr, report.bufnr, 'the first item is in the report buffer')
    -- The server publishes the findings as diagnostics on the profile's file uri and the report.
    local file_buf = vim.uri_to_bufnr(vim.uri_from_fname(MAIN))
    truthy(vim.wait(10000, function()
      return #vim.diagnostic.get(file_buf) == #res.findings and #vim.diagnostic.get(report.bufnr) == #res.findings
    end, 20), 'diagnostics published on the file and the report: ' .. #vim.diagnostic.get(file_buf) .. ', ' .. #vim.diagnostic.get(report.bufnr))
    local d = vim.diagnostic.get(file_buf)[1]
    eq(d.source, 'nsys-ai', 'diagnostic source')
  end
end)

test(':NsysAsk streams the answer into a buffer', function()
  local res = run('ask', 'NsysAsk which kernels take the most GPU time?')
  local buf = vim.api.nvim_get_current_buf()
  local text = buf_text(buf)
  contains(text, '# which kernels take the most GPU time?', 'ask buffer')
  truthy(res.answer.summary ~= '', 'an answer')
  contains(text, vim.split(res.answer.markdown, '\n')[1], 'the answer markdown is in the buffer')
  truthy(res.conversationId and res.conversationId ~= '', 'conversationId')
  truthy(res.streamedPieces >= 1, 'the answer was streamed (' .. res.streamedPieces .. ' pieces)')
  -- The answer names kernels of the profile.
  local named = false
  for name in pairs(top_names) do
    if text:find(name:sub(1, 30), 1, true) then
      named = true
    end
  end
  truthy(named, 'the answer names a kernel of the profile')
  eq(nsys.conversations[res.answer and nsys.current], res.conversationId, 'follow-ups reuse the conversation')
end)

test(':NsysSkill completes from nsys/listSkills and shows an aligned table', function()
  local comp = vim.fn.getcompletion('NsysSkill top_', 'cmdline')
  truthy(vim.tbl_contains(comp, 'top_kernels'), 'top_kernels completes: ' .. vim.inspect(comp))
  for _, c in ipairs(comp) do
    eq(c:sub(1, 4), 'top_', 'completion prefix')
  end
  local res = run('skill', 'NsysSkill top_kernels limit=3')
  local lines = vim.api.nvim_buf_get_lines(res.bufnr, 0, -1, false)
  contains(lines[1], 'top_kernels', 'title')
  local header = lines[3]
  for _, c in ipairs(res.result.columns) do
    contains(header, c.name, 'header')
  end
  truthy(lines[4]:match('^[- ]+$'), 'rule under the header')
  eq(#res.result.rows, 3, 'limit=3 rows')
  -- Columns line up: each row is as long as the rule line (last column left-aligned text may be shorter).
  local name_col
  for i, c in ipairs(res.result.columns) do
    if c.name == 'name' then
      name_col = i
    end
  end
  local start = header:find('name', 1, true)
  for r = 1, 3 do
    local want = res.result.rows[r][name_col]
    if #want > 80 then
      want = want:sub(1, 77) .. '...'
    end
    eq(lines[4 + r]:sub(start, start + #want - 1), want, 'row ' .. r .. ' name column aligned')
  end
  local err = run('skill', 'NsysSkill no_such_skill', true)
  contains(err.message, 'no_such_skill', 'unknown skill error')
end)

if has_tree then
  test(':NsysTree loads children lazily with folds', function()
    -- The main fixture has NVTX ranges with kernels under them.
    local t = run('tree', 'NsysTree')
    local buf = t.bufnr
    local tree = require('nsys_ai.tree')
    local rows = tree.buffers[buf].rows
    truthy(#rows > 0, 'threads')
    eq(rows[1].node.kind, 'thread', 'first level: threads')
    local lines0 = vim.api.nvim_buf_line_count(buf)
    -- Expand down the first branch until kernels appear (or 8 levels).
    local line = 1
    local saw_kernel = false
    for depth = 1, 8 do
      local n
      tree.expand(buf, line, function(err, count)
        n = err and -1 or count
      end)
      truthy(vim.wait(60000, function()
        return n ~= nil
      end, 20), 'children answered')
      truthy(n > 0, 'children loaded at depth ' .. depth)
      local child = tree.buffers[buf].rows[line + 1]
      eq(child.depth, depth, 'child depth')
      local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
      eq(text:sub(1, 2 * depth), string.rep('  ', depth), 'child indent')
      contains(text, child.node.name, 'child line')
      vim.api.nvim_set_current_buf(buf)
      truthy(vim.fn.foldlevel(line + 1) >= depth, 'the child is in a fold')
      -- Find the next node with children among the new ones; note kernels.
      local nxt
      for i = line + 1, line + n do
        local r = tree.buffers[buf].rows[i]
        if r.node.kind == 'kernel' then
          saw_kernel = true
        end
        if not nxt and r.node.hasChildren and r.depth == depth then
          nxt = i
        end
      end
      if saw_kernel or not nxt then
        break
      end
      line = nxt
    end
    truthy(vim.api.nvim_buf_line_count(buf) > lines0, 'lines were inserted')
    truthy(saw_kernel, 'kernel nodes under a range')
  end)
else
  skip(':NsysTree', 'the server has no nsys/nvtxTree yet (SPEC11)')
end

test(':NsysDiff compares two profiles', function()
  local res = run('diff', 'NsysDiff ' .. fixtures .. '/mfu_2gpu_before.sqlite ' .. fixtures .. '/mfu_2gpu_after.sqlite', false, 200000)
  local lines = vim.api.nvim_buf_get_lines(res.bufnr, 0, -1, false)
  truthy(vim.tbl_contains({ 'improved', 'regressed', 'neutral' }, res.result.verdict), 'verdict')
  eq(lines[2], 'verdict: ' .. res.result.verdict, 'verdict line')
  contains(buf_text(res.bufnr), vim.split(res.result.markdown, '\n')[1], 'the diff markdown')
  contains(lines[1], 'mfu_2gpu_before.sqlite -> ', 'title')
end)

test(':NsysPerfetto opens the trace URL (remote: prints it with the ssh -L hint)', function()
  vim.env.SSH_CONNECTION = '10.1.2.3 50000 10.9.8.7 22'
  -- Back to the main profile.
  for id, p in pairs(nsys.profiles) do
    if p.path == MAIN then
      nsys.current = id
    end
  end
  vim.cmd('enew')
  local before = #client.opened_urls
  local res = run('perfetto', 'NsysPerfetto')
  local port = res.url:match('^http://127%.0%.0%.1:(%d+)/')
  truthy(port, 'loopback url ' .. res.url)
  expect_one_open(before, 'opened once (by the server’s window/showDocument, not again by the plugin)')
  eq(client.opened_urls[#client.opened_urls], res.url, 'the opener got the url')
  eq(res.showDocument, true, 'the server used window/showDocument')
  local n = truthy(noted(res.url), 'the URL was shown')
  contains(n.msg, 'ssh -N -L ' .. port .. ':127.0.0.1:' .. port .. ' 10.9.8.7', 'ssh hint')
  -- The opener page is really served.
  local page = vim.fn.system({ 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', res.url })
  eq(vim.trim(page), '200', 'the opener page answers')
  vim.env.SSH_CONNECTION = nil
end)

test('showDocument without SSH uses the configured opener', function()
  local got
  nsys.setup({ cmd = { binary, 'serve', '--stdio' }, open_url = function(url)
    got = url
  end })
  truthy(client.open_url('http://127.0.0.1:1/p/x/'), 'opened')
  eq(got, 'http://127.0.0.1:1/p/x/', 'the custom opener got the URL')
  eq(client.ssh_hint('http://127.0.0.1:8123/p/t/'):match('8123:127.0.0.1:8123') ~= nil, true, 'hint port')
end)

