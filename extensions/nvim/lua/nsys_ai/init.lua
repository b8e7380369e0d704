-- nsys-ai for Neovim: a thin client of `nsys-ai serve --stdio`. Every command is one or two requests to the
-- server and a rendering of the answer; there is no analysis here.
local config = require('nsys_ai.config')
local client = require('nsys_ai.client')
local render = require('nsys_ai.render')
local source = require('nsys_ai.source')

local M = {}

M.profiles = {} -- profileId -> { profileId, path, info, report = {uri, bufnr, kernels, findings} }
M.current = nil -- the last opened profile id
M.last = {} -- op -> { err, result } of the last completed command (tests read it)
M.done = {} -- op -> how many times it completed
M.conversations = {} -- profileId -> conversationId of :NsysAsk

function M.setup(opts)
  config.set(opts)
  return M
end

local function finish(op, err, result, cb)
  M.last[op] = { err = err, result = result }
  M.done[op] = (M.done[op] or 0) + 1
  if err then
    client.error(err)
  end
  if cb then
    cb(err, result)
  end
end
M.finish = finish -- the job commands (nsys_ai.job) record their completion here too

-- The profile of the current buffer (report, tree), else the last opened one.
function M.profile_id()
  local ok, id = pcall(vim.api.nvim_buf_get_var, 0, 'nsys_ai_profile')
  if ok and M.profiles[id] then
    return id
  end
  return M.current
end

local function need_profile(op, cb)
  local id = M.profile_id()
  if not id then
    finish(op, { message = 'No profile is open: run :NsysOpen {file} first.' }, nil, cb)
  end
  return id
end

local function abspath(path)
  return vim.fn.fnamemodify(vim.fn.expand(path), ':p')
end

-- nsys/openProfile; cb(err, {profileId, path, info}).
function M.open_profile(path, cb)
  local token = client.progress_token('Opening ' .. vim.fn.fnamemodify(path, ':t'))
  client.request('nsys/openProfile', { path = abspath(path), workDoneToken = token }, function(err, res)
    client.release(token)
    if not err then
      -- Shown by the file the user gave: a report's (.nsys-rep, .qdrep) name, not its conversion in the cache.
      local shown = res.info and res.info.sourcePath ~= nil and res.info.sourcePath ~= '' and res.info.sourcePath or res.path
      M.profiles[res.profileId] = { profileId = res.profileId, path = shown, info = res.info }
      M.current = res.profileId
    end
    cb(err, res)
  end)
end

-- The report of a profile rendered by the server (nsys/report), in a buffer named by its uri, with the LSP
-- client attached so that K (textDocument/hover) explains the kernel under the cursor. The server sends the document
-- as it computes it (partial results: the summary first, then each section), and the buffer is painted each time.
function M.report(profile_id, cb)
  local function paint(rep)
    local buf = render.scratch(rep.uri, render.split_text(rep.text), { filetype = 'markdown' })
    -- Markdown's syntax marks an underscore inside a word (file names, kernel names) as an error; tables read
    -- best unwrapped.
    vim.api.nvim_buf_call(buf, function()
      vim.cmd('silent! syntax clear markdownError')
    end)
    local win = vim.fn.bufwinid(buf)
    if win ~= -1 then
      vim.api.nvim_win_set_option(win, 'wrap', false)
    end
    vim.api.nvim_buf_set_var(buf, 'nsys_ai_profile', profile_id)
    vim.api.nvim_buf_set_var(buf, 'nsys_ai_report', { uri = rep.uri, kernels = rep.kernels, findings = rep.findings })
    local ns = vim.api.nvim_create_namespace('nsys_ai_report')
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    for _, span in ipairs(rep.kernels or {}) do
      vim.api.nvim_buf_add_highlight(buf, ns, 'Identifier', span.line, span.character, span.character + span.length)
    end
    for _, span in ipairs(rep.findings or {}) do
      vim.api.nvim_buf_add_highlight(buf, ns, 'WarningMsg', span.line, span.character, span.character + span.length)
    end
    vim.keymap.set('n', 'K', vim.lsp.buf.hover, { buffer = buf, silent = true, desc = 'nsys-ai: explain the kernel' })
    client.attach(buf)
    if M.profiles[profile_id] then
      M.profiles[profile_id].report = { uri = rep.uri, bufnr = buf, kernels = rep.kernels, findings = rep.findings }
    end
    return buf
  end
  local partials, first_text = 0, nil
  local token = client.token(function(value)
    if type(value) == 'table' and type(value.text) == 'string' and type(value.uri) == 'string' then
      partials = partials + 1
      first_text = first_text or value.text
      paint(value)
    end
  end)
  client.request('nsys/report', { profileId = profile_id, partialResultToken = token }, function(err, rep)
    client.release(token)
    if err then
      return finish('report', err, nil, cb)
    end
    local buf = paint(rep)
    finish('report', nil, { bufnr = buf, report = rep, partials = partials, first_text = first_text }, cb)
  end)
end

-- The mapping coverage of a profileInfo/openProfile result (its `mappingCoverage`, beside `info`): the table, vim.NIL
-- when the server has not computed it yet, nil when the server does not report it.
-- The server sends `mappingCoverage: null` until it has computed it, but Neovim 0.7's LSP client decodes JSON with
-- null object members dropped, so there a missing member means "not yet" too when the server reports coverage at all
-- (every server with nsys/annotationPlan does: both came with the source mapping).
function M.coverage_of(res)
  if type(res) ~= 'table' then
    return nil
  end
  local c = res.mappingCoverage
  if c == vim.NIL then
    return vim.NIL
  end
  if type(c) == 'table' and type(c.share) == 'number' then
    return c
  end
  if c == nil and res.profileId ~= nil and client.supports('nsys/annotationPlan') then
    return vim.NIL
  end
  return nil
end

local function ms(ns)
  return string.format('%.1f ms', (tonumber(ns) or 0) / 1e6)
end

-- "NVTX coverage 30.8 % (12.3 ms of 40.0 ms kernel time maps one kernel per call)", or why there is none.
function M.coverage_text(c)
  if c == vim.NIL then
    return 'NVTX coverage: not computed yet (try :NsysCoverage again in a moment)'
  end
  if c == nil then
    return 'NVTX coverage: this nsys-ai server does not report it'
  end
  return string.format(
    'NVTX coverage %.1f %% (%s of %s kernel time is in innermost ranges launching one kernel per call)',
    c.share * 100,
    ms(c.mappedNs),
    ms(c.kernelNs)
  )
end

-- :NsysOpen {file}: the report, the coverage in the summary line, and the lenses of the source buffers on screen
-- (they answer against the profile opened last).
function M.open(path, cb)
  if not path or path == '' then
    return finish('open', { message = 'Usage: :NsysOpen {file.sqlite|file.nsys-rep|file.qdrep}' }, nil, cb)
  end
  M.open_profile(path, function(err, res)
    if err then
      return finish('open', err, nil, cb)
    end
    local function shown(err2, rep, coverage)
      M.profiles[res.profileId].coverage = coverage
      if not err2 then
        client.brief(vim.fn.fnamemodify(M.profiles[res.profileId].path, ':t') .. ' · ' .. M.coverage_text(coverage))
      end
      source.attach_all()
      source.refresh_all()
      finish('open', err2, not err2 and {
        profile = res,
        bufnr = rep and rep.bufnr,
        report = rep and rep.report,
        partials = rep and rep.partials,
        first_text = rep and rep.first_text,
        coverage = coverage,
      } or nil, cb)
    end
    local function done(err2, rep)
      local coverage = M.coverage_of(res)
      if err2 or coverage ~= vim.NIL or not client.supports('nsys/profileInfo') then
        return shown(err2, rep, coverage)
      end
      -- Not computed when the profile opened: the server computes it once the tables the report waited for have
      -- loaded, so ask once more rather than show "not computed yet" when it is likely known by now.
      client.request('nsys/profileInfo', { profileId = res.profileId }, function(err3, info)
        local later = not err3 and M.coverage_of(info) or nil
        shown(nil, rep, type(later) == 'table' and later or coverage)
      end)
    end
    if client.supports('nsys/report') then
      M.report(res.profileId, done)
    else
      done(nil, nil)
    end
  end)
end

-- :NsysCoverage: the mapping coverage of the profile (nsys/profileInfo).
function M.coverage(cb)
  local id = need_profile('coverage', cb)
  if not id then
    return
  end
  client.request('nsys/profileInfo', { profileId = id }, function(err, res)
    if err then
      return finish('coverage', err, nil, cb)
    end
    local c = M.coverage_of(res)
    M.profiles[id].coverage = c
    client.notify(vim.fn.fnamemodify(M.profiles[id].path, ':t') .. ': ' .. M.coverage_text(c))
    finish('coverage', nil, { coverage = c, text = M.coverage_text(c) }, cb)
  end)
end

local function pct(share)
  return string.format('%.1f %%', (tonumber(share) or 0) * 100)
end

local function show_quickfix(items)
  if #items > 0 and config.options.open_quickfix then
    vim.cmd('botright copen')
    vim.cmd('wincmd p')
  end
end

-- :NsysSources {kernel}: the source lines that launch a kernel (nsys/kernelSources) into the quickfix list.
function M.sources(kernel, cb)
  local id = need_profile('sources', cb)
  if not id then
    return
  end
  if not kernel or vim.trim(kernel) == '' then
    return finish('sources', { message = 'Usage: :NsysSources {kernel name, short name or a unique part}' }, nil, cb)
  end
  client.request('nsys/kernelSources', { profileId = id, kernel = vim.trim(kernel) }, function(err, res)
    if err then
      return finish('sources', err, nil, cb)
    end
    local items = {}
    for _, l in ipairs(res.locations or {}) do
      local text = string.format('%s · %s of its GPU time · %s · %d calls', l.name, pct(l.share), ms(l.gpuNs), l.calls or 0)
      table.insert(items, source.qf_item(l.uri, l.range, text))
    end
    vim.fn.setqflist({}, ' ', { title = 'nsys-ai sources of ' .. tostring(res.kernel), items = items })
    show_quickfix(items)
    if #items == 0 then
      client.brief('No annotated source line launches ' .. tostring(res.kernel) .. ' (add NVTX ranges: :NsysSuggest)')
    else
      client.brief(#items .. ' source locations launch ' .. tostring(res.kernel))
    end
    finish('sources', nil, { result = res, items = items }, cb)
  end)
end

M.plan = nil -- the last nsys/annotationPlan result, with the profile it is of

-- :NsysSuggest: what to annotate next (nsys/annotationPlan) into the quickfix list; :NsysSuggestApply [n] applies
-- item n's edit (default: the current quickfix item).
function M.suggest(cb)
  local id = need_profile('suggest', cb)
  if not id then
    return
  end
  local token = client.progress_token('Planning NVTX refinements')
  client.request('nsys/annotationPlan', { profileId = id, workDoneToken = token }, function(err, res)
    client.release(token)
    if err then
      return finish('suggest', err, nil, cb)
    end
    local items = {}
    for i, it in ipairs(res.items or {}) do
      local text = string.format(
        '%d. %s: %s GPU · %s kernels/call of %d kinds%s -- %s',
        i,
        it.name,
        ms(it.gpuNs),
        (math.floor(it.kernelsPerCall or 0) == it.kernelsPerCall) and tostring(it.kernelsPerCall)
          or string.format('%.1f', it.kernelsPerCall or 0),
        it.distinctKernels or 0,
        (it.edit and it.edit ~= vim.NIL) and ' [edit: :NsysSuggestApply ' .. i .. ']' or '',
        it.reason or ''
      )
      local loc = it.location ~= vim.NIL and it.location or nil
      local item = loc and source.qf_item(loc.uri, loc.range, text)
        or { filename = M.profiles[id].path, lnum = 1, col = 1, text = text }
      table.insert(items, item)
    end
    M.plan = { profileId = id, result = res }
    local coverage = res.coverage ~= vim.NIL and res.coverage or nil
    local title = 'nsys-ai suggest: ' .. M.coverage_text(coverage or vim.NIL):gsub(' %(.*', '')
    vim.fn.setqflist({}, ' ', { title = title, items = items })
    show_quickfix(items)
    client.brief(#items .. ' ranges to refine' .. (res.nextCommand and res.nextCommand ~= '' and ('; then: ' .. res.nextCommand) or ''))
    finish('suggest', nil, { result = res, items = items }, cb)
  end)
end

-- :NsysSuggestApply [n]: applies the edit of item n of the last :NsysSuggest (the server's WorkspaceEdit).
function M.suggest_apply(n, cb)
  local plan = M.plan
  if not plan then
    return finish('suggest_apply', { message = 'Run :NsysSuggest first.' }, nil, cb)
  end
  n = tonumber(n)
  if not n then
    local qf = vim.fn.getqflist({ idx = 0, title = 1 })
    n = (qf.title or ''):find('^nsys%-ai suggest') and qf.idx or 1
  end
  local item = (plan.result.items or {})[n]
  if not item then
    return finish('suggest_apply', { message = 'No item ' .. tostring(n) .. ' in the last :NsysSuggest.' }, nil, cb)
  end
  if not item.edit or item.edit == vim.NIL then
    return finish('suggest_apply', { message = "'" .. item.name .. "' has no edit: " .. (item.reason or '') }, nil, cb)
  end
  local ok, err = pcall(vim.lsp.util.apply_workspace_edit, item.edit, 'utf-16')
  if not ok then
    return finish('suggest_apply', { message = 'Could not apply the edit: ' .. tostring(err) }, nil, cb)
  end
  local next_cmd = plan.result.nextCommand
  client.notify(
    "Added NVTX ranges inside '" .. item.name .. "' (write the files with :wa)"
      .. ((next_cmd and next_cmd ~= '') and ('. Then capture again: ' .. next_cmd) or '')
  )
  finish('suggest_apply', nil, { item = item, index = n }, cb)
end

local function first_text(list)
  if type(list) ~= 'table' or list[1] == nil then
    return nil
  end
  local v = list[1]
  if type(v) == 'table' then
    return v.text or v.title or v.summary or vim.fn.json_encode(v)
  end
  return tostring(v)
end

-- :NsysAnalyze: findings into the quickfix list (at their line of the report when it is open).
function M.analyze(cb)
  local id = need_profile('analyze', cb)
  if not id then
    return
  end
  local prof = M.profiles[id]
  local token = client.progress_token('Analyzing')
  client.request('nsys/analyze', { profileId = id, workDoneToken = token }, function(err, res)
    client.release(token)
    if err then
      return finish('analyze', err, nil, cb)
    end
    local lines = {}
    if prof.report and vim.api.nvim_buf_is_valid(prof.report.bufnr) then
      for _, span in ipairs(prof.report.findings or {}) do
        lines[span.name] = lines[span.name] or span
      end
    end
    local items = {}
    for _, f in ipairs(res.findings or {}) do
      local rec = f.answer and first_text(f.answer.recommendations)
      local item = {
        text = string.format('[%s] %s', f.severity, f.title) .. (rec and (' -- ' .. rec) or ''),
        type = f.severity == 'high' and 'W' or 'I',
        lnum = 1,
        col = 1,
      }
      local span = lines[f.rootCause]
      if span then
        item.bufnr = prof.report.bufnr
        item.lnum = span.line + 1
        item.col = span.character + 1
      else
        item.filename = prof.path
      end
      table.insert(items, item)
    end
    vim.fn.setqflist({}, ' ', { title = 'nsys-ai analyze: ' .. prof.path, items = items })
    if #items > 0 and config.options.open_quickfix then
      vim.cmd('botright copen')
      vim.cmd('wincmd p')
    end
    client.brief(res.summary or (#items .. ' findings'))
    finish('analyze', nil, res, cb)
  end)
end

-- :NsysAsk {question}: the answer streamed into a buffer, then replaced by the server's full Markdown.
function M.ask(question, cb)
  local id = need_profile('ask', cb)
  if not id then
    return
  end
  if not question or vim.trim(question) == '' then
    return finish('ask', { message = 'Usage: :NsysAsk {question}' }, nil, cb)
  end
  local header = { '# ' .. question, '' }
  local buf = render.scratch('nsys-ai://ask/' .. id, header, { filetype = 'markdown' })
  vim.api.nvim_buf_set_var(buf, 'nsys_ai_profile', id)
  local streamed = ''
  local pieces = 0
  local partial = client.token(function(value)
    if type(value) == 'table' and type(value.text) == 'string' then
      pieces = pieces + 1
      streamed = streamed .. value.text
      if vim.api.nvim_buf_is_valid(buf) then
        local lines = vim.list_extend(vim.deepcopy(header), render.split_text(streamed))
        render.set_lines(buf, lines)
      end
    end
  end)
  local params = { profileId = id, question = question, partialResultToken = partial }
  params.conversationId = M.conversations[id]
  client.request('nsys/ask', params, function(err, res)
    client.release(partial)
    if err then
      return finish('ask', err, nil, cb)
    end
    M.conversations[id] = res.conversationId
    local md = res.answer and res.answer.markdown or ''
    if vim.api.nvim_buf_is_valid(buf) then
      render.set_lines(buf, vim.list_extend(vim.deepcopy(header), render.split_text(md ~= '' and md or streamed)))
    end
    res.streamedPieces = pieces
    finish('ask', nil, res, cb)
  end)
end

-- Skill names for completion, from nsys/listSkills (cached).
M.skill_list = nil
function M.skill_names(cb)
  if M.skill_list then
    if cb then
      cb(M.skill_list)
    end
    return M.skill_list
  end
  client.request('nsys/listSkills', vim.empty_dict(), function(err, res)
    if not err and res then
      M.skill_list = {}
      for _, s in ipairs(res.skills or {}) do
        table.insert(M.skill_list, s.name)
      end
    end
    if cb then
      cb(M.skill_list or {}, err)
    end
  end)
  return nil
end

function M.complete_skill(arglead)
  local names = M.skill_list
  if not names then
    client.ensure(function() end)
    vim.wait(5000, function()
      return client.get() ~= nil
    end, 20)
    M.skill_names()
    vim.wait(5000, function()
      return M.skill_list ~= nil
    end, 20)
    names = M.skill_list or {}
  end
  return vim.tbl_filter(function(n)
    return n:sub(1, #arglead) == arglead
  end, names)
end

-- "limit=5 base=true name=foo" -> { limit = 5, base = true, name = 'foo' }
local function parse_args(words)
  local args = {}
  for _, w in ipairs(words) do
    local k, v = w:match('^([%w_]+)=(.*)$')
    if not k then
      return nil, "Skill arguments are name=value, got '" .. w .. "'"
    end
    if v == 'true' or v == 'false' then
      args[k] = v == 'true'
    elseif tonumber(v) then
      args[k] = tonumber(v)
    else
      args[k] = v
    end
  end
  return args
end

-- :NsysSkill {name} [arg=value ...]: the skill's rows as an aligned table.
function M.skill(name, words, cb)
  local id = need_profile('skill', cb)
  if not id then
    return
  end
  if not name or name == '' then
    return finish('skill', { message = 'Usage: :NsysSkill {name} [arg=value ...]' }, nil, cb)
  end
  local args, perr = parse_args(words or {})
  if not args then
    return finish('skill', { message = perr }, nil, cb)
  end
  local params = { profileId = id, skill = name, workDoneToken = client.progress_token('Skill ' .. name) }
  if next(args) then
    params.args = args
  end
  client.request('nsys/runSkill', params, function(err, res)
    client.release(params.workDoneToken)
    if err then
      return finish('skill', err, nil, cb)
    end
    local lines = { '# ' .. name .. ' (' .. M.profiles[id].path .. ')', '' }
    if res.declined then
      table.insert(lines, 'Declined: this profile lacks the data the skill needs.')
    else
      vim.list_extend(lines, render.table(res.columns or {}, res.rows or {}))
    end
    if res.notes and #res.notes > 0 then
      table.insert(lines, '')
      for _, n in ipairs(res.notes) do
        table.insert(lines, 'Note: ' .. n)
      end
    end
    local buf = render.scratch('nsys-ai://skill/' .. id .. '/' .. name, lines, { filetype = 'nsys_ai_table' })
    vim.api.nvim_buf_set_var(buf, 'nsys_ai_profile', id)
    finish('skill', nil, { bufnr = buf, result = res }, cb)
  end)
end

-- :NsysTree
function M.tree(cb)
  local id = need_profile('tree', cb)
  if not id then
    return
  end
  require('nsys_ai.tree').open(id, function(err, buf)
    if buf then
      vim.api.nvim_buf_set_var(buf, 'nsys_ai_profile', id)
    end
    M.last.tree = { err = err, result = buf and { bufnr = buf } }
    M.done.tree = (M.done.tree or 0) + 1
    if cb then
      cb(err, buf)
    end
  end)
end

-- An argument of :NsysDiff: an open profile id (p1) or a file to open.
local function resolve(arg, cb)
  if M.profiles[arg] then
    return cb(nil, arg)
  end
  M.open_profile(arg, function(err, res)
    cb(err, res and res.profileId)
  end)
end

-- :NsysDiff {base} {new}: the server's comparison in a buffer.
function M.diff(a, b, cb)
  if not a or not b or a == '' or b == '' then
    return finish('diff', { message = 'Usage: :NsysDiff {base} {new} (files or open profile ids)' }, nil, cb)
  end
  resolve(a, function(err, base)
    if err then
      return finish('diff', err, nil, cb)
    end
    resolve(b, function(err2, new)
      if err2 then
        return finish('diff', err2, nil, cb)
      end
      client.request('nsys/diff', { baseProfileId = base, newProfileId = new }, function(err3, res)
        if err3 then
          return finish('diff', err3, nil, cb)
        end
        local lines = {
          '# ' .. M.profiles[base].path .. ' -> ' .. M.profiles[new].path,
          'verdict: ' .. tostring(res.verdict),
          '',
        }
        vim.list_extend(lines, render.split_text(res.markdown))
        local buf = render.scratch('nsys-ai://diff/' .. base .. '-' .. new, lines, { filetype = 'markdown' })
        finish('diff', nil, { bufnr = buf, result = res }, cb)
      end)
    end)
  end)
end

-- nsys/openInPerfetto on a profile ({profileId, window?}) or a job ({jobId, ranksPerNode?}, :NsysJobPerfetto): the
-- server publishes the trace; the URL opens through window/showDocument (the server sends it when the client
-- supports it), else here. The completion is recorded as `op`.
function M.open_in_perfetto(op, params, title, cb)
  params.workDoneToken = client.progress_token(title)
  client.request('nsys/openInPerfetto', params, function(err, res)
    client.release(params.workDoneToken)
    if err then
      return finish(op, err, nil, cb)
    end
    if not res.showDocument then
      client.open_url(res.url, res.sshHint)
    end
    finish(op, nil, res, cb)
  end)
end

-- :NsysPerfetto (and gp in the tree, with a window).
function M.perfetto(opts, cb)
  local id = need_profile('perfetto', cb)
  if not id then
    return
  end
  local params = { profileId = id }
  if opts and opts.window then
    params.window = opts.window
  end
  M.open_in_perfetto('perfetto', params, 'Perfetto trace', cb)
end

local function percent_decode(text)
  return (text:gsub('%%(%x%x)', function(h)
    return string.char(tonumber(h, 16))
  end))
end

-- A kernel's explanation (nsys/explainKernel) in a buffer named nsys-ai://explain/<profileId>/<kernel>: what the
-- kernel links of a source hover point at (`gf` on one opens it), and :NsysExplain {kernel}.
function M.explain(kernel, profile_id, cb, bufname)
  local id = profile_id or need_profile('explain', cb)
  if not id then
    return
  end
  if not kernel or vim.trim(kernel) == '' then
    return finish('explain', { message = 'Usage: :NsysExplain {kernel name, short name or a unique part}' }, nil, cb)
  end
  client.request('nsys/explainKernel', { profileId = id, kernel = vim.trim(kernel) }, function(err, res)
    if err then
      return finish('explain', err, nil, cb)
    end
    local name = bufname or ('nsys-ai://explain/' .. id .. '/' .. vim.trim(kernel))
    local buf = render.scratch(name, render.split_text(res.markdown), { filetype = 'markdown' })
    vim.api.nvim_buf_set_var(buf, 'nsys_ai_profile', id)
    finish('explain', nil, { bufnr = buf, result = res }, cb)
  end)
end

-- BufReadCmd of nsys-ai://explain/<profileId>/<percent-encoded kernel>.
function M.read_explain_uri(name)
  local id, kernel = name:match('^nsys%-ai://explain/([^/]+)/(.+)$')
  if not id then
    return
  end
  M.explain(percent_decode(kernel), id, nil, name)
end

function M.stop()
  client.stop()
end

return M
