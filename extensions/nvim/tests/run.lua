-- Headless tests of the Neovim plugin against the real server (no plenary):
--   cd extensions/nvim && NSYS_AI_BINARY=/path/to/nsys-ai timeout 300 \
--     nvim --headless -n -u NONE -i NONE -c "lua dofile('tests/run.lua')"
-- Every command runs on real fixtures (NSYS_AI_FIXTURES_DIR, else the repository's ../shared/fixtures). The tests
-- are split by area, run in this order in one Neovim (later areas reuse the server the first one starts):
-- profile.lua, jobs.lua, sources.lua; helpers.lua holds what they share. Prints `N passed, M failed` and exits
-- non-zero on any failure.
local dir = vim.fn.getcwd() .. '/tests/'
local H = dofile(dir .. 'helpers.lua')
if H.ready then
  for _, area in ipairs({ 'profile.lua', 'jobs.lua', 'sources.lua' }) do
    assert(loadfile(dir .. area))(H)
  end
end
H.finish()
