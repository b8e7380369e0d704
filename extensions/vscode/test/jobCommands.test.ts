// The job commands (Open Job, Analyze Job, Open Job Timeline in Perfetto) and the job view against the vscode
// stand-in, with the REAL server behind them, on a job made at test time (test/jobFixture.ts; figures in job.test.ts).
import * as stub from './vscodeStub'; // first: makes require('vscode') resolve to the stand-in
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { after, before, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { handleShowDocument, openInPerfetto } from '../src/perfetto';
import type { OpenInPerfettoResult, JobAnalysisResult } from '../src/protocol/types';
import { registerJobCommands } from '../src/jobCommands';
import { JobRegistry } from '../src/jobs';
import { JOB_VIEW_TYPE } from '../src/jobView';
import { jobFindingsHtml } from '../src/view/job';
import { RealServer, startServer } from './realServer';
import { CELLS, makeJobDir, removeJobDir, jobSkipReason } from './jobFixture';

const asUri = (p: string) => stub.Uri.file(p) as unknown as vscode.Uri;
const settle = () => new Promise((r) => setTimeout(r, 50));
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); await settle()) assert.ok(Date.now() < end, 'timed out waiting');
}

describe('the job commands on the vscode stand-in, real server behind them', { skip: jobSkipReason }, () => {
  let server: RealServer;
  let dir: string;
  let name: string;
  let jobs: JobRegistry;
  let panel: stub.FakePanel;

  before(async () => {
    dir = makeJobDir();
    name = path.basename(dir);
    server = await startServer();
    jobs = new JobRegistry();
    registerJobCommands({ client: async () => server.client, jobs });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
    removeJobDir(dir);
  });
  beforeEach(() => stub.reset());

  /** The params (without progress tokens) of each `method` request the client sent while fn ran, and fn's value. */
  async function onTheWire<T>(method: string, fn: () => Promise<T>): Promise<[Record<string, unknown>[], T]> {
    const send = server.conn.sendRequest;
    const sent: Record<string, unknown>[] = [];
    server.conn.sendRequest = ((m: string, params: Record<string, unknown>, ...rest: unknown[]) => {
      if (m === method) {
        const { workDoneToken: _w, partialResultToken: _p, ...own } = params;
        sent.push(own);
      }
      return (send as (...a: unknown[]) => Promise<unknown>).call(server.conn, m, params, ...rest);
    }) as typeof send;
    try {
      return [sent, await fn()];
    } finally {
      server.conn.sendRequest = send;
    }
  }
  // What the extension posted into the job view since the test began.
  const nodesPosted = () => panel.posted.filter((m) => (m as { type: string }).type === 'nodes').map((m) => (m as { text: string }).text);
  const findingsPosted = () => panel.posted.filter((m) => (m as { type: string }).type === 'findings').map((m) => (m as { html: string }).html);
  /** The sha256 of the trace nsys/exportJobTrace writes (into the server's cache) for these params. */
  async function exportedSha(params: object): Promise<string> {
    const { path: file, sha256: sha } = await server.conn.sendRequest<{ path: string; sha256: string }>('nsys/exportJobTrace', params);
    try {
      assert.equal(sha256(fs.readFileSync(file)), sha);
      return sha;
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  test('Open Job: the folder picked, then its view from the server: ranks, memory line, heat map', async () => {
    stub.settings.set('nsysAi.job.ranksPerNode', 4);
    stub.answers.open.push([asUri(dir)]);
    await stub.commands.executeCommand('nsysAi.openJob');
    panel = stub.record.panels.find((p) => p.viewType === JOB_VIEW_TYPE)!;
    assert.equal(panel.title, `Job · ${name}`);
    const html = panel.webview.html;
    assert.match(html, new RegExp(`${dir} · 2 ranks · <span id="nodes">ranks per node: 4</span>`), 'the setting, in the header');
    const row = (rank: string) => {
      const tr = new RegExp(`<tr [^>]*data-rank="${rank}"[^>]*>([\\s\\S]*?)</tr>`).exec(html)![1];
      return [...tr.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    };
    assert.deepEqual(row('rank0000'), ['rank0000', '1,993', '270.9 ms', '17.2 ms', '16.7 ms', '16', '']);
    assert.deepEqual(row('rank0001'), ['rank0001', '2,017', '264.3 ms', '8.2 ms', '16.7 ms', '16', '']);
    assert.match(html, /Memory: peak [\d.]+ MiB of a 4\.0 GiB budget · 2 rank loads · 0 evictions · 0 ranks over budget/);
    assert.equal((html.match(/<rect class="cell"/g) ?? []).length, 32, '2 ranks × 16 steps');
    for (const [rank, step, ns] of CELLS) assert.match(html, new RegExp(`data-rank="${rank}" data-step="${step}" data-ns="${ns}"`));
    // The colour scale's ends: the longest step (rank0001, step 6) and the shortest (rank0001, step 10).
    assert.match(html, /fill="#fde725" data-rank="rank0001" data-step="6" data-ns="22313699"/);
    assert.match(html, /fill="#440154" data-rank="rank0001" data-step="10" data-ns="16160980"/);
    assert.match(html, /Slowest against its step: <strong>rank0001<\/strong>, step 14: 19\.6 ms \(\+0\.1%\)/);
    assert.doesNotMatch(html, /style="/, 'no style attributes: the CSP admits only the nonce\'d <style>');
    const script = /<script nonce="[0-9a-f]+">([\s\S]*?)<\/script>/.exec(html)![1];
    assert.doesNotThrow(() => new vm.Script(script));
    const titles = stub.record.progress.map((p) => p.title);
    assert.deepEqual(titles, [`Opening the job ${name}`, `Reading the ranks of ${name}`]);
    for (const r of stub.record.progress[1].reports) assert.match(r.message ?? '', /^rank000[01] done \([12]\/2\)$/);
  });

  test('Open Job again on the same folder (a path argument) reveals its view without opening it again', async () => {
    await stub.commands.executeCommand('nsysAi.openJob', dir);
    assert.equal(stub.record.panels.length, 0);
    assert.equal(panel.reveals, 1);
    assert.deepEqual(stub.record.progress, []);
  });

  test('Analyze job from the view’s toolbar: the findings posted into the view', async () => {
    await panel.receive({ type: 'command', command: 'analyzeJob' });
    const [findings] = panel.posted.filter((m) => (m as { type: string }).type === 'findings') as { html: string }[];
    assert.match(findings.html, /<li class="finding low">/);
    assert.match(findings.html, /rank0001 is the last to start \d+ of 33 collectives/);
    assert.match(findings.html, /<code>job_stragglers<\/code>/, 'the finding’s Markdown, rendered');
    assert.deepEqual(stub.record.messages.map((m) => m.text), [`nsys-ai: 1 findings across the ranks of ${name}.`]);
    assert.deepEqual(stub.record.progress.map((p) => p.title), [`Analyzing the job ${name}`]);
  });

  // The profile's path (perfetto.ts): nsys/openInPerfetto {jobId}, then asExternalUri + openExternal on the opener
  // page (this server was not told of showDocument support); the page's trace is the one exportJobTrace writes.
  test('Open in Perfetto (toolbar, then command): the job’s trace published, its page opened, afresh each time', async () => {
    const { jobId } = await jobs.get(asUri(dir))!.current();
    await panel.receive({ type: 'command', command: 'openJobInPerfetto' });
    const result = (await stub.commands.executeCommand('nsysAi.openJobInPerfetto', asUri(dir))) as OpenInPerfettoResult;
    assert.deepEqual(stub.record.messages, [], 'no error, no message to load a file by hand');
    assert.deepEqual(stub.record.clipboard, []);
    assert.deepEqual(stub.record.progress.map((p) => p.title), Array(2).fill(`Preparing the timeline of ${name} for Perfetto`));
    const m = /^http:\/\/127\.0\.0\.1:(\d+)\/p\/([0-9a-f]{32})\/$/.exec(result.url);
    assert.ok(m, result.url);
    assert.deepEqual([result.port, result.token, result.showDocument], [Number(m[1]), m[2], false]);
    // Each open asked for its forward afresh, and the browser got the forwarded (local) authority of that page.
    assert.equal(stub.record.asExternalUri.length, 2);
    const origin = `${new URL(result.url).origin}/`;
    assert.deepEqual(stub.record.asExternalUri, [origin, origin], 'the origin only, resolved for each open');
    assert.equal(stub.record.openExternal.length, 2);
    assert.equal(new URL(stub.record.openExternal[1]).pathname, new URL(result.url).pathname);
    assert.notEqual(new URL(stub.record.openExternal[0]).pathname, new URL(result.url).pathname, 'each open is a fresh link');
    const pages = stub.record.openExternal.map((o) => new URL(new URL(o).pathname, origin).toString());
    for (const o of stub.record.openExternal) assert.equal(new URL(o).hostname, 'localhost');
    // Both pages serve the job's trace: exportJobTrace's bytes for the same job.
    const exported = await server.client.exportJobTrace(jobId, undefined);
    try {
      const file = fs.readFileSync(exported.path);
      assert.equal(sha256(file), exported.sha256);
      for (const page of pages) {
        const res = await fetch(`${page}trace.pftrace`);
        assert.equal(res.status, 200);
        assert.equal(sha256(Buffer.from(await res.arrayBuffer())), exported.sha256, page);
      }
      assert.equal(result.sha256, exported.sha256);
      assert.equal(result.bytes, file.length);
    } finally {
      fs.rmSync(exported.path, { force: true });
    }
  });

  test('with window/showDocument, the server opens the job’s page and the command does not open it again', async () => {
    const other = await startServer({}, { window: { showDocument: { support: true } } });
    try {
      const shown: string[] = [];
      other.conn.onRequest('window/showDocument', (params: { uri: string; external?: boolean }) => {
        shown.push(params.uri);
        return handleShowDocument(params, async () => ({ success: false }));
      });
      const { jobId } = await other.client.openJob(dir);
      const result = await openInPerfetto(other.client, { jobId });
      assert.equal(result.showDocument, true);
      await waitFor(() => stub.record.openExternal.length >= 1);
      await settle();
      assert.deepEqual(shown, [result.url]);
      assert.deepEqual(stub.record.asExternalUri, [`${new URL(result.url).origin}/`], 'opened once, by the server’s request');
      assert.equal(stub.record.openExternal.length, 1);
      const res = await fetch(result.traceUrl);
      assert.equal(sha256(Buffer.from(await res.arrayBuffer())), result.sha256);
    } finally {
      assert.equal(await other.stop(), 0);
    }
  });

  // nsysAi.job.ranksPerNode reaches the server: on this job 2 ranks on one node share a clock, so rank0001 leads fewer
  // collectives than with a clock per rank, and the findings are those the server gives the same request.
  test('Analyze Job with the setting at 2 sends ranksPerNode 2; the view shows the server’s findings for it', async () => {
    panel.posted.length = 0;
    stub.settings.set('nsysAi.job.ranksPerNode', 2);
    const { jobId } = await jobs.get(asUri(dir))!.current();
    const [sent] = await onTheWire('nsys/analyzeJob', () => stub.commands.executeCommand('nsysAi.analyzeJob', asUri(dir)));
    assert.deepEqual(sent, [{ jobId, ranksPerNode: 2 }]);
    const direct = await server.conn.sendRequest<JobAnalysisResult>('nsys/analyzeJob', { jobId, ranksPerNode: 2 });
    const eachOwn = await server.conn.sendRequest<JobAnalysisResult>('nsys/analyzeJob', { jobId });
    assert.notEqual(direct.findings[0].title, eachOwn.findings[0].title, 'the value changes the answer on this job');
    assert.deepEqual(findingsPosted(), [jobFindingsHtml(direct)]);
    assert.deepEqual(nodesPosted(), ['ranks per node: 2'], 'the header says the value used');
    assert.deepEqual(stub.record.messages.map((m) => m.text), [`nsys-ai: ${direct.findings.length} findings across the ranks of ${name}.`]);
  });

  test('Set Ranks per Node for Job: the job’s own value beats the setting; Open in Perfetto publishes the trace for it', async () => {
    panel.posted.length = 0;
    const { jobId } = await jobs.get(asUri(dir))!.current();
    stub.answers.input.push('2');
    assert.equal(await stub.commands.executeCommand('nsysAi.setJobRanksPerNode', asUri(dir)), 2, 'the setting is 0');
    const [sent, result] = await onTheWire('nsys/openInPerfetto', async () =>
      (await stub.commands.executeCommand('nsysAi.openJobInPerfetto', asUri(dir))) as OpenInPerfettoResult,
    );
    assert.deepEqual(sent, [{ jobId, ranksPerNode: 2 }]);
    assert.deepEqual(nodesPosted(), ['ranks per node: 2', 'ranks per node: 2']);
    const served = sha256(Buffer.from(await (await fetch(result.traceUrl)).arrayBuffer()));
    assert.equal(served, result.sha256);
    assert.equal(result.sha256, await exportedSha({ jobId, ranksPerNode: 2 }), 'exportJobTrace’s trace for 2 ranks per node');
    assert.notEqual(result.sha256, await exportedSha({ jobId }), 'not the trace of a clock per rank');
    assert.equal(stub.record.openExternal.length, 1);
  });

  test('a job’s own 0 sends no ranksPerNode whatever the setting; empty goes back to the setting; -1 is not taken', async () => {
    panel.posted.length = 0;
    stub.settings.set('nsysAi.job.ranksPerNode', 2);
    const { jobId } = await jobs.get(asUri(dir))!.current();
    stub.answers.input.push('0', '-1', '');
    assert.equal(await stub.commands.executeCommand('nsysAi.setJobRanksPerNode', asUri(dir)), 0);
    const [sent] = await onTheWire('nsys/analyzeJob', () => stub.commands.executeCommand('nsysAi.analyzeJob', asUri(dir)));
    assert.deepEqual(sent, [{ jobId }]);
    assert.deepEqual(findingsPosted(), [jobFindingsHtml(await server.client.analyzeJob(jobId))]);
    assert.equal(await stub.commands.executeCommand('nsysAi.setJobRanksPerNode', asUri(dir)), undefined, '-1 refused');
    assert.equal(await stub.commands.executeCommand('nsysAi.setJobRanksPerNode', asUri(dir)), 2, 'the setting again');
    assert.deepEqual(stub.record.inputs.map((i) => i.validation[0]), [undefined, 'A whole number, 0 or more (empty: the setting).', undefined]);
    assert.deepEqual(nodesPosted(), ['each rank its own node', 'each rank its own node', 'ranks per node: 2']);
  });

  // settings.json takes any number whatever the schema's minimum: a negative one is refused here, never sent.
  test('a negative setting is refused with a message and nothing is sent; a settings change shows in the header', async () => {
    panel.posted.length = 0;
    stub.settings.set('nsysAi.job.ranksPerNode', -1);
    const [analyzed] = await onTheWire('nsys/analyzeJob', () => stub.commands.executeCommand('nsysAi.analyzeJob', asUri(dir)));
    const [published] = await onTheWire('nsys/openInPerfetto', () => stub.commands.executeCommand('nsysAi.openJobInPerfetto', asUri(dir)));
    assert.deepEqual([analyzed, published], [[], []]);
    const refusal = 'The setting nsysAi.job.ranksPerNode must be a whole number, 0 or more (it is -1).';
    assert.deepEqual(stub.record.messages.map((m) => [m.level, m.text]), [['error', refusal], ['error', refusal]]);
    assert.deepEqual([stub.record.progress, stub.record.openExternal, findingsPosted()], [[], [], []]);
    const change = (key: string) => stub.configChanges.fire({ affectsConfiguration: (s: string) => key.startsWith(s) });
    change('nsysAi.job.ranksPerNode');
    assert.equal(stub.record.messages.length, 3, 'shown once more, when changed');
    stub.settings.set('nsysAi.job.ranksPerNode', 8);
    change('nsysAi.serverPath');
    change('nsysAi.job.ranksPerNode');
    assert.deepEqual(nodesPosted(), ['ranks per node: 8']);
  });

  // A job was called a run: the former ids (registered, not contributed) run the same commands, and the former
  // setting is read while the new one is not set anywhere.
  test('the former ids run the job commands; nsysAi.run.ranksPerNode is read while nsysAi.job.ranksPerNode is not set', async () => {
    panel.posted.length = 0;
    const change = (key: string) => stub.configChanges.fire({ affectsConfiguration: (s: string) => key.startsWith(s) });
    const { jobId } = await jobs.get(asUri(dir))!.current();
    stub.settings.set('nsysAi.run.ranksPerNode', 2);
    const [sent] = await onTheWire('nsys/analyzeJob', () => stub.commands.executeCommand('nsysAi.analyzeRun', asUri(dir)));
    assert.deepEqual(sent, [{ jobId, ranksPerNode: 2 }], 'Analyze Job, with the former setting');
    assert.equal(findingsPosted().length, 1);
    assert.deepEqual(stub.record.progress.map((p) => p.title), [`Analyzing the job ${name}`]);
    stub.settings.set('nsysAi.job.ranksPerNode', 0);
    const [again] = await onTheWire('nsys/analyzeJob', () => stub.commands.executeCommand('nsysAi.analyzeJob', asUri(dir)));
    assert.deepEqual(again, [{ jobId }], 'the new setting, once set (even to 0), wins');
    stub.answers.input.push('1', '');
    assert.equal(await stub.commands.executeCommand('nsysAi.setRunRanksPerNode', asUri(dir)), 1, 'the job’s own value');
    const [published] = await onTheWire('nsys/openInPerfetto', () => stub.commands.executeCommand('nsysAi.openRunInPerfetto', asUri(dir)));
    assert.deepEqual(published, [{ jobId, ranksPerNode: 1 }]);
    assert.equal(stub.record.openExternal.length, 1);
    assert.equal(await stub.commands.executeCommand('nsysAi.setRunRanksPerNode', asUri(dir)), 0, 'empty: the setting again');
    stub.settings.delete('nsysAi.job.ranksPerNode');
    stub.settings.set('nsysAi.run.ranksPerNode', 5);
    change('nsysAi.run.ranksPerNode');
    assert.deepEqual(nodesPosted(), ['ranks per node: 2', 'each rank its own node', 'ranks per node: 1', 'ranks per node: 1', 'each rank its own node', 'ranks per node: 5']);
    const reveals = panel.reveals;
    await stub.commands.executeCommand('nsysAi.openRun', dir);
    assert.deepEqual([stub.record.panels.length, panel.reveals], [0, reveals + 1], 'Open Job on the open folder: its view');
    assert.equal(stub.record.messages.filter((m) => m.level === 'error').length, 0);
  });

  test('closing the view closes the job on the server', async () => {
    const { jobId } = await jobs.get(asUri(dir))!.current();
    panel.dispose();
    await settle();
    assert.deepEqual(jobs.all(), []);
    await assert.rejects(server.client.jobReport(jobId), (err: { code?: number }) => err.code === -32602);
  });

  test('with no job open, the job commands say how to open one', async () => {
    await stub.commands.executeCommand('nsysAi.analyzeJob');
    assert.deepEqual(stub.record.messages.map((m) => m.text), ['Open a job first (nsys-ai: Open Job).']);
  });

  test('a directory without rank exports shows the server’s error in the view', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-empty-job-'));
    try {
      await stub.commands.executeCommand('nsysAi.openJob', asUri(empty));
      const view = stub.record.panels.find((p) => p.viewType === JOB_VIEW_TYPE)!;
      assert.match(view.webview.html, /Could not open the job/);
      assert.match(view.webview.html, new RegExp(path.basename(empty)));
      view.dispose();
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
