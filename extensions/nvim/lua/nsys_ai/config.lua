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
  -- Open the quickfix window after :NsysAnalyze when there are findings.
  open_quickfix = true,
}

M.options = vim.deepcopy(M.defaults)

function M.set(user)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), user or {})
  if user and user.cmd then
    M.options.cmd = user.cmd -- lists are replaced, not merged
  end
  return M.options
end

return M
