-- :checkhealth nsys_ai. Neovim 0.7 reports through the health# functions, 0.8+ through vim.health
-- (report_* until 0.9, start/ok/warn/error from 0.9).
local M = {}

local function reporter(new, old)
  return function(msg, advice)
    local h = vim.health
    if h and h[new] then
      return h[new](msg, advice)
    end
    if h and h['report_' .. new] then
      return h['report_' .. new](msg, advice)
    end
    if old == 'start' then
      return vim.fn['health#report_start'](msg)
    end
    if advice then
      return vim.fn['health#report_' .. old](msg, advice)
    end
    return vim.fn['health#report_' .. old](msg)
  end
end

local start = reporter('start', 'start')
local ok = reporter('ok', 'ok')
local warn = reporter('warn', 'warn')
local err = reporter('error', 'error')
local info = reporter('info', 'info')

function M.check()
  start('nsys-ai')
  if vim.fn.has('nvim-0.7') == 1 then
    ok('Neovim ' .. tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch)
  else
    err('Neovim 0.7 or newer is needed')
  end
  local cmd = require('nsys_ai.config').options.cmd
  local exe = type(cmd) == 'table' and cmd[1] or nil
  if not exe or vim.fn.executable(exe) ~= 1 then
    err("The server '" .. tostring(exe) .. "' is not executable", {
      'Install nsys-ai and put it on PATH',
      "or: require('nsys_ai').setup({ cmd = { '/path/to/nsys-ai', 'serve', '--stdio' } })",
    })
  else
    local out = vim.fn.system({ exe, '--version' })
    if vim.v.shell_error == 0 then
      ok('server: ' .. vim.fn.exepath(exe) .. ' (' .. vim.trim(out) .. ')')
    else
      err('server: ' .. vim.fn.exepath(exe) .. ' does not run: ' .. vim.trim(out))
    end
  end
  if vim.ui and vim.ui.open then
    ok('URLs open with vim.ui.open')
  elseif vim.fn.executable('xdg-open') == 1 or vim.fn.has('mac') == 1 then
    ok('URLs open with ' .. (vim.fn.has('mac') == 1 and 'open' or 'xdg-open'))
  else
    warn('No xdg-open or open: Perfetto URLs are printed, not opened')
  end
  if vim.env.SSH_CONNECTION and vim.env.SSH_CONNECTION ~= '' then
    info('Remote session ($SSH_CONNECTION): :NsysPerfetto prints the URL and an ssh -L line to run on your machine')
  end
end

return M
