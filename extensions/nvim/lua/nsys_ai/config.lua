-- Options of the nsys-ai Neovim plugin. setup() merges the user's table over these defaults.
local M = {}

M.defaults = {
  -- The server command: `nsys-ai` on PATH by default.
  cmd = { 'nsys-ai', 'serve', '--stdio' },
  -- Extra environment for the server process (e.g. { NSYS_AI_LLM_PROVIDER = 'none' }).
  cmd_env = nil,
  -- initializationOptions.llm: { provider = 'openai'|'anthropic'|'none', model?, baseUrl?, apiKeyEnv? }.
  -- The key itself never leaves the server's environment: name the variable in apiKeyEnv.
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
  -- Runs: ranks_per_node = how many consecutive ranks share a node (one clock), sent as ranksPerNode by
  -- :NsysAnalyzeRun and :NsysRunPerfetto when more than 0; 0 = each rank its own node. A count given to one of
  -- those commands (:NsysRunPerfetto 4) becomes the run's own value.
  run = { ranks_per_node = 0 },
}

M.options = vim.deepcopy(M.defaults)

function M.set(user)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), user or {})
  if user and user.cmd then
    M.options.cmd = user.cmd -- lists are replaced, not merged
  end
  if user and user.source_roots then
    M.options.source_roots = user.source_roots
  end
  return M.options
end

return M
