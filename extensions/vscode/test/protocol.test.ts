// The extension's protocol client against the REAL server binary, on the shared H100 fixture. Expected numbers were
// checked independently: sqlite3 over the export (see each test) and `nsys-ai info`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource } from 'vscode-jsonrpc';
import { errorCode, isCancelled, NsysClient, Unsupported } from '../src/protocol/client';
import type { OpenProfileResult, WorkDoneProgressValue } from '../src/protocol/types';
import { findingsHtml } from '../src/view/html';
import { loadFindings, loadProfileView } from '../src/view/model';
import { h100, RealServer, skipReason, startServer } from './realServer';

describe('protocol client against the real nsys-ai server', { skip: skipReason }, () => {
  let server: RealServer;
  let opened: OpenProfileResult;

  before(async () => {
    // Trimmed and pruned by the client: llm {provider: "none"} (the server refuses a provider without a model, or an
    // apiKeyEnv its environment does not have), so nsys/ask stays offline.
    server = await startServer({ provider: ' none ', model: '', apiKeyEnv: ' ' });
  });
  after(async () => {
    const code = await server.stop();
    assert.equal(code, 0, 'the server exits 0 after shutdown + exit');
  });

  test('openProfile reports progress and the fixture facts', async () => {
    const progress: WorkDoneProgressValue[] = [];
    opened = await server.client.openProfile(h100, { onProgress: (v) => progress.push(v) });
    assert.match(opened.profileId, /^p\d+$/);
    // sqlite3: SELECT min(start), max(end) over the event tables; nsys-ai info says 0.969448 s.
    assert.equal(opened.info.durationNs, 969447605);
    assert.equal(opened.info.startNs, 155357525002);
    assert.deepEqual(
      opened.info.devices.map((d) => d.id),
      [0, 1],
    );
    assert.equal(progress[0]?.kind, 'begin');
    assert.equal(progress.at(-1)?.kind, 'end');
  });

  test('the view model carries the skills’ real numbers', async () => {
    const model = await loadProfileView(server.client, opened);
    // sqlite3 (CUPTI_ACTIVITY_KIND_KERNEL joined to StringIds on demangledName, grouped, ordered by sum(end-start)):
    // the top kernel is the sm80_xmma gemm with 248 instances and 31121662 ns.
    const top = model.kernels.rows[0];
    assert.match(top.name, /^sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8/);
    assert.equal(top.instances, 248);
    assert.equal(top.totalNs, 31121662);
    assert.equal(top.pct, 69.4);
    assert.equal(model.kernels.rows.length, 12);
    // gpu_utilization view=chunks: 100 chunks per (process, device); pids 111 and 112 on devices 0 and 1.
    assert.deepEqual(
      model.utilisation.rows.map((s) => [s.label, s.pid, s.chunks.length]),
      [
        ['GPU 0', 111, 100],
        ['GPU 1', 112, 100],
      ],
    );
    assert.equal(model.utilisation.rows[0].chunks[0].startNs, 0, 'device 0 starts at the profile start');
    // time_budget: one span per (process, device); its slices add up to the span; the sample is
    // host-to-device copies for 95% of each span (25.5 GB at 27.7 GB/s per GPU).
    assert.deepEqual(
      model.budget.rows.map((s) => [s.label, s.pid]),
      [
        ['GPU 0', 111],
        ['GPU 1', 112],
      ],
    );
    for (const s of model.budget.rows) {
      assert.equal(s.slices.reduce((sum, x) => sum + x.timeNs, 0), s.spanNs, 'the slices add up to the span');
      const htod = s.slices.find((x) => x.slice === 'copy_htod')!;
      assert.ok(htod.pct > 94 && htod.pct < 96, `copy_htod ${htod.pct}%`);
      assert.equal(htod.kind, 'copy');
    }
    for (const s of model.utilisation.rows) for (const c of s.chunks) assert.ok(c.busyPct >= 0 && c.busyPct <= 100);
    assert.ok(model.nvtx.rows.length > 0 && model.nvtx.rows.length <= 12);
    assert.ok(model.nvtx.rows.every((r) => r.range.length > 0 && r.instances > 0));
    // This build has no nsys/analyze yet (other helpers add it): the findings section is hidden, not an error.
    if (!server.client.supports('nsys/analyze')) assert.equal(model.findings, undefined);
  });

  test('the agent methods answer (or, from an older server, come back as Unsupported, not errors)', async () => {
    // A client that has not seen the initialize result asks; an older server's -32601 hides the feature from then on.
    const fresh = new NsysClient(server.conn);
    const findings = await fresh.analyze(opened.profileId);
    if (findings instanceof Unsupported) assert.equal(fresh.supports('nsys/analyze'), false);
    else assert.ok(Array.isArray(findings.findings));
    const explained = await server.client.explainKernel(opened.profileId, 'softmax_warp_forward');
    const asked = await server.client.ask(opened.profileId, 'why?', () => {});
    if (explained instanceof Unsupported) assert.equal(server.client.supports('nsys/explainKernel'), false);
    else assert.match(explained.markdown, /softmax_warp_forward/);
    if (asked instanceof Unsupported) assert.equal(asked.method, 'nsys/ask');
    else assert.equal(typeof asked.answer.markdown, 'string');
  });

  test('the view leads its findings with analyze’s headline, the one the CLI and Neovim show', async () => {
    const section = await loadFindings(server.client, opened.profileId);
    assert.ok(section && !section.error, section?.error);
    // `nsys-ai analyze examples/h100_2gpu_1s.sqlite`: the budget's dominant part first, then what did the work.
    assert.match(section.headline ?? '', /^HtoD copies 95\.0% of the GPU span; also compute kernels 2\.3%/);
    assert.match(section.headline ?? '', /2 processes on 2 GPUs/);
    assert.equal(section.rows[0]?.rootCause, 'copy_bound');
    const html = findingsHtml(section);
    assert.ok(html.startsWith('<p class="headline">HtoD copies 95.0% of the GPU span'), html.slice(0, 120));
    assert.ok(html.indexOf('class="headline"') < html.indexOf('<ol class="findings">'));
  });

  test('a raw unknown method is -32601, and the client remembers it', async () => {
    await assert.rejects(server.client.send('nsys/noSuchMethod', {}), (err) => errorCode(err) === -32601);
    assert.equal(server.client.supports('nsys/noSuchMethod'), false);
  });

  test('server errors come through with their message as it is', async () => {
    await assert.rejects(server.client.profileInfo('p999'), (err: Error) => {
      assert.equal(errorCode(err), -32602);
      assert.match(err.message, /no open profile has id 'p999'/);
      return true;
    });
    await assert.rejects(server.client.runSkill(opened.profileId, 'top_kernels', { limit: -1 }), (err: Error) => {
      assert.match(err.message, /Argument 'limit' of skill 'top_kernels' must be at least 0, got -1/);
      return true;
    });
  });

  test('listSkills lists the skills the view uses, with their arguments', async () => {
    const { skills, commonArgs } = await server.client.listSkills();
    const names = skills.map((s) => s.name);
    for (const n of ['gpu_utilization', 'top_kernels', 'nvtx_summary']) assert.ok(names.includes(n), n);
    const util = skills.find((s) => s.name === 'gpu_utilization')!;
    assert.deepEqual(util.args.find((a) => a.name === 'view')?.choices, ['low', 'chunks']);
    assert.ok(commonArgs.some((a) => a.name === 'device'));
  });

  test('a streamed table (more than 500 rows) is put back together in order', async () => {
    // gpu_utilization with 1000 chunks per (process, device) has 2000 rows: streamed in pieces of 500.
    const whole = await server.client.request<'nsys/runSkill', { rows: unknown[][] }>('nsys/runSkill', {
      profileId: opened.profileId,
      skill: 'gpu_utilization',
      args: { view: 'chunks', chunks: 1000 },
    });
    const streamed = await server.client.runSkill(opened.profileId, 'gpu_utilization', { view: 'chunks', chunks: 1000 });
    assert.equal(streamed.streamedRows, 2000);
    assert.equal(streamed.rows.length, 2000);
    assert.deepEqual(streamed.rows, whole.rows);
  });

  test('cancelling a request sends $/cancelRequest and the server answers -32800', async () => {
    const source = new CancellationTokenSource();
    const pending = server.client.openProfile(h100, { cancel: source.token });
    source.cancel();
    try {
      const result = await pending; // it may have finished first: then it is a real open
      assert.match(result.profileId, /^p\d+$/);
    } catch (err) {
      assert.ok(isCancelled(err), `expected -32800, got ${errorCode(err)}`);
    }
  });

  test('exportTrace writes a trace and says so', async () => {
    const result = await server.client.exportTrace(opened.profileId, undefined);
    assert.ok(result.bytes > 0);
    assert.match(result.sha256, /^[0-9a-f]{64}$/);
    assert.ok(result.slices.kernels === 3442, `kernels ${result.slices.kernels}`); // rows of CUPTI_ACTIVITY_KIND_KERNEL
  });

  test('openInPerfetto returns a loopback opener URL with a token in its path', async () => {
    const result = await server.client.openInPerfetto(opened.profileId);
    assert.match(result.url, /^http:\/\/127\.0\.0\.1:\d+\/p\/[0-9a-f]+\/$/);
    assert.equal(result.showDocument, false, 'this client did not announce showDocument');
    const page = await fetch(result.url);
    assert.equal(page.status, 200);
  });
});
