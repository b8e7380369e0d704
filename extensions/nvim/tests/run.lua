-- Headless tests of the Neovim plugin against the real server (no plenary):
--   cd extensions/nvim && NSYS_AI_BINARY=/path/to/nsys-ai timeout 300 \
--     nvim --headless -n -u NONE -i NONE -c "lua dofile('tests/run.lua')"
-- Every command runs on real fixtures (NSYS_AI_FIXTURES_DIR, else ../../../shared/fixtures, else /work/shared/fixtures).
-- Prints `N passed, M failed` and exits non-zero on any failure.
local root = vim.fn.getcwd()
vim.opt.runtimepath:prepend(root)
vim.o.swapfile = false
vim.o.more = false

local tmp = vim.fn.tempname()
vim.fn.mkdir(tmp, 'p')
for _, v in ipairs({ 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME' }) do
  vim.env[v] = tmp .. '/' .. v:lower()
  vim.fn.mkdir(vim.env[v], 'p')
end
vim.env.SSH_CONNECTION = nil

local out = io.stdout
local function say(s)
  out:write(s .. '\n')
  out:flush()
end

local passed, failed, skipped = 0, 0, 0
local function test(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    passed = passed + 1
    say('ok   ' .. name)
  else
    failed = failed + 1
    say('FAIL ' .. name .. ': ' .. tostring(err))
  end
end
local function skip(name, why)
  skipped = skipped + 1
  say('SKIP ' .. name .. ' !!! ' .. why)
end
local function finish()
  say(string.format('%d passed, %d failed%s', passed, failed, skipped > 0 and (', ' .. skipped .. ' SKIPPED') or ''))
  pcall(function()
    require('nsys_ai').stop()
    vim.wait(3000, function()
      return require('nsys_ai.client').client_id == nil
    end, 50)
  end)
  vim.fn.delete(tmp, 'rf')
  if failed > 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

local function eq(a, b, what)
  if a ~= b then
    error(string.format('%s: expected %s, got %s', what or 'value', vim.inspect(b), vim.inspect(a)), 2)
  end
end
local function truthy(v, what)
  if not v then
    error((what or 'condition') .. ' does not hold', 2)
  end
  return v
end
local function buf_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end
local function contains(hay, needle, what)
  if not hay:find(needle, 1, true) then
    error(string.format('%s: %s not found in:\n%s', what or 'text', vim.inspect(needle), hay:sub(1, 2000)), 2)
  end
end

-- Messages shown through vim.notify, kept for assertions.
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
  say('     notify[' .. tostring(level) .. ']: ' .. tostring(msg):gsub('\n', ' | '))
end
local function noted(needle, level)
  for _, n in ipairs(notes) do
    if tostring(n.msg):find(needle, 1, true) and (level == nil or n.level == level) then
      return n
    end
  end
end

local binary = vim.env.NSYS_AI_BINARY
local fixtures = vim.env.NSYS_AI_FIXTURES_DIR
if not fixtures or fixtures == '' then
  for _, d in ipairs({ root .. '/../../../shared/fixtures', '/work/shared/fixtures' }) do
    if vim.fn.isdirectory(d) == 1 then
      fixtures = vim.fn.fnamemodify(d, ':p'):gsub('/$', '')
      break
    end
  end
end
if not binary or vim.fn.executable(binary) ~= 1 then
  say('FAIL NSYS_AI_BINARY must name the nsys-ai binary (got ' .. tostring(binary) .. ')')
  failed = failed + 1
  return finish()
end
if not fixtures or vim.fn.filereadable(fixtures .. '/mfu_2gpu_after.sqlite') ~= 1 then
  say('FAIL no fixtures (set NSYS_AI_FIXTURES_DIR)')
  failed = failed + 1
  return finish()
end
-- The main fixture: kernels, NVTX ranges and analyze findings (a high one among them).
local MAIN = fixtures .. '/mfu_2gpu_after.sqlite'

vim.cmd('runtime plugin/nsys_ai.lua')
local nsys = require('nsys_ai')
local client = require('nsys_ai.client')

-- Runs a command and waits for the plugin to record its completion; returns the result (errors fail the test
-- unless want_err).
-- The opener got a URL within 5 s, and after 200 ms more it still had exactly one more than `before` (a second open
-- of the same page would show here).
local function expect_one_open(before, what)
  truthy(vim.wait(5000, function()
    return #client.opened_urls > before
  end, 20), 'the URL was handed to the opener')
  vim.wait(200)
  eq(#client.opened_urls, before + 1, what)
end

local function run(op, command, want_err, timeout)
  local before = nsys.done[op] or 0
  if type(command) == 'function' then
    command()
  else
    vim.cmd(command)
  end
  local ok = vim.wait(timeout or 120000, function()
    return (nsys.done[op] or 0) > before
  end, 20)
  truthy(ok, op .. ' completed within the timeout')
  local last = nsys.last[op]
  if want_err then
    truthy(last.err, op .. ' failed')
    return last.err
  end
  if last.err then
    error(op .. ' failed: ' .. vim.inspect(last.err), 2)
  end
  return last.result
end

-- 1. The server is missing: a clear error naming the fix.
test('a missing server gives a clear error', function()
  nsys.setup({ cmd = { tmp .. '/no-such-nsys-ai', 'serve', '--stdio' } })
  local err = run('open', 'NsysOpen ' .. MAIN, true)
  contains(err.message, 'no-such-nsys-ai', 'error')
  contains(err.message, 'setup({ cmd', 'error')
  truthy(noted('no-such-nsys-ai', vim.log.levels.ERROR), 'the error was shown with vim.notify')
end)

-- Issue 25: a key the user names by a variable goes to the server only as the plugin's own NSYS_AI_* variable.
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
    -- Issue 27: painted as the server computed it: the summary first, then each section; the end has no placeholder.
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

  -- Issue 27: on Neovim 0.7 the LSP client drops `mappingCoverage: null`, which read as "this server does not report
  -- it" when the coverage was merely not computed yet.
  test(':NsysOpen: the coverage line says "not computed yet" or the coverage, never that the server lacks it', function()
    truthy(report.coverage ~= nil, 'coverage is known or pending, not unsupported')
    local brief = noted('mfu_2gpu_after.sqlite · NVTX coverage')
    truthy(brief, 'the coverage line was shown')
    truthy(not tostring(brief.msg):find('does not report', 1, true), 'coverage line: ' .. tostring(brief.msg))
    eq(nsys.coverage_of({ profileId = 'p1', path = MAIN, info = {} }), vim.NIL, 'a dropped null is "not yet"')
  end)

  -- Issue 27: the report buffer shows where each GPU's time goes: every (pid, device) span of the server's own
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

-- Issue 13: runs. A run made here at test time from mfu_2gpu_before.sqlite by the shared split_ranks.py (one real
-- export per GPU process: 2 ranks), never committed. Expected figures: sqlite3 on the rank files (kernels, their
-- summed durations, NCCL kernels by name; computed again below) and, for the steps, the `iterations` skill on the
-- unsplit source process by process (pid 144 is rank0000, 145 is rank0001): iterations 0, 6 and 14 below.
local SPLIT = vim.env.NSYS_AI_SPLIT_RANKS or vim.fn.fnamemodify(fixtures .. '/../tools/split_ranks.py', ':p')
local RUN_DIR = tmp .. '/run'
local RUN_RANKS = {
  { rank = 'rank0000', kernels = 1993, gpu = 270875926, nccl_kernels = 33, nccl = 17172652 },
  { rank = 'rank0001', kernels = 2017, gpu = 264324724, nccl_kernels = 33, nccl = 8229100 },
}
local RUN_CELLS = {
  { 'rank0000', 0, 16942682 }, { 'rank0001', 0, 16944146 }, { 'rank0000', 6, 22311001 },
  { 'rank0001', 6, 22313699 }, { 'rank0000', 14, 19586459 }, { 'rank0001', 14, 19633539 },
}
local runs = require('nsys_ai.run')
local opened_run

local function sqlite(file, query)
  local text = vim.fn.system({ 'sqlite3', file, query })
  eq(vim.v.shell_error, 0, 'sqlite3 on ' .. file)
  return vim.split(vim.trim(text), '|', { plain = true })
end

-- The heat map line of a rank: its cells after the label column, one glyph per step.
local function heat_glyphs(buf, rank)
  local view = runs.runs[opened_run.run.runId].view
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

test(':NsysOpenRun {dir}: the ranks as sqlite3 counts them, the memory line, the ranks x steps heat map', function()
  vim.fn.system({ 'python3', SPLIT, fixtures .. '/mfu_2gpu_before.sqlite', RUN_DIR })
  eq(vim.v.shell_error, 0, 'split_ranks.py made the run')
  local n_progress = #client.progress_log
  opened_run = run('open_run', 'NsysOpenRun ' .. RUN_DIR)
  local buf = opened_run.bufnr
  eq(vim.api.nvim_get_current_buf(), buf, 'the run view is shown')
  eq(vim.api.nvim_buf_get_name(buf), 'nsys-ai://run/' .. opened_run.run.runId, 'buffer name')
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  eq(lines[1], '# Run ' .. RUN_DIR .. ' (2 ranks, ' .. opened_run.run.runId .. ')', 'title')
  for i, e in ipairs(RUN_RANKS) do
    local file = RUN_DIR .. '/' .. e.rank .. '.sqlite'
    local all = sqlite(file, 'select count(*), sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL')
    local nccl = sqlite(file, 'select count(*), sum(k.end - k.start) from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s '
      .. "on s.id = k.demangledName where s.value like '%nccl%'")
    eq(table.concat(all, ' ') .. ' ' .. table.concat(nccl, ' '), e.kernels .. ' ' .. e.gpu .. ' ' .. e.nccl_kernels .. ' ' .. e.nccl, 'sqlite3 ' .. e.rank)
    local r = opened_run.report.ranks[i]
    local words = vim.split(lines[4 + i], '%s+', { trimempty = true })
    eq(table.concat(vim.list_slice(words, 1, 7), ' '), string.format('%s %d %.3f ms %.3f ms %d', e.rank, e.kernels, e.gpu / 1e6, e.nccl / 1e6, e.nccl_kernels), 'rank line ' .. i)
    eq(table.concat(vim.list_slice(words, 8), ' '), string.format('%.3f ms 16', r.stepTimeNs / 1e6), 'step time and steps ' .. i)
  end
  truthy(lines[8]:match('^Memory: peak [%d.]+ MiB of a 4%.0 GiB budget · 2 rank loads · 0 evictions · 0 ranks over budget$'), 'memory line: ' .. lines[8])
  -- The heat map: the server's cells, 16 steps per rank; heights and colours from the shortest to the longest cell.
  local map = opened_run.heatmap
  eq(#map.cells, 32, 'cells')
  for _, c in ipairs(RUN_CELLS) do
    eq(map.grid[c[1]][c[2]].step_ns, c[3], c[1] .. ' step ' .. c[2])
  end
  for _, e in ipairs(RUN_RANKS) do
    local ns = {}
    for s = 0, 15 do
      table.insert(ns, map.grid[e.rank][s].step_ns)
    end
    table.sort(ns)
    eq(opened_run.report.ranks[e.rank == 'rank0000' and 1 or 2].stepTimeNs, math.floor((ns[8] + ns[9]) / 2), 'step time: the median of ' .. e.rank .. "'s cells")
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
  -- Progress: openRun, runReport and runSkillOnRun each begin and end (per-rank reports come at most 10 a second).
  local kinds = { begin = 0, ['end'] = 0 }
  for i = n_progress + 1, #client.progress_log do
    local v = client.progress_log[i]
    kinds[v.kind] = (kinds[v.kind] or 0) + 1
    truthy(v.kind ~= 'report' or (v.message or ''):match('^rank000[01] done %([12]/2%)$'), 'a per-rank report: ' .. vim.inspect(v))
  end
  eq(kinds.begin .. ' ' .. kinds['end'], '3 3', 'begin and end of the three requests')
end)

test('K on a heat map cell shows its figures', function()
  local _, line = heat_glyphs(opened_run.bufnr, 'rank0000')
  local view = runs.runs[opened_run.run.runId].view
  local row = view.first + 2 -- 1-based: the header, then rank0000
  eq(vim.api.nvim_buf_get_lines(opened_run.bufnr, row - 1, row, false)[1], line, 'rank0000 line')
  -- Step 6's second column: the byte offset of display column x0 + 13.
  vim.api.nvim_win_set_cursor(0, { row, #vim.fn.strcharpart(line, 0, view.layout.x0 + 13) })
  vim.cmd('normal K')
  truthy(noted("rank0000 · step 6: 22.311 ms, -0.0 % vs the step's median, GPU busy 18.663 ms"), 'K echoed the cell')
  vim.api.nvim_win_set_cursor(0, { row, 0 })
  eq(runs.cell_under_cursor(), nil, 'no cell on the label')
end)

test(':NsysAnalyzeRun: the findings across the ranks as Markdown in a buffer', function()
  local res = run('analyze_run', 'NsysAnalyzeRun')
  eq(#res.result.findings, 1, 'one finding')
  local f = res.result.findings[1]
  eq(f.rootCause, 'run_straggler', 'root cause')
  truthy(f.title:match('^rank0001 is the last to start %d+ of 33 collectives'), 'title ' .. f.title)
  eq(vim.api.nvim_buf_get_name(res.bufnr), 'nsys-ai://run/' .. opened_run.run.runId .. '/analysis.md', 'buffer name')
  eq(vim.api.nvim_buf_get_option(res.bufnr, 'filetype'), 'markdown', 'filetype')
  contains(buf_text(res.bufnr), f.title, 'the finding in the buffer')
  contains(buf_text(res.bufnr), '| rank0001 | ', 'its evidence table')
end)

local function sha256_of(file)
  local text = vim.fn.system({ 'sha256sum', file })
  eq(vim.v.shell_error, 0, 'sha256sum ' .. file)
  return text:match('^(%x+)')
end

-- The path of :NsysPerfetto with the run's id: nsys/openInPerfetto {runId}, the page opened through the server's
-- window/showDocument; the served trace is the file nsys/exportRunTrace writes for the same run, byte for byte.
test(':NsysRunPerfetto opens the run’s timeline like :NsysPerfetto: exportRunTrace’s bytes behind a token', function()
  local before = #client.opened_urls
  local res = run('run_perfetto', 'NsysRunPerfetto')
  local port, token = res.url:match('^http://127%.0%.0%.1:(%d+)/p/(%x+)/$')
  truthy(port, 'loopback url ' .. res.url)
  eq(tonumber(port), res.port, 'port')
  eq(token, res.token, 'token')
  eq(#token, 32, 'token length')
  eq(res.traceUrl, res.url .. 'trace.pftrace', 'traceUrl')
  eq(res.window, 'whole run', 'window')
  eq(res.showDocument, true, 'the server used window/showDocument')
  expect_one_open(before, 'opened once')
  eq(client.opened_urls[#client.opened_urls], res.url, 'the opener got the url')
  eq(vim.trim(vim.fn.system({ 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', res.url })), '200', 'the opener page answers')
  local fetched = tmp .. '/run-fetched.pftrace'
  eq(vim.trim(vim.fn.system({ 'curl', '-s', '-o', fetched, '-w', '%{http_code}', res.traceUrl })), '200', 'the trace answers')
  eq(vim.fn.getfsize(fetched), res.bytes, 'bytes served')
  eq(sha256_of(fetched), res.sha256, 'sha256 of the served trace')
  local exported
  client.request('nsys/exportRunTrace', { runId = opened_run.run.runId }, function(e, r)
    exported = { err = e, res = r }
  end)
  truthy(vim.wait(120000, function()
    return exported ~= nil
  end, 20), 'exportRunTrace answered')
  truthy(not exported.err, 'exportRunTrace: ' .. vim.inspect(exported.err))
  local ok, err = pcall(function()
    eq(exported.res.sha256, sha256_of(exported.res.path), 'exportRunTrace’s file and its sha256')
    eq(exported.res.sha256, res.sha256, 'the published trace is exportRunTrace’s, byte for byte')
    eq(exported.res.slices.kernels, RUN_RANKS[1].kernels + RUN_RANKS[2].kernels, 'every rank’s kernels')
  end)
  vim.fn.delete(exported.res.path)
  vim.fn.delete(fetched)
  if not ok then
    error(err, 0)
  end
end)

-- The ranks per node (consecutive ranks that share a node's clock): setup's run.ranks_per_node, or the run's own from
-- a command's count, sent as ranksPerNode when more than 0. On this run 2 ranks on one node share a clock, so the
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

-- The sha256 of the trace nsys/exportRunTrace writes (into the server's cache) for these params.
local function exported_sha(params)
  local res = answer('nsys/exportRunTrace', params)
  local sha = sha256_of(res.path)
  vim.fn.delete(res.path)
  eq(sha, res.sha256, 'exportRunTrace’s file and its sha256')
  return sha
end

local function setup_run(ranks_per_node)
  nsys.setup({ cmd = { binary, 'serve', '--stdio' }, open_url = function() end, run = { ranks_per_node = ranks_per_node } })
end

test('setup run.ranks_per_node = 2: :NsysAnalyzeRun sends ranksPerNode 2 and shows the server’s findings for it', function()
  setup_run(2)
  local id = opened_run.run.runId
  local sent, res = on_the_wire('nsys/analyzeRun', 'analyze_run', 'NsysAnalyzeRun')
  eq(vim.inspect(sent), vim.inspect({ { runId = id, ranksPerNode = 2 } }), 'sent')
  local direct = answer('nsys/analyzeRun', { runId = id, ranksPerNode = 2 })
  truthy(direct.findings[1].title ~= answer('nsys/analyzeRun', { runId = id }).findings[1].title, 'the value changes the answer')
  truthy(vim.deep_equal(res.result, direct), 'the server’s answer for 2 ranks per node')
  contains(buf_text(res.bufnr), direct.findings[1].title, 'its finding in the buffer')
end)

test('a negative or malformed ranks per node is refused with a message and nothing is sent', function()
  setup_run(-1)
  local sent, err = on_the_wire('nsys/analyzeRun', 'analyze_run', 'NsysAnalyzeRun', true)
  eq(err.message, 'setup({ run = { ranks_per_node = N } }): N must be a whole number, 0 or more (it is -1)', 'setup')
  truthy(noted(err.message, vim.log.levels.ERROR), 'shown')
  eq(#sent, 0, 'nothing sent')
  setup_run(0)
  for _, c in ipairs({ { 'analyze_run', 'NsysAnalyzeRun -1', 'nsys/analyzeRun' }, { 'run_perfetto', 'NsysRunPerfetto ranks_per_node=x', 'nsys/openInPerfetto' } }) do
    sent, err = on_the_wire(c[3], c[1], c[2], true)
    contains(err.message, 'Usage: :' .. vim.split(c[2], ' ')[1] .. ' [N | ranks_per_node=N]', c[2])
    eq(#sent, 0, c[2] .. ': nothing sent')
  end
  eq(runs.runs[opened_run.run.runId].ranks_per_node, nil, 'the run has no value of its own')
end)

test(':NsysRunPerfetto 2 opens once the trace exportRunTrace writes for 2 ranks per node; the count stays the run’s', function()
  local id = opened_run.run.runId
  local before = #client.opened_urls
  local sent, res = on_the_wire('nsys/openInPerfetto', 'run_perfetto', 'NsysRunPerfetto 2')
  eq(vim.inspect(sent), vim.inspect({ { runId = id, ranksPerNode = 2 } }), 'sent (setup says 0)')
  expect_one_open(before, 'opened once')
  local fetched = tmp .. '/run2-fetched.pftrace'
  eq(vim.trim(vim.fn.system({ 'curl', '-s', '-o', fetched, '-w', '%{http_code}', res.traceUrl })), '200', 'the trace answers')
  eq(sha256_of(fetched), res.sha256, 'sha256 of the served trace')
  vim.fn.delete(fetched)
  eq(res.sha256, exported_sha({ runId = id, ranksPerNode = 2 }), 'exportRunTrace’s trace for 2 ranks per node')
  truthy(res.sha256 ~= exported_sha({ runId = id }), 'not the trace of a clock per rank')
  -- The run keeps its count: the next command sends it; its own 0 then beats setup's 2 and sends none.
  sent = on_the_wire('nsys/analyzeRun', 'analyze_run', 'NsysAnalyzeRun')
  eq(vim.inspect(sent), vim.inspect({ { runId = id, ranksPerNode = 2 } }), 'the run’s own 2')
  setup_run(2)
  sent = on_the_wire('nsys/analyzeRun', 'analyze_run', 'NsysAnalyzeRun ranks_per_node=0')
  sent = vim.list_extend(sent, (on_the_wire('nsys/analyzeRun', 'analyze_run', 'NsysAnalyzeRun')))
  eq(vim.inspect(sent), vim.inspect({ { runId = id }, { runId = id } }), 'the run’s own 0, twice')
  setup_run(0)
end)

test(':NsysCloseRun closes the run on the server', function()
  local id = opened_run.run.runId
  run('close_run', 'NsysCloseRun')
  eq(runs.runs[id], nil, 'forgotten')
  eq(vim.api.nvim_buf_is_valid(opened_run.bufnr), false, 'its view is wiped')
  local err
  client.request('nsys/runReport', { runId = id }, function(e)
    err = e or false
  end)
  truthy(vim.wait(10000, function()
    return err ~= nil
  end, 20), 'answered')
  eq(err and err.code, -32602, 'the id is gone')
end)

test(':NsysOpenRun errors: not a directory, a directory without rank exports', function()
  local err = run('open_run', 'NsysOpenRun ' .. tmp .. '/no/such/dir', true)
  contains(err.message, 'Usage: :NsysOpenRun', 'usage')
  vim.fn.mkdir(tmp .. '/empty_run', 'p')
  err = run('open_run', 'NsysOpenRun ' .. tmp .. '/empty_run', true)
  contains(err.message, tmp .. '/empty_run', 'the server names the directory')
  truthy(noted(err.message, vim.log.levels.ERROR), 'shown as it is')
end)


-- Issue 12: the profile's numbers on the user's own source lines. The real pair: the EfficientCenterFormer
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

-- Issue 32: .qdrep reports (what Nsight Systems wrote until 2021.1) open as .nsys-rep reports do: converted by the
-- installed nsys into the server's cache, named by the report; runs take them as ranks; a file named .qdrep that is
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

  test(':NsysOpenRun {dir of .qdrep}: each report is a rank', function()
    local dir = tmp .. '/qdrep_run'
    vim.fn.mkdir(dir, 'p')
    vim.fn.system({ 'cp', QDREP, dir .. '/rank0.qdrep' })
    vim.fn.system({ 'cp', QDREP2, dir .. '/rank1.qdrep' })
    local opened = run('open_run', 'NsysOpenRun ' .. dir, false, 120000)
    eq(#opened.report.ranks, 2, 'ranks')
    eq(opened.report.ranks[1].rank .. ' ' .. opened.report.ranks[1].kernels, 'rank0 114', 'rank0')
    eq(opened.report.ranks[2].rank .. ' ' .. opened.report.ranks[2].kernels, 'rank1 4696', 'rank1')
    vim.cmd('only')
  end)
end

finish()
