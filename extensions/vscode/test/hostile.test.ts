// Issue 38: a profile whose every name is hostile, through every Markdown the REAL server writes (explain, ask, analyze,
// diff, the source hover's kernel table is the same cell code) and the CLI's terminal output. The copy is derived at
// test time with Python's sqlite3 (tests/hostile_export.py): every StringIds value
// starts with HTML that runs script, a code-span break-out, a javascript: link, a bare URL and escape sequences.
// The Markdown is rendered by markdown-it with HTML on and bare URLs linked, as a notebook's renderer allows (the
// extension's own view turns HTML off): no element may come from a name, and every name must show as its text.
import { execFileSync, spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import type { OpenProfileResult } from '../src/protocol/types';
import { fixturesDir, h100, RealServer, serverBinary, skipReason, startServer } from './realServer';

const repoDir = path.resolve(__dirname, '..', '..', '..', '..');
const hostileExport = path.join(repoDir, 'tests', 'hostile_export.py');
const HOSTILE_IMG = '<img src=x onerror=alert(1)>';
// A real export whose findings name what they found (a synchronizing call after every kernel): analyze's Markdown then
// holds names in its titles, summaries, tables and recommendations.
const llama = path.join(fixturesDir, 'realworld', 'rtx4060ti_pytorch_llama_infer_sim.sqlite');
const permissive = new MarkdownIt({ html: true, linkify: true });

// What a rendering must not hold when it came from hostile names: an image, a javascript: or e.vil link, raw
// controls. And what it must hold: the names as text (the first image tag, escaped once by the renderer).
function assertInert(what: string, markdown: string, minimumShown = 1): void {
  const html = permissive.render(markdown);
  assert.doesNotMatch(html, /<img/i, `${what}: an <img> element came through:\n${html.slice(0, 3000)}`);
  assert.doesNotMatch(html, /<a [^>]*href="(javascript:|http:\/\/e\.vil)/i, `${what}: a link came through`);
  assert.doesNotMatch(html, /[\u001b\u202e]/, `${what}: a control or a bidi override came through as itself`);
  const shown = html.split('&lt;img src=x onerror=alert(1)&gt;').length - 1;
  assert.ok(shown >= minimumShown, `${what}: the hostile name shows ${shown} times as text`);
}

describe('hostile names through the real server’s Markdown', { skip: skipReason }, () => {
  let server: RealServer;
  let hostile: OpenProfileResult;
  let plain: OpenProfileResult;
  let findings: OpenProfileResult;
  let dir: string;
  let copy: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-hostile-'));
    copy = path.join(dir, 'hostile.sqlite');
    execFileSync('python3', [hostileExport, h100, copy]);
    execFileSync('python3', [hostileExport, llama, path.join(dir, 'llama.sqlite')]);
    server = await startServer({ provider: 'none' });
    hostile = await server.client.openProfile(copy);
    plain = await server.client.openProfile(h100);
    findings = await server.client.openProfile(path.join(dir, 'llama.sqlite'));
  });
  after(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('explainKernel', async () => {
    const r = await server.client.explainKernel(hostile.profileId, `${HOSTILE_IMG}\`${'<img src=x onerror=alert(2)>'}\``
      + '[c](javascript:alert(3)) http://e.vil/ \u001b]0;t\u0007\u202evectorized_elementwise_kernel');
    assert.ok('markdown' in r, JSON.stringify(r).slice(0, 300));
    assertInert('explainKernel', (r as { markdown: string }).markdown);
  });

  test('ask: typed questions and the overview', async () => {
    for (const question of ['which kernel takes the most GPU time?', 'top 5 kernels by total time',
      'how long did the launch calls take?', 'which NVTX range has the most kernel time?']) {
      const r = (await server.conn.sendRequest('nsys/ask', { profileId: hostile.profileId, question })) as {
        answer: { markdown: string };
      };
      assertInert(`ask "${question}"`, r.answer.markdown, 0);
    }
    const top = (await server.conn.sendRequest('nsys/ask', {
      profileId: hostile.profileId, question: 'which kernel takes the most GPU time?',
    })) as { answer: { markdown: string } };
    assertInert('ask (the top kernel)', top.answer.markdown);
  });

  test('analyze', async () => {
    const r = await server.client.analyze(findings.profileId);
    assertInert('analyze', (r as unknown as { markdown: string }).markdown, 3);
  });

  test('diff', async () => {
    const r = await server.client.diff(plain.profileId, hostile.profileId);
    assertInert('diff', (r as unknown as { markdown: string }).markdown);
  });

  test('the CLI writes no control character to the terminal', () => {
    const kernel = execFileSync('python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(path.dirname(hostileExport))}); ` +
      'import hostile_export; sys.stdout.write(hostile_export.HOSTILE)'], { encoding: 'utf8' }) + 'vectorized_elementwise_kernel';
    for (const args of [['skill', 'run', 'top_kernels', copy], ['explain', copy, kernel], ['explain', copy, 'elementwise'],
      ['ask', copy, 'which kernel takes the most GPU time?']]) {
      const run = spawnSync(serverBinary, args, { encoding: 'utf8' });
      const out = `${run.stdout}${run.stderr}`;
      // The table cuts a long name to its end; every command shows the escape sequence and the override as escapes
      // (the second explain fails with an error that lists the names it matched).
      // (Markdown output writes the escape's backslash twice, so that it shows once.)
      assert.match(out, /\\+x1b\]0;t\\+x07\\+u202e/, `${args.join(' ')}: the names are not shown:\n${out.slice(0, 500)}`);
      assert.doesNotMatch(out, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
        `${args.join(' ')}: a control character reached the terminal`);
    }
  });
});
