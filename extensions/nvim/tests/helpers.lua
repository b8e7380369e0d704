-- Shared by the area files of the Neovim plugin's headless tests (run.lua loads it first): a temporary XDG home, the
-- test runner and its assertions, the server binary and fixtures (NSYS_AI_FIXTURES_DIR, else the repository's
-- ../shared/fixtures), and `run`, which runs a command and waits for the plugin to record its completion.
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
  for _, d in ipairs({ root .. '/../../../shared/fixtures' }) do
    if vim.fn.isdirectory(d) == 1 then
      fixtures = vim.fn.fnamemodify(d, ':p'):gsub('/$', '')
      break
    end
  end
end
if not binary or vim.fn.executable(binary) ~= 1 then
  say('FAIL NSYS_AI_BINARY must name the nsys-ai binary (got ' .. tostring(binary) .. ')')
  failed = failed + 1
end
if failed == 0 and not fixtures or vim.fn.filereadable(fixtures .. '/mfu_2gpu_after.sqlite') ~= 1 then
  say('FAIL no fixtures (set NSYS_AI_FIXTURES_DIR)')
  failed = failed + 1
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


-- sqlite3 on a file: the first row's columns.
local function sqlite(file, query)
  local text = vim.fn.system({ 'sqlite3', file, query })
  eq(vim.v.shell_error, 0, 'sqlite3 on ' .. file)
  return vim.split(vim.trim(text), '|', { plain = true })
end

return {
  ready = failed == 0,
  root = root,
  tmp = tmp,
  say = say,
  test = test,
  skip = skip,
  finish = finish,
  eq = eq,
  truthy = truthy,
  buf_text = buf_text,
  contains = contains,
  notes = notes,
  noted = noted,
  binary = binary,
  fixtures = fixtures,
  MAIN = MAIN,
  nsys = nsys,
  client = client,
  expect_one_open = expect_one_open,
  run = run,
  sqlite = sqlite,
}
