// The profile's numbers on the user's own source lines (issue 12), as the language client gets them: the REAL server
// over stdio with vscode-jsonrpc, initialized with workspace folders as vscode-languageclient sends them, the source
// file opened (textDocument/didOpen), then the standard requests on it.
//
// The real pair: ../shared/fixtures/sources/efficientcenterformer/tools/eval_models.py, whose nvtx.annotate ranges
// produced titanrtx_tensorrt_nvtx.sqlite (TensorRT: no kernel table). Expected figures from sqlite3:
//   with r as (select coalesce(e.text, s.value) n, e.start, e.end from NVTX_EVENTS e
//              left join StringIds s on s.id = e.textId where eventType in (59, 60))
//   select n, count(*), sum(end - start) from r group by n;   -- plus the longest instance's start/end per name
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { errorCode } from '../src/protocol/client';
import type { KernelSourcesResult } from '../src/protocol/types';
import { fixturesDir, RealServer, skipReason, startServer } from './realServer';

const sourcesDir = path.join(fixturesDir, 'sources', 'efficientcenterformer');
const evalModels = path.join(sourcesDir, 'tools', 'eval_models.py');
const titan = path.join(fixturesDir, 'titanrtx_tensorrt_nvtx.sqlite');
const h200 = path.join(fixturesDir, 'h200_nvfuser_nvtx.sqlite');
const dataDir = path.resolve(__dirname, '..', '..', 'test', 'data');
const uriOf = (p: string) => `file://${p}`;

interface Lens {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  command?: { title: string; command: string; arguments?: { profileId: string; name: string; start: number; end: number }[] };
}

// name -> [0-based line, calls, wall ns, longest instance start, end] (sqlite3, see above; lines from the README
// of sources/ and `grep -n nvtx.annotate eval_models.py`).
const RANGES: [string, number, number, number, number, number][] = [
  ['reader', 147, 188, 270222955, 5106850092, 5111367651],
  ['3D_backbone', 150, 188, 3009143890, 2649269666, 2676687112],
  ['find_centers', 166, 188, 2155724660, 5669759493, 5693198141],
  ['poolformer_forward', 192, 188, 117437461, 5642962005, 5643858764],
  ['bbox_head', 198, 188, 401988590, 3011783356, 3014548660],
  ['post_processing', 204, 188, 1000147404, 5696181043, 5710125287],
];

const missing = skipReason ?? (fs.existsSync(evalModels) ? undefined : `no real source pair at ${evalModels}`);

async function poll<T>(ask: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 20000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await ask();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('source features on the real pair (eval_models.py + titanrtx_tensorrt_nvtx.sqlite)', { skip: missing }, () => {
  let server: RealServer;
  let profileId: string;
  const text = missing ? '' : fs.readFileSync(evalModels, 'utf8');

  before(async () => {
    server = await startServer({}, { workspace: { codeLens: { refreshSupport: true } } }, {
      workspaceFolders: [{ uri: uriOf(sourcesDir), name: 'efficientcenterformer' }],
      rootUri: uriOf(sourcesDir),
    });
    server.conn.onRequest('workspace/codeLens/refresh', () => null);
    await server.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uriOf(evalModels), languageId: 'python', version: 1, text },
    });
    profileId = (await server.client.openProfile(titan)).profileId;
  });
  after(async () => assert.equal(await server.stop(), 0));

  const lenses = () =>
    server.conn.sendRequest<Lens[] | null>('textDocument/codeLens', { textDocument: { uri: uriOf(evalModels) } });

  test('the initialize result announces lenses and the reveal command', () => {
    const caps = (server.initializeResult as { capabilities: Record<string, unknown> }).capabilities;
    assert.deepEqual(caps.codeLensProvider, { resolveProvider: false });
    assert.deepEqual((caps.executeCommandProvider as { commands: string[] }).commands, ['nsys-ai.revealRange']);
    assert.equal(caps.hoverProvider, true);
  });

  test('a lens on each annotated line with the profile’s calls and wall time, no kernel data', async () => {
    const got = await poll(lenses, (l) => (l ?? []).length >= RANGES.length, 'the lenses of eval_models.py');
    assert.equal(got!.length, RANGES.length);
    const byLine = new Map(got!.map((l) => [l.range.start.line, l]));
    for (const [name, line, calls, wallNs, start, end] of RANGES) {
      const lens = byLine.get(line);
      assert.ok(lens?.command, `a lens with a command on line ${line + 1} (${name})`);
      const title = lens.command.title;
      assert.ok(title.startsWith(`${calls} calls · `), title);
      const ms = Number(/· ([\d.]+) ms/.exec(title)?.[1]);
      assert.ok(Math.abs(ms - wallNs / 1e6) < 0.51, `${title}: wall ${wallNs / 1e6} ms`);
      assert.match(title, /no kernel data/, 'TensorRT capture: no kernel table');
      assert.equal(lens.command.command, 'nsys-ai.revealRange');
      assert.deepEqual(lens.command.arguments, [{ profileId, name, start, end }], `${name}: the longest instance`);
    }
  });

  test('the lens command opens the range in Perfetto and names it', async () => {
    const [lens] = (await lenses())!.filter((l) => l.range.start.line === 150);
    const result = await server.conn.sendRequest<{ url: string; name: string; kernels: unknown[] }>(
      'workspace/executeCommand',
      { command: lens.command!.command, arguments: lens.command!.arguments },
    );
    assert.equal(result.name, '3D_backbone');
    assert.match(result.url, /^http:\/\/127\.0\.0\.1:\d+\/p\/[0-9a-f]+\/$/);
    assert.deepEqual(result.kernels, [], 'no kernel table in this capture');
  });

  test('hover on a range name: its calls and wall time', async () => {
    const line = text.split('\n')[150];
    const character = line.indexOf('3D_backbone') + 2;
    const hover = await server.conn.sendRequest<{ contents: { kind: string; value: string } } | null>('textDocument/hover', {
      textDocument: { uri: uriOf(evalModels) },
      position: { line: 150, character },
    });
    assert.ok(hover, 'a hover on the literal');
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(hover.contents.value, /3D_backbone/);
    assert.match(hover.contents.value, /188/);
    assert.match(hover.contents.value, /3009(\.1)? ms/);
    // Away from any range name: nothing.
    const none = await server.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: uriOf(evalModels) },
      position: { line: 0, character: 0 },
    });
    assert.equal(none, null);
  });

  test('closing the profile leaves no lenses (no active profile)', async () => {
    const other = await server.client.openProfile(titan);
    await server.client.closeProfile(other.profileId);
    await server.client.closeProfile(profileId);
    assert.deepEqual(await lenses(), []);
  });
});

describe('nsys/kernelSources on h200_nvfuser_nvtx.sqlite', { skip: skipReason }, () => {
  let server: RealServer;
  let profileId: string;
  const nvfuserDir = path.join(dataDir, 'nvfuser');
  const launch = path.join(nvfuserDir, 'launch.cpp');

  before(async () => {
    server = await startServer({}, {}, { workspaceFolders: [{ uri: uriOf(nvfuserDir), name: 'nvfuser' }] });
    profileId = (await server.client.openProfile(h200)).profileId;
  });
  after(async () => assert.equal(await server.stop(), 0));

  test('a kernel maps to the innermost annotated scope that launches it, with all of its time', async () => {
    // nvfuser_pointwise_f0_c1_r0_g0 runs once (694040 ns, sqlite3 on CUPTI_ACTIVITY_KIND_KERNEL), launched inside
    // ExecutorRunFusion::cuLaunchKernel, itself inside KernelExecutor::runFusion (the NVTX tree test's figures):
    // the innermost of the two annotated in launch.cpp is the cuLaunchKernel scope, on its line 15.
    const line = fs.readFileSync(launch, 'utf8').split('\n').findIndex((l) => l.includes('"ExecutorRunFusion::cuLaunchKernel"'));
    const result = await poll(
      () => server.client.kernelSources(profileId, 'nvfuser_pointwise_f0_c1_r0_g0') as Promise<KernelSourcesResult>,
      (r) => r.locations.length > 0,
      'the source index of test/data/nvfuser',
    );
    assert.equal(result.locations.length, 1);
    const [loc] = result.locations;
    assert.equal(loc.uri, uriOf(launch));
    assert.equal(loc.range.start.line, line);
    assert.equal(loc.name, 'ExecutorRunFusion::cuLaunchKernel');
    assert.equal(loc.share, 1);
    assert.equal(loc.gpuNs, 694040);
    assert.equal(loc.calls, 1);
  });

  test('a kernel no annotated scope launches has no location; an unknown kernel is -32602', async () => {
    // The cuBLAS nvjet GEMMs are launched outside KernelExecutor::runFusion (tree test: 8 kernels inside it).
    const gemm = await server.client.kernelSources(profileId, 'nvjet_tst_192x192_64x4_2x1_v_bz_coopB_TNN');
    assert.deepEqual((gemm as KernelSourcesResult).locations, []);
    await assert.rejects(server.client.kernelSources(profileId, 'no_such_kernel_xyz'), (e) => errorCode(e) === -32602);
  });
});
