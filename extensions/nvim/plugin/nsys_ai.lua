-- Commands of nsys-ai. The modules load on first use; setup() is optional (defaults: `nsys-ai` on PATH).
if vim.g.loaded_nsys_ai then
  return
end
vim.g.loaded_nsys_ai = true

local function nsys()
  return require('nsys_ai')
end

local cmd = vim.api.nvim_create_user_command

cmd('NsysOpen', function(o)
  nsys().open(o.args)
end, { nargs = 1, complete = 'file', desc = 'nsys-ai: open a profile and show its report' })

cmd('NsysAnalyze', function()
  nsys().analyze()
end, { nargs = 0, desc = 'nsys-ai: findings of the profile into the quickfix list' })

cmd('NsysAsk', function(o)
  nsys().ask(o.args)
end, { nargs = '+', desc = 'nsys-ai: ask a question about the profile' })

cmd('NsysSkill', function(o)
  nsys().skill(o.fargs[1], vim.list_slice(o.fargs, 2))
end, {
  nargs = '+',
  complete = function(arglead, cmdline)
    local words = vim.split(cmdline, '%s+', { trimempty = true })
    if #words > 2 or (#words == 2 and arglead == '') then
      return {}
    end
    return nsys().complete_skill(arglead)
  end,
  desc = 'nsys-ai: run a skill, result as a table',
})

cmd('NsysTree', function()
  nsys().tree()
end, { nargs = 0, desc = 'nsys-ai: the NVTX tree (expand with <CR>/zo)' })

cmd('NsysDiff', function(o)
  nsys().diff(o.fargs[1], o.fargs[2])
end, { nargs = '+', complete = 'file', desc = 'nsys-ai: compare two profiles' })

cmd('NsysPerfetto', function()
  nsys().perfetto()
end, { nargs = 0, desc = 'nsys-ai: open the profile in Perfetto' })

-- Jobs: a directory of per-rank exports of one multi-process job opened as one. Each command is also defined under
-- its old name (:NsysOpenRun, :NsysAnalyzeRun, :NsysRunPerfetto, :NsysCloseRun), the same function.
local function job()
  return require('nsys_ai.job')
end

local function job_cmd(name, old, fn, opts)
  cmd(name, fn, opts)
  cmd(old, fn, vim.tbl_extend('force', opts, { desc = opts.desc .. ' (old name of :' .. name .. ')' }))
end

job_cmd('NsysOpenJob', 'NsysOpenRun', function(o)
  job().open(o.args)
end, { nargs = 1, complete = 'dir', desc = 'nsys-ai: open a directory of rank exports as one job and show its view' })

job_cmd('NsysAnalyzeJob', 'NsysAnalyzeRun', function(o)
  job().analyze(o.args)
end, { nargs = '?', desc = 'nsys-ai: the findings across the ranks of the job, in a buffer ([N]: ranks per node)' })

job_cmd('NsysJobPerfetto', 'NsysRunPerfetto', function(o)
  job().perfetto(o.args)
end, { nargs = '?', desc = "nsys-ai: open the job's timeline (every rank) in Perfetto ([N]: ranks per node)" })

job_cmd('NsysCloseJob', 'NsysCloseRun', function()
  job().close()
end, { nargs = 0, desc = 'nsys-ai: close the job' })

cmd('NsysCoverage', function()
  nsys().coverage()
end, { nargs = 0, desc = 'nsys-ai: the NVTX mapping coverage of the profile' })

cmd('NsysSources', function(o)
  nsys().sources(o.args)
end, { nargs = '+', desc = 'nsys-ai: the source lines that launch a kernel, into the quickfix list' })

cmd('NsysSuggest', function()
  nsys().suggest()
end, { nargs = 0, desc = 'nsys-ai: NVTX ranges to refine (most GPU time first) into the quickfix list' })

cmd('NsysSuggestApply', function(o)
  nsys().suggest_apply(o.args ~= '' and o.args or nil)
end, { nargs = '?', desc = 'nsys-ai: apply the edit of a :NsysSuggest item (default: the current quickfix item)' })

cmd('NsysExplain', function(o)
  nsys().explain(o.args)
end, { nargs = '+', desc = "nsys-ai: a kernel's explanation (nsys/explainKernel) in a buffer" })

-- The kernel links of a source hover (nsys-ai://explain/<profileId>/<kernel>): `gf` on one opens the explanation.
vim.api.nvim_create_autocmd('BufReadCmd', {
  group = vim.api.nvim_create_augroup('nsys_ai_explain', { clear = true }),
  pattern = 'nsys-ai://explain/*',
  callback = function(args)
    nsys().read_explain_uri(args.match)
  end,
})

-- Source buffers (Python, C/C++/CUDA, Julia) get the client once the server runs: lenses, hovers, diagnostics and
-- code actions on the NVTX-annotated lines.
require('nsys_ai.source').setup_autocmds()
