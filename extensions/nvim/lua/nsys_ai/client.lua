-- The one LSP client of the plugin: starts `nsys-ai serve --stdio`, queues requests until `initialize` has
-- answered, routes $/progress (work-done progress and partial results of our own tokens), and opens URLs the
-- server asks for with window/showDocument. Portable from Neovim 0.7 to 0.11.
local config = require('nsys_ai.config')

local M = {}

M.client_id = nil
M.ready = false
M.progress_log = {} -- last values of $/progress seen (for the status line and tests)
M.opened_urls = {} -- URLs handled by open_url (tests read it)
M.init_result = nil -- the server's answer to initialize

-- Whether the running server binds `method` (from initialize's capabilities.experimental.nsysMethods).
function M.supports(method)
  local caps = M.init_result and M.init_result.capabilities or {}
  if method:sub(1, 5) ~= 'nsys/' then
    return caps[method] ~= nil
  end
  for _, m in ipairs((caps.experimental or {}).nsysMethods or {}) do
    if m == method then
      return true
    end
  end
  return false
end

local pending = {} -- callbacks waiting for the client to be initialized
local tokens = {} -- our tokens -> function(value)
local token_seq = 0

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- One line that fits the command line: a longer echo would stop Neovim at a hit-enter prompt.
local function fit(text)
  local width = math.max(vim.o.columns - 12, 20)
  text = text:gsub('\n.*', '')
  if vim.fn.strdisplaywidth(text) > width then
    text = vim.fn.strcharpart(text, 0, width - 1) .. '…'
  end
  return text
end

function M.notify(msg, level)
  vim.notify(msg, level or vim.log.levels.INFO, { title = 'nsys-ai' })
end

-- A summary shortened to one line (its full text is in the buffer or list it came with).
function M.brief(msg)
  M.notify(fit(msg))
end

function M.error(err)
  local msg = type(err) == 'table' and (err.message or vim.inspect(err)) or tostring(err)
  M.notify(msg, vim.log.levels.ERROR)
end

-- Work-done progress of the server, shown as a one-line status.
local function show_progress(value, title)
  table.insert(M.progress_log, value)
  if #M.progress_log > 200 then
    table.remove(M.progress_log, 1)
  end
  if not config.options.progress or type(value) ~= 'table' then
    return
  end
  local text
  if value.kind == 'begin' then
    text = (value.title or title or 'working') .. (value.percentage and (' ' .. value.percentage .. '%') or '')
  elseif value.kind == 'report' then
    text = (title or '') .. ' ' .. (value.percentage and (value.percentage .. '% ') or '') .. (value.message or '')
  elseif value.kind == 'end' then
    text = (title or '') .. ' done'
  end
  if text then
    vim.api.nvim_echo({ { fit('nsys-ai: ' .. vim.trim(text)), 'ModeMsg' } }, false, {})
  end
end

-- A fresh token; `on_value` receives each $/progress value sent on it.
function M.token(on_value)
  token_seq = token_seq + 1
  local t = 'nsys_ai-' .. token_seq
  tokens[t] = on_value
  return t
end

function M.release(token)
  if token then
    tokens[token] = nil
  end
end

-- A work-done token whose progress is echoed with `title`.
function M.progress_token(title)
  local t
  t = M.token(function(value)
    show_progress(value, title)
  end)
  return t
end

local function on_progress(err, result, ctx, cfg)
  local token = result and result.token
  local cb = token ~= nil and tokens[token]
  if cb then
    cb(result.value)
    return vim.NIL
  end
  -- The server's own tokens (window/workDoneProgress/create): our status, then Neovim's handler so that
  -- status-line plugins see them too. Values without `kind` would trip 0.7's handler, so they stop here.
  if type(result) == 'table' and type(result.value) == 'table' and result.value.kind then
    show_progress(result.value)
    local default = vim.lsp.handlers['$/progress']
    if default and default ~= on_progress then
      pcall(default, err, result, ctx, cfg)
    end
  end
  return vim.NIL
end

-- The port of a loopback URL such as http://127.0.0.1:PORT/p/TOKEN/.
local function url_port(url)
  return url:match('^%a[%w+.-]*://[^/:]+:(%d+)')
end

-- The `ssh -L` line a remote user runs on the laptop so that the URL works there.
function M.ssh_hint(url)
  local port = url_port(url)
  local conn = vim.env.SSH_CONNECTION or ''
  local host = vim.split(conn, ' ', { trimempty = true })[3] or '<this host>'
  if not port then
    return nil
  end
  return string.format('ssh -N -L %s:127.0.0.1:%s %s', port, port, host)
end

-- Opens a URL in the user's browser. Over SSH the browser would open on the remote host, so the URL and the
-- port-forwarding hint are shown instead. Returns true when the URL was handed to a browser or shown.
function M.open_url(url, server_hint)
  table.insert(M.opened_urls, url)
  local custom = config.options.open_url
  if type(custom) == 'function' then
    custom(url)
    return true
  end
  if vim.env.SSH_CONNECTION and vim.env.SSH_CONNECTION ~= '' then
    local hint = server_hint and server_hint ~= '' and server_hint or M.ssh_hint(url)
    M.notify(
      'Open in your local browser: '
        .. url
        .. (hint and ('\nThis session is remote: forward the port first, on your machine: ' .. hint) or '')
    )
    return true
  end
  if vim.ui and vim.ui.open then
    local ok, err = pcall(vim.ui.open, url)
    if ok then
      return true
    end
    M.notify('Could not open ' .. url .. ': ' .. tostring(err), vim.log.levels.WARN)
    return false
  end
  local opener = (vim.fn.has('mac') == 1 and 'open') or (vim.fn.executable('xdg-open') == 1 and 'xdg-open') or nil
  if not opener then
    M.notify('Open in your browser: ' .. url .. ' (no xdg-open or open found)')
    return true
  end
  local job = vim.fn.jobstart({ opener, url }, { detach = true })
  if job <= 0 then
    M.notify('Could not run ' .. opener .. '; open in your browser: ' .. url, vim.log.levels.WARN)
    return false
  end
  M.notify('Opened ' .. url)
  return true
end

local function on_show_document(_, result)
  local uri = result and result.uri
  if type(uri) ~= 'string' then
    return { success = false }
  end
  if result.external or not uri:match('^file:') then
    return { success = M.open_url(uri) }
  end
  vim.schedule(function()
    vim.cmd('edit ' .. vim.fn.fnameescape(vim.uri_to_fname(uri)))
  end)
  return { success = true }
end

local function on_show_message(_, result)
  if result and result.message then
    local levels = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }
    M.notify(result.message, levels[result.type] or vim.log.levels.INFO)
  end
  return vim.NIL
end

local function fail_pending(err)
  local waiting = pending
  pending = {}
  for _, cb in ipairs(waiting) do
    cb(nil, err)
  end
end

-- The server's workspace/codeLens/refresh: the lenses of the source buffers on screen are asked again.
local function on_codelens_refresh()
  return require('nsys_ai.source').on_codelens_refresh()
end

local function client_config()
  local opts = config.options
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  capabilities.window = capabilities.window or {}
  capabilities.window.workDoneProgress = true
  capabilities.window.showDocument = { support = true }
  capabilities.workspace = capabilities.workspace or {}
  capabilities.workspace.codeLens = { refreshSupport = true }
  local init = vim.deepcopy(opts.init_options or {})
  local llm, cmd_env = config.llm_for_server(opts)
  init.llm = llm
  -- More source roots than the workspace root (which goes as workspaceFolders/rootUri): absolute paths.
  local roots = {}
  for _, r in ipairs(opts.source_roots or {}) do
    table.insert(roots, (vim.fn.fnamemodify(vim.fn.expand(r), ':p'):gsub('/$', '')))
  end
  if #roots > 0 then
    init.sourceRoots = roots
  end
  local root = require('nsys_ai.source').root()
  return {
    name = 'nsys_ai',
    cmd = opts.cmd,
    cmd_env = cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    capabilities = capabilities,
    init_options = next(init) and init or nil,
    handlers = {
      ['$/progress'] = on_progress,
      ['window/showDocument'] = on_show_document,
      ['window/showMessage'] = on_show_message,
      ['workspace/codeLens/refresh'] = on_codelens_refresh,
    },
    on_init = function(client, result)
      M.init_result = result
      M.client_id = client.id
      M.ready = true
      local waiting = pending
      pending = {}
      for _, cb in ipairs(waiting) do
        cb(client)
      end
      -- The source buffers already open get the client now (lenses, hovers, diagnostics, code actions).
      vim.schedule(function()
        require('nsys_ai.source').attach_all()
      end)
    end,
    on_exit = function(code, signal, client_id)
      -- A client started since (a restart) is not this one: its id, state and waiting requests stay.
      if client_id ~= nil and M.client_id ~= nil and M.client_id ~= client_id then
        return
      end
      M.client_id = nil
      M.ready = false
      vim.schedule(function()
        if M.client_id ~= nil then
          return -- restarted before this ran: the waiting requests are the new client's
        end
        fail_pending({ message = 'nsys-ai server exited (code ' .. tostring(code) .. ')' })
        if code ~= 0 then
          M.error('The nsys-ai server exited with code ' .. tostring(code) .. (signal ~= 0 and (', signal ' .. tostring(signal)) or '') .. '; see :LspLog.')
        end
      end)
    end,
  }
end

-- A hidden buffer the client attaches to when vim.lsp.start (0.8+) wants one.
local function session_buffer()
  local name = 'nsys-ai://session'
  local buf = require('nsys_ai.render').find(name)
  if not buf then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
  end
  return buf
end

local function start()
  local cmd = config.options.cmd
  if type(cmd) ~= 'table' or not cmd[1] or vim.fn.executable(cmd[1]) ~= 1 then
    local what = type(cmd) == 'table' and tostring(cmd[1]) or tostring(cmd)
    fail_pending({
      message = "The nsys-ai server '"
        .. what
        .. "' was not found or is not executable. Install nsys-ai and put it on PATH, or give its path: "
        .. "require('nsys_ai').setup({ cmd = { '/path/to/nsys-ai', 'serve', '--stdio' } }). See :checkhealth nsys_ai.",
    })
    return
  end
  local conf = client_config()
  local id
  if vim.lsp.start and has('0.11') then
    id = vim.lsp.start(conf, { attach = false })
  elseif vim.lsp.start then
    id = vim.lsp.start(conf, {
      bufnr = session_buffer(),
      reuse_client = function(client)
        return M.client_id ~= nil and client.id == M.client_id
      end,
    })
  else
    id = vim.lsp.start_client(conf)
  end
  if not id then
    fail_pending({ message = 'Could not start the nsys-ai server: ' .. table.concat(cmd, ' ') })
    return
  end
  M.client_id = id
end

-- Calls cb(client) once the client is initialized (starting it when needed), or cb(nil, err).
function M.ensure(cb)
  local client = M.client_id and vim.lsp.get_client_by_id(M.client_id)
  if client and M.ready then
    cb(client)
    return
  end
  table.insert(pending, cb)
  if not client then
    M.ready = false
    start()
  end
end

function M.get()
  return M.client_id and M.ready and vim.lsp.get_client_by_id(M.client_id) or nil
end

-- Sends a request; cb(err, result). Errors of the server are passed on as they are.
function M.request(method, params, cb)
  M.ensure(function(client, err)
    if not client then
      cb(err, nil)
      return
    end
    local function handler(e, result)
      cb(e, result)
    end
    local ok
    if has('0.11') then
      ok = client:request(method, params, handler)
    else
      ok = client.request(method, params, handler)
    end
    if not ok then
      cb({ message = 'The nsys-ai server is not running; the request ' .. method .. ' was not sent.' }, nil)
    end
  end)
end

-- A synchronous request for completion functions: the result or nil.
function M.request_sync(method, params, timeout_ms)
  local client = M.get()
  if not client then
    return nil
  end
  local resp
  if has('0.11') then
    resp = client:request_sync(method, params, timeout_ms or 3000)
  else
    resp = client.request_sync(method, params, timeout_ms or 3000)
  end
  return resp and resp.result or nil
end

function M.attach(bufnr)
  if M.client_id then
    vim.lsp.buf_attach_client(bufnr, M.client_id)
  end
end

function M.stop()
  local client = M.client_id and vim.lsp.get_client_by_id(M.client_id)
  if client then
    if has('0.11') then
      client:stop()
    else
      client.stop()
    end
  end
end

return M
