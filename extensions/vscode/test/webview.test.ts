// The profile view's own script in real headless Chromium, on the real server's data: keyboard navigation, the
// kernel hover (asked on focus, shown from the extension's answer, hidden by Escape), the toolbar's Alt+key
// commands, a table posted after the page (its rows hover like the first ones), and the plain tooltip when the
// server cannot explain kernels. A probe script (with the page's nonce, so the CSP admits it) plays the extension's
// side and writes what it saw into the DOM that --dump-dom prints.
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { skipReason } from './realServer';
import { CHROMIUM_FLAGS, findChromium, profileViewHtml } from './screenshot';

const NONCE = 'probe0123456789';

// Runs before the view's script: a stand-in for acquireVsCodeApi that records what the view posts.
const BEFORE = `window.posted = []; window.acquireVsCodeApi = function () { return { postMessage: function (m) { window.posted.push(m); } }; };`;

// Runs after it, on load: drives the page and records each observation.
const AFTER = `window.addEventListener('load', function () {
  const out = {}, rows = document.querySelectorAll('tr.kernel'), hover = document.getElementById('hover');
  const key = function (el, k, alt) { el.dispatchEvent(new KeyboardEvent('keydown', { key: k, altKey: !!alt, bubbles: true })); };
  rows[0].focus();
  key(rows[0], 'ArrowDown');
  out.afterArrowDown = Array.prototype.indexOf.call(rows, document.activeElement);
  key(document.activeElement, 'End');
  out.afterEnd = Array.prototype.indexOf.call(rows, document.activeElement) === rows.length - 1;
  key(document.activeElement, 'Home');
  out.afterHome = Array.prototype.indexOf.call(rows, document.activeElement);
  setTimeout(function () {
    out.asked = window.posted.filter(function (m) { return m.type === 'explainKernel'; }).map(function (m) { return m.kernel; });
    out.hoverWhileAsking = !hover.hidden;
    window.postMessage({ type: 'kernelExplanation', kernel: rows[0].dataset.kernel, html: '<p id="expl">A GEMM.</p>' }, '*');
    setTimeout(function () {
      out.shown = !hover.hidden && !!document.getElementById('expl');
      key(document.activeElement, 'Escape');
      out.hiddenByEscape = hover.hidden;
      key(document.body, 'p', true);
      out.commands = window.posted.filter(function (m) { return m.type === 'command'; }).map(function (m) { return m.command; });
      out.ready = window.posted.some(function (m) { return m.type === 'ready'; });
      // A table that arrives after the page: posted into it, and its rows explain themselves on hover too.
      window.postMessage({ type: 'section', id: 'kernels', html: '<table><tbody><tr class="row kernel" tabindex="0" data-kernel="late_kernel"><td>late</td></tr></tbody></table>' }, '*');
      setTimeout(function () {
        const late = document.querySelector('#kernels-body tr.kernel');
        out.lateRows = document.querySelectorAll('tr.kernel').length;
        late.firstElementChild.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: document.body }));
        setTimeout(function () {
          out.askedLate = window.posted.some(function (m) { return m.type === 'explainKernel' && m.kernel === 'late_kernel'; });
          window.postMessage({ type: 'kernelExplanation', kernel: 'x', unsupported: true }, '*');
          setTimeout(function () {
            out.titleWhenUnsupported = late.title === 'late_kernel';
            const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
            document.body.appendChild(pre);
          }, 50);
        }, 600);
      }, 50);
    }, 50);
  }, 600);
});`;

test(
  'the view’s script: keyboard, kernel hover, commands (headless Chromium)',
  { skip: skipReason ?? (findChromium() ? undefined : 'chromium is not installed'), timeout: 180_000 },
  async () => {
    const html = (await profileViewHtml(NONCE))
      .replace('</head>', `<script nonce="${NONCE}">${BEFORE}</script></head>`)
      .replace('</body>', `<script nonce="${NONCE}">${AFTER}</script></body>`);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-webview-'));
    try {
      fs.writeFileSync(path.join(work, 'view.html'), html);
      const dom = execFileSync(
        findChromium()!,
        [
          ...CHROMIUM_FLAGS,
          `--user-data-dir=${path.join(work, 'profile')}`,
          '--virtual-time-budget=5000',
          '--dump-dom',
          `file://${path.join(work, 'view.html')}`,
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
      );
      const m = /<pre id="probe">([^<]*)<\/pre>/.exec(dom);
      assert.ok(m, 'the probe ran and wrote its observations');
      const seen = JSON.parse(m[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
      assert.equal(seen.afterArrowDown, 1, 'ArrowDown moves to the next kernel row');
      assert.equal(seen.afterEnd, true, 'End moves to the last row');
      assert.equal(seen.afterHome, 0, 'Home moves to the first row');
      assert.equal(seen.asked.length, 1, 'the focused kernel is asked about once (after the short delay)');
      assert.match(seen.asked[0], /^sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8/);
      assert.equal(seen.hoverWhileAsking, true);
      assert.equal(seen.shown, true, 'the explanation the extension sent is shown');
      assert.equal(seen.hiddenByEscape, true);
      assert.deepEqual(seen.commands, ['openInPerfetto'], 'Alt+P is Open in Perfetto');
      assert.equal(seen.ready, true);
      assert.equal(seen.lateRows, 1, 'the posted table replaced the kernels’ table');
      assert.equal(seen.askedLate, true, 'a row of a table posted later is explained on hover');
      assert.equal(seen.titleWhenUnsupported, true);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  },
);
