-- Options of the nsys-ai Neovim plugin. setup() merges the user's table over these defaults.
local M = {}

M.defaults = {
  -- The server command: `nsys-ai` on PATH by default.
  cmd = { 'nsys-ai', 'serve', '--stdio' },
  -- Extra environment for the server process (e.g. { NSYS_AI_LLM_PROVIDER = 'none' }).
  cmd_env = nil,
  -- initializationOptions.llm: { provider = 'openai'|'anthropic'|'none', model?, baseUrl?, apiKeyEnv? }, or
  -- { endpoint = NAME } to pick one of the server's own endpoints (NSYS_AI_LLM_ENDPOINTS). apiKeyEnv names a
  -- variable of Neovim's environment holding the key: the plugin hands it to the server it starts as
  -- NSYS_AI_NVIM_LLM_API_KEY (the server takes keys only from NSYS_AI_* variables), never in a message.
  -- Only setup() sets these (your own config): the plugin reads no project-local file, so a repository cannot
  -- choose the endpoint that receives your key (a project's .nvim.lua runs only if you trust it, see :h 'exrc').
  llm = nil,
  -- Any other initializationOptions (perfettoOrigin, nsysPath, skillDirs, noCache, ...).
  init_options = nil,
  -- How a URL is opened (Perfetto): nil = vim.ui.open where it exists, else xdg-open / open.
  -- A function(url) replaces that.
  open_url = nil,
  -- Echo $/progress of the server in the command line.
  progress = true,
  -- Open the quickfix window after :NsysAnalyze, :NsysSources and :NsysSuggest when they list something.
  open_quickfix = true,
  -- The workspace root whose source files the server maps the profile onto (workspaceFolders at initialize):
  -- nil = the working directory when the server starts.
  root = nil,
  -- More folders of source code to map (initializationOptions.sourceRoots).
  source_roots = nil,
  -- Attach the client to Python, C/C++/CUDA and Julia buffers under the root (lenses, hovers, diagnostics, code
  -- actions on your NVTX-annotated lines). false: only the plugin's own buffers.
  sources = true,
  -- Jobs (the per-rank exports of one multi-process job): ranks_per_node = how many consecutive ranks share a node
  -- (one clock), sent as ranksPerNode by :NsysAnalyzeJob and :NsysJobPerfetto when more than 0; 0 = each rank its
  -- own node. A count given to one of those commands (:NsysJobPerfetto 4) becomes the job's own value. The old
  -- name of this table, `run`, is still read when `job` is not given.
  job = { ranks_per_node = 0 },
}

M.options = vim.deepcopy(M.defaults)

-- The variable the plugin hands a key to the server under (the server takes a key's variable only by an NSYS_AI_*
-- name).
M.KEY_ENV = 'NSYS_AI_NVIM_LLM_API_KEY'

-- initializationOptions.llm and the server's extra environment for `opts` (the options in force): an apiKeyEnv
-- that is not an NSYS_AI_* name is read here, from cmd_env or Neovim's environment (`env`, default vim.env), and
-- passed as KEY_ENV. Returns llm (or nil), cmd_env (or nil).
function M.llm_for_server(opts, env)
  env = env or vim.env
  local cmd_env = opts.cmd_env and vim.deepcopy(opts.cmd_env) or nil
  if not opts.llm then
    return nil, cmd_env
  end
  local llm = vim.deepcopy(opts.llm)
  local var = llm.apiKeyEnv
  if type(var) == 'string' and var ~= '' and not var:match('^NSYS_AI_') then
    cmd_env = cmd_env or {}
    cmd_env[M.KEY_ENV] = (opts.cmd_env or {})[var] or env[var]
    llm.apiKeyEnv = M.KEY_ENV
  end
  return llm, cmd_env
end

function M.set(user)
  if user and user.run ~= nil and user.job == nil then
    user = vim.tbl_extend('force', user, { job = user.run }) -- `run` is the old name of `job`
  end
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), user or {})
  M.options.run = nil
  if user and user.cmd then
    M.options.cmd = user.cmd -- lists are replaced, not merged
  end
  if user and user.source_roots then
    M.options.source_roots = user.source_roots
  end
  return M.options
end

return M
