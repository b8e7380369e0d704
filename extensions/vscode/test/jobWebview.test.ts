// The job view in real headless Chromium, on the real server's answers for a job made at test time: the heat map's
// cells laid out as ranks × steps beside their rank labels, coloured by step time, with their figures; the toolbar's
// commands; the findings the extension posts. A probe script (with the page's nonce, so the CSP admits it) plays
// the extension's side and writes what it saw into the DOM that --dump-dom prints.
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { CELLS, jobSkipReason, jobViewHtml } from './jobFixture';
import { CHROMIUM_FLAGS, DARK_MODERN, findChromium } from './screenshot';

const NONCE = 'probe0123456789';

const BEFORE = `window.posted = []; window.acquireVsCodeApi = function () { return { postMessage: function (m) { window.posted.push(m); } }; };`;

const AFTER = `window.addEventListener('load', function () {
  const out = {};
  const box = function (el) { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round); };
  out.cells = Array.prototype.map.call(document.querySelectorAll('rect.cell'), function (c) {
    return { rank: c.dataset.rank, step: Number(c.dataset.step), ns: Number(c.dataset.ns), box: box(c),
      fill: getComputedStyle(c).fill, title: c.querySelector('title').textContent };
  });
  out.labels = Array.prototype.map.call(document.querySelectorAll('.ranks span'), function (s) { return [s.textContent, box(s)]; });
  out.plot = box(document.querySelector('svg.heatmap'));
  const row = document.querySelector('tr.row');
  row.focus();
  row.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
  out.focused = document.activeElement.dataset.rank;
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', altKey: true, bubbles: true }));
  document.querySelector('button[data-command="openJobInPerfetto"]').click();
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'n', altKey: true, bubbles: true }));
  out.nodes = [document.getElementById('nodes').textContent];
  out.commands = window.posted.filter(function (m) { return m.type === 'command'; }).map(function (m) { return m.command; });
  out.ready = window.posted.some(function (m) { return m.type === 'ready'; });
  window.postMessage({ type: 'findings', html: '<p id="posted-finding">rank0001 straggles</p>' }, '*');
  window.postMessage({ type: 'nodes', text: 'ranks per node: 2' }, '*');
  setTimeout(function () {
    out.nodes.push(document.getElementById('nodes').textContent);
    out.findings = !!document.querySelector('#findings-body #posted-finding');
    const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }, 50);
});`;

function dumpDom(html: string): Record<string, never> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-jobview-'));
  try {
    fs.writeFileSync(path.join(work, 'view.html'), html);
    const dom = execFileSync(
      findChromium()!,
      [...CHROMIUM_FLAGS, `--user-data-dir=${path.join(work, 'profile')}`, '--window-size=1200,900', '--virtual-time-budget=5000', '--dump-dom', `file://${path.join(work, 'view.html')}`],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
    );
    const m = /<pre id="probe">([^<]*)<\/pre>/.exec(dom);
    assert.ok(m, 'the probe ran and wrote its observations');
    return JSON.parse(m[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

type Cell = { rank: string; step: number; ns: number; box: number[]; fill: string; title: string };

test(
  'the job view’s heat map, toolbar and findings (headless Chromium)',
  { skip: jobSkipReason ?? (findChromium() ? undefined : 'chromium is not installed'), timeout: 180_000 },
  async () => {
    const html = (await jobViewHtml(NONCE, DARK_MODERN))
      .replace('</head>', `<script nonce="${NONCE}">${BEFORE}</script></head>`)
      .replace('</body>', `<script nonce="${NONCE}">${AFTER}</script></body>`);
    const seen = dumpDom(html) as unknown as { cells: Cell[]; labels: [string, number[]][]; plot: number[]; [k: string]: unknown };
    assert.equal(seen.cells.length, 32);
    const at = (rank: string, step: number) => seen.cells.find((c) => c.rank === rank && c.step === step)!;
    for (const [rank, step, ns] of CELLS) assert.equal(at(rank, step).ns, ns);
    // Layout: one row per rank (22 px, beside its label), one column per step, left to right, filling the plot.
    assert.deepEqual(seen.labels.map((l) => l[0]), ['rank0000', 'rank0001']);
    const [left, top, width] = seen.plot;
    for (const c of seen.cells) {
      const row = c.rank === 'rank0000' ? 0 : 1;
      assert.ok(Math.abs(c.box[1] - (top + 1 + 22 * row)) <= 1, `${c.rank} ${c.step} top ${c.box[1]}`);
      assert.ok(Math.abs(c.box[3] - 22) <= 1, 'row height');
      assert.ok(Math.abs(c.box[0] - (left + 1 + ((width - 2) * c.step) / 16)) <= 1, `${c.rank} ${c.step} left ${c.box[0]}`);
      assert.ok(Math.abs(seen.labels[row][1][1] - c.box[1]) <= 1, 'the rank label is level with its row');
    }
    // Colour: step time from the shortest (rank0001 step 10) to the longest (rank0001 step 6) on viridis.
    assert.equal(at('rank0001', 6).fill, 'rgb(253, 231, 37)');
    assert.equal(at('rank0001', 10).fill, 'rgb(68, 1, 84)');
    assert.notEqual(at('rank0000', 14).fill, at('rank0000', 0).fill);
    assert.equal(at('rank0001', 14).title, "rank0001 · step 14: 19.6 ms, +0.1% vs the step's median, GPU busy 17.1 ms");
    assert.equal(seen.focused, 'rank0001', 'ArrowDown moves to the next rank');
    assert.deepEqual(seen.commands, ['analyzeJob', 'openJobInPerfetto', 'setJobRanksPerNode'], 'Alt+A, the Perfetto button, Alt+N');
    assert.deepEqual(seen.nodes, ['each rank its own node', 'ranks per node: 2'], 'the header, then as the extension posts it');
    assert.equal(seen.ready, true);
    assert.equal(seen.findings, true, 'posted findings land in the findings section');
  },
);
