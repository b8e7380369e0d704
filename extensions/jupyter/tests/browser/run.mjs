// The notebook view in a real Notebook 6 (Debian's jupyter-notebook) driven in Debian's Chromium by playwright-core:
// starts `python3 -m notebook` on a loopback port with a token, opens the tour notebook, runs its cells one by one and
// checks what shows: the profile view's kernels, and both Perfetto transports. ui.perfetto.dev is intercepted
// (a stand-in page answers the PING/PONG handshake and hashes the buffer it is posted); the bytes' sha256 must equal
// `nsys-ai export`'s for the same profile and window. Stopping the notebook server must leave no nsys-ai process.
// Options: --screenshot PNG (the README's picture of the profile view). Screenshots of failures go to failures/.
// Env: NSYS_AI_BIN (the server), NSYS_AI_FIXTURES_DIR, PYTHON (default /usr/bin/python3), CHROMIUM (/usr/bin/chromium).
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..', '..');
const root = path.resolve(pkg, '..', '..');
const binary = process.env.NSYS_AI_BIN || process.env.NSYS_AI_BINARY || path.join(root, 'build', 'nsys-ai');
const fixtures = process.env.NSYS_AI_FIXTURES_DIR || path.resolve(root, '..', 'shared', 'fixtures');
const python = process.env.PYTHON || '/usr/bin/python3';
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const h100 = path.join(fixtures, 'h100_2gpu_1s.sqlite');
const screenshotArg = process.argv.indexOf('--screenshot');
const screenshotOut = screenshotArg > 0 ? path.resolve(process.argv[screenshotArg + 1]) : null;
const PERFETTO = 'https://ui.perfetto.dev';
const STATIC = 'http://static-notebook.invalid';  // where the notebook's nbconvert HTML is served (a front end with no comm)

for (const [what, file] of [['nsys-ai', binary], ['fixture', h100], ['chromium', chromiumPath], ['python', python]]) {
  if (!fs.existsSync(file)) {
    console.log(`SKIP: no ${what} at ${file}`);
    process.exit(0);
  }
}

// Plays the Perfetto UI's side of the opener page's handshake and keeps the SHA-256 of the buffer it is given.
const STAND_IN = `<!doctype html><html><head><meta charset="utf-8"><title>Perfetto stand-in</title></head><body>
<p id="state">waiting</p><script>
window.addEventListener('message', async function (event) {
  if (event.data === 'PING') { event.source.postMessage('PONG', event.origin); return; }
  if (!event.data || !event.data.perfetto) return;
  const p = event.data.perfetto;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', p.buffer));
  const hex = Array.from(digest, function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  window.nsysResult = {sha256: hex, bytes: p.buffer.byteLength, title: p.title, fileName: p.fileName,
                       origin: event.origin, href: location.href};
  document.getElementById('state').textContent = 'received';
});
</script></body></html>`;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

function sha256File(file) { return createHash('sha256').update(fs.readFileSync(file)).digest('hex'); }

function exportSha(dir, start, end) {
  const out = path.join(dir, `export-${start}-${end}.pftrace`);
  const window = start === undefined ? [] : ['--start', String(start), '--end', String(end)];
  execFileSync(binary, ['export', h100, '-o', out, ...window], { stdio: 'pipe' });
  return { sha256: sha256File(out), bytes: fs.statSync(out).size };
}

function processGone(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /\) [ZX] /.test(stat);
  } catch { return true; }
}

async function waitFor(what, check, ms = 30000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function assert(condition, message) { if (!condition) throw new Error(message); }

// Runs every code cell of the open notebook in order; a cell that raises fails the test.
async function runAllCells(page) {
  const cellCount = await page.evaluate(() => Jupyter.notebook.get_cells().length);
  for (let i = 0; i < cellCount; i++) {
    const isCode = await page.evaluate((i) => Jupyter.notebook.get_cell(i).cell_type === 'code', i);
    if (!isCode) continue;
    await page.evaluate((i) => Jupyter.notebook.execute_cells([i]), i);
    await page.waitForFunction((i) => typeof Jupyter.notebook.get_cell(i).input_prompt_number === 'number',
      i, { timeout: 60000 });
    const errors = await page.evaluate((i) => Jupyter.notebook.get_cell(i).output_area.outputs
      .filter((o) => o.output_type === 'error').map((o) => o.ename + ': ' + o.evalue), i);
    assert(errors.length === 0, `cell ${i} failed: ${errors.join('; ')}`);
  }
}

// Clicks a loader's button and returns what the Perfetto stand-in received through the handshake.
async function postToPerfetto(context, loader) {
  await waitFor('the trace', async () => !(await loader.locator('button').isDisabled()), 30000);
  const status = await loader.locator('.nsys-ai-status').textContent();
  assert(status.startsWith('Trace received'), `status: ${status}`);
  const [popup] = await Promise.all([context.waitForEvent('page'), loader.locator('button').click()]);
  await popup.waitForFunction(() => window.nsysResult, null, { timeout: 20000 });
  const got = await popup.evaluate(() => window.nsysResult);
  await waitFor('the open status', async () =>
    (await loader.locator('.nsys-ai-status').textContent()).includes('is open in Perfetto'));
  await popup.close();
  return got;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-jupyter-browser-'));
const token = randomBytes(24).toString('hex');
const port = await freePort();
const failures = path.join(here, 'failures');
let notebookServer;
let context;
let page;
let serverPid = null;
let log = '';
let staticHtml = '';
let env;
const started = Date.now();
try {
  execFileSync(python, [path.join(pkg, 'tests', 'make_notebook.py'), path.join(work, 'tour.ipynb'), fixtures]);
  const jupyterDirs = Object.fromEntries(['CONFIG', 'DATA', 'RUNTIME'].map((k) => [`JUPYTER_${k}_DIR`, path.join(work, k)]));
  env = { ...process.env, ...jupyterDirs, IPYTHONDIR: path.join(work, 'ipython'), NSYS_AI_BIN: binary,
                PYDEVD_DISABLE_FILE_VALIDATION: '1' };
  // The kernel runs $PYTHON (Debian's own kernel spec names /usr/bin/python3) and imports the package from the
  // environment under test (a venv it was installed into), else from the source tree.
  const spec = path.join(jupyterDirs.JUPYTER_DATA_DIR, 'kernels', 'python3');
  fs.mkdirSync(spec, { recursive: true });
  fs.writeFileSync(path.join(spec, 'kernel.json'), JSON.stringify({ argv: [python, '-m', 'ipykernel_launcher', '-f',
    '{connection_file}'], display_name: 'Python 3', language: 'python' }));
  try { execFileSync(python, ['-c', 'import nsys_ai'], { stdio: 'pipe', cwd: work }); } catch {
    env.PYTHONPATH = pkg + (env.PYTHONPATH ? path.delimiter + env.PYTHONPATH : '');
  }
  notebookServer = spawn(python, ['-m', 'notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`,
    '--port-retries=0', `--NotebookApp.token=${token}`, `--notebook-dir=${work}`, '--NotebookApp.open_browser=False',
    ...(process.getuid && process.getuid() === 0 ? ['--allow-root'] : [])],
    { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  notebookServer.stdout.on('data', (d) => { log += d; });
  notebookServer.stderr.on('data', (d) => { log += d; });
  const base = `http://127.0.0.1:${port}`;
  await waitFor('the notebook server', async () => {
    if (notebookServer.exitCode !== null) throw new Error(`the notebook server exited (${notebookServer.exitCode})`);
    try { return (await fetch(`${base}/api/status?token=${token}`)).ok; } catch { return false; }
  });

  const expected = { comm: exportSha(work), output: exportSha(work, 0.2, 0.6) };
  const topKernel = JSON.parse(execFileSync(binary, ['skill', 'run', 'top_kernels', h100, '--format', 'json']))
    .rows[0][8];

  context = await chromium.launchPersistentContext(path.join(work, 'chromium-profile'), {
    executablePath: chromiumPath, headless: true, viewport: { width: 1180, height: 1500 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Nothing leaves the machine: the Perfetto UI is the stand-in, every other non-loopback request is refused.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(PERFETTO + '/')) return route.fulfill({ status: 200, contentType: 'text/html', body: STAND_IN });
    if (url === STATIC + '/tour.html') return route.fulfill({ status: 200, contentType: 'text/html', body: staticHtml });
    if (url.startsWith(base + '/') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    return route.abort();
  });
  page = await context.newPage();
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${base}/notebooks/tour.ipynb?token=${token}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
    Jupyter.notebook.kernel.is_connected(), null, { timeout: 60000 });

  await runAllCells(page);
  serverPid = await page.evaluate(async () => {
    const cell = Jupyter.notebook.insert_cell_at_bottom('code');
    cell.set_text('print(nsys_ai.server().pid)');
    cell.execute();
    for (let n = 0; n < 300 && typeof cell.input_prompt_number !== 'number'; n++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    return Number(cell.output_area.outputs[0].text);
  });
  assert(serverPid > 0, 'no server pid');

  // The view shows the kernels: the top 10 rows, the largest first, by their full names.
  const view = page.locator('.nsys-ai-profile').first();
  const rows = await view.locator('tr.kernel').count();
  assert(rows === 10, `the view shows ${rows} kernel rows, not 10`);
  const firstKernel = await view.locator('tr.kernel').first().locator('td.s').textContent();
  assert(firstKernel === topKernel, `first kernel '${firstKernel}' is not the CLI's '${topKernel}'`);
  assert((await view.locator('.budget').count()) === 2, 'not one time budget per GPU');
  assert((await view.textContent()).includes('copy_htod 95.0%'), 'the budget legend lacks copy_htod 95.0%');
  if (screenshotOut) {
    await page.evaluate(() => { document.querySelector('#header').style.display = 'none'; window.scrollTo(0, 0); });
    const cell = page.locator('.cell').nth(1);
    await cell.screenshot({ path: screenshotOut });
    await page.evaluate(() => { document.querySelector('#header').style.display = ''; });
    console.log(`wrote ${screenshotOut}`);
  }

  // Both Perfetto cells: p.perfetto() ("auto": the view said hello, so the comm; the whole profile, 1.5 MB in two
  // comm messages) and p.perfetto(start=0.2, end=0.6, transport="output") (one chunk in the output).
  const loaders = page.locator('.nsys-ai-perfetto');
  assert((await loaders.count()) === 2, 'expected two Perfetto loaders');
  for (const [index, transport] of [[0, 'comm'], [1, 'output']]) {
    const loader = loaders.nth(index);
    assert((await loader.getAttribute('data-transport')) === transport, `loader ${index} is not ${transport}`);
    const got = await postToPerfetto(context, loader);
    const want = expected[transport];
    assert(got.sha256 === want.sha256, `${transport}: posted sha256 ${got.sha256} != export's ${want.sha256}`);
    assert(got.bytes === want.bytes, `${transport}: ${got.bytes} bytes != ${want.bytes}`);
    assert(got.origin === base, `${transport}: posted from ${got.origin}`);
    assert(got.href === PERFETTO + '/#!/', `${transport}: opened ${got.href}`);
    const title = transport === 'comm' ? 'h100_2gpu_1s.sqlite' : 'h100_2gpu_1s.sqlite [0.2, 0.6]';
    assert(got.title === title, `${transport}: title ${got.title}`);
    console.log(`ok: ${transport}: ${got.bytes} bytes posted to the Perfetto stand-in, sha256 ${got.sha256} = nsys-ai export's`);
  }
  // The comm cell's output holds no trace bytes (one output: the loader); the output cell holds them in chunks.
  const outputCounts = await page.evaluate(() => Jupyter.notebook.get_cells()
    .filter((c) => c.cell_type === 'code' && /perfetto\(/.test(c.get_text()))
    .map((c) => c.output_area.outputs.length));
  assert(outputCounts[0] === 1 && outputCounts[1] === 2 + Math.ceil(expected.output.bytes / 1048576),
    `output counts ${outputCounts}`);

  // The front end's messages are untrusted: a comm asking for a trace the kernel does not hold (an unknown id, an id
  // that is not a string, no object at all) gets one error reply, and the kernel goes on serving.
  const replies = await page.evaluate(async () => {
    const out = [];
    for (const data of [{ id: 'nsys-ai-trace-unknown' }, { id: 7 }, 'x', {}]) {
      out.push(await new Promise((resolve) => {
        const comm = Jupyter.notebook.kernel.comm_manager.new_comm('nsys_ai.trace', data);
        comm.on_msg((msg) => { resolve(msg.content.data); comm.close(); });
        setTimeout(() => resolve(null), 10000);
      }));
    }
    return out;
  });
  assert(replies.every((r) => r && typeof r.error === 'string' && r.error.includes('run the cell again')),
    `replies to bad comm requests: ${JSON.stringify(replies)}`);
  assert(consoleErrors.length === 0, `page errors: ${consoleErrors.join('; ')}`);
  console.log('ok: bad comm requests (unknown id, a number, no object) each got an error reply');

  // Pieces whose place or size does not fit the announced total, a total over the limit, a short trace: each stops
  // the loader with a message and the button stays disabled (perfetto.js never writes past what it allocated).
  const guards = await page.evaluate(async () => {
    const P = window.nsysAiPerfetto;
    const run = async (id, bytes, steps) => {
      const d = document.createElement('div');
      d.id = id;
      d.innerHTML = '<button disabled></button><span class="nsys-ai-status"></span>';
      document.body.appendChild(d);
      P.init({ id, origin: 'https://ui.perfetto.dev', title: 't', fileName: 'f', bytes, limit: 100, transport: 'output' });
      steps(P);
      await new Promise((r) => setTimeout(r, 50));
      return { status: d.querySelector('.nsys-ai-status').textContent, disabled: d.querySelector('button').disabled };
    };
    return [
      await run('guard-gap', 4, (P) => P.chunk('guard-gap', 2, btoa('ab'))),
      await run('guard-over', 4, (P) => P.chunk('guard-over', 0, btoa('abcdef'))),
      await run('guard-limit', 1000, () => {}),
      await run('guard-short', 4, (P) => { P.chunk('guard-short', 0, btoa('ab')); P.end('guard-short'); }),
    ];
  });
  const wanted = ['did not fit', 'did not fit', 'over the limit of 100 bytes', 'cut short (2 of 4 bytes)'];
  guards.forEach((g, i) => assert(g.disabled && g.status.includes(wanted[i]), `guard ${i}: ${JSON.stringify(g)}`));
  console.log('ok: misplaced, oversized, over-the-limit and short traces are refused with a message');

  // A front end with no comm (as JupyterLab and VS Code give output scripts): the saved notebook as nbconvert's
  // HTML. The comm cell says what to do; the output cell's chunks still reach Perfetto, byte for byte.
  await page.evaluate(() => Jupyter.notebook.save_notebook());
  execFileSync(python, ['-m', 'nbconvert', '--to', 'html', '--output', 'tour.html', 'tour.ipynb'],
    { cwd: work, stdio: 'pipe', env });
  staticHtml = fs.readFileSync(path.join(work, 'tour.html'), 'utf8');
  const viewer = await context.newPage();
  await viewer.goto(`${STATIC}/tour.html`);
  assert((await viewer.locator('.nsys-ai-profile tr.kernel').count()) === 10, 'static page: the view lacks its kernels');
  const staticLoaders = viewer.locator('.nsys-ai-perfetto');
  await waitFor('the comm loader to give up', async () =>
    (await staticLoaders.nth(0).locator('.nsys-ai-status').textContent()).includes('no Jupyter comm'));
  const viaOutput = await postToPerfetto(context, staticLoaders.nth(1));
  assert(viaOutput.sha256 === expected.output.sha256, `static page: sha256 ${viaOutput.sha256}`);
  assert(viaOutput.origin === STATIC, `static page: posted from ${viaOutput.origin}`);
  console.log(`ok: without a comm (nbconvert HTML), the output chunks posted sha256 ${viaOutput.sha256}; the comm cell says to use transport="output"`);
  await viewer.close();
  console.log(`ok: the view shows ${rows} kernels, the top one '${topKernel.slice(0, 40)}...'`);

  // Issue 38: a copy of the profile whose every name starts with HTML that runs script, a code-span break-out, a
  // javascript: link, a bare URL and escape sequences (make_notebook.py --hostile). Notebook 6 renders a running
  // session's Markdown as trusted HTML: every output (analyze, ask, explain, skill, diff) must show the names as text,
  // and no image may load and no alert() fire (the red team saw 10, 20 and 45).
  execFileSync(python, [path.join(pkg, 'tests', 'make_notebook.py'), '--hostile', path.join(work, 'hostile.ipynb'),
    fixtures, path.join(work, 'hostile.sqlite')]);
  const hostile = await context.newPage();
  const dialogs = [];
  hostile.on('dialog', (d) => {
    if (d.type() !== 'beforeunload') dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  hostile.on('pageerror', (e) => consoleErrors.push(String(e)));
  await hostile.goto(`${base}/notebooks/hostile.ipynb?token=${token}`);
  await hostile.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
    Jupyter.notebook.kernel.is_connected(), null, { timeout: 60000 });
  await runAllCells(hostile);
  await hostile.waitForTimeout(1500);  // an onerror handler fires as soon as its image fails to load
  const planted = await hostile.locator('#notebook img[src="x"], #notebook a[href^="javascript:"]').count();
  const shownText = (await hostile.locator('#notebook .output_area').allTextContents()).join('\n');
  assert(dialogs.length === 0, `the hostile names ran script: ${dialogs.join('; ')}`);
  assert(planted === 0, `${planted} planted images or javascript: links are in the outputs`);
  const asText = (shownText.match(/<img src=x onerror=alert\(1\)>/g) || []).length;
  assert(asText >= 5, `the hostile names show as text only ${asText} times`);
  assert(!/\x1b|\u202e/.test(shownText), 'an escape sequence or a bidi override reached the page as itself');
  console.log(`ok: a profile of hostile names through analyze, ask, explain, skill and diff: shown as text ${asText} times, no script ran, no image loaded`);
  await hostile.close();
} catch (error) {
  fs.mkdirSync(failures, { recursive: true });
  if (page) await page.screenshot({ path: path.join(failures, 'notebook.png'), fullPage: true }).catch(() => {});
  console.error(`FAIL: ${error.stack || error}\n(screenshot in ${failures}; notebook server log:)\n${log.slice(-3000)}`);
  process.exitCode = 1;
} finally {
  if (context) await context.close().catch(() => {});
  if (notebookServer && notebookServer.exitCode === null) {
    notebookServer.kill('SIGTERM');
    await waitFor('the notebook server to stop', async () => notebookServer.exitCode !== null ||
      notebookServer.signalCode !== null, 20000).catch(() => notebookServer.kill('SIGKILL'));
  }
  if (serverPid) {
    const gone = await waitFor('the nsys-ai server to exit', async () => processGone(serverPid), 10000)
      .catch(() => false);
    if (!gone) { console.error(`FAIL: nsys-ai server ${serverPid} outlived the notebook server`); process.exitCode = 1; }
    else console.log(`ok: the kernel's nsys-ai server (pid ${serverPid}) exited with the notebook server`);
  }
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`browser test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
