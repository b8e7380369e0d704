// The profile's numbers on the user's own source lines, as the language client gets them: the REAL server
// over stdio with vscode-jsonrpc, initialized with workspace folders as vscode-languageclient sends them, the source
// file opened (textDocument/didOpen), then the standard requests on it.
//
// The real pair: ../shared/fixtures/sources/efficientcenterformer/tools/eval_models.py, whose nvtx.annotate ranges
// produced titanrtx_tensorrt_nvtx.sqlite (TensorRT: no kernel table). Expected figures from sqlite3:
//   with r as (select coalesce(e.text, s.value) n, e.start, e.end from NVTX_EVENTS e
//              left join StringIds s on s.id = e.textId where eventType in (59, 60))
//   select n, count(*), sum(end - start) from r group by n;   -- plus the longest instance's start/end per name
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
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

// Diagnostics, the refine code action and a profile switch on h200_nvfuser_nvtx.sqlite with test/data/nvfuser
// (plus the real pair's eval_models.py when present, whose range names h200 never ran). Figures from sqlite3 on
// h200 (NVTX_EVENTS eventType 59/60 by name; kernels joined to CUPTI_ACTIVITY_KIND_RUNTIME by correlationId on the
// range's thread and time):
//   KernelExecutor::runFusion::intermediates: 6 calls, 6631462 ns wall; one call (start 8738325094) launches 2
//     kernels, both at::native::vectorized_elementwise_kernel<2, FillFunctor<long>> (1632 + 1216 = 2848 ns): up to 2
//     per call, 2/6 = 0.3 on average, 1 kind -> the one range to refine (innermost, more than one kernel per call).
//   KernelExecutor::runFusion: 6 calls, 10137353 ns, its kernels launched inside ExecutorRunFusion::cuLaunchKernel
//     (6 calls, 154899 ns wall, one kernel each, 3131549 ns GPU): neither is to refine.
//   reader, 3D_backbone, ... (eval_models.py): 0 rows in h200; none of these names nor any KernelExecutor* /
//     ExecutorRunFusion* name among mfu_2gpu_after.sqlite's 17113 ranges.
describe('source diagnostics, the refine code action and a profile switch (h200 + launch.cpp)', { skip: skipReason }, () => {
  let server: RealServer;
  let refreshes = 0;
  const nvfuserDir = path.join(dataDir, 'nvfuser');
  const launch = path.join(nvfuserDir, 'launch.cpp');
  const launchUri = uriOf(launch);
  const launchText = skipReason ? '' : fs.readFileSync(launch, 'utf8');
  const launchLines = launchText.split('\n');
  const withPair = fs.existsSync(evalModels);
  const INTERMEDIATES = 'KernelExecutor::runFusion::intermediates';
  const rangeLine = launchLines.findIndex((l) => l.includes(`"${INTERMEDIATES}"`));
  const rangeColumn = (launchLines[rangeLine] ?? '').indexOf(`"${INTERMEDIATES}"`);
  const REFINE = {
    range: { start: { line: rangeLine, character: rangeColumn }, end: { line: rangeLine, character: rangeColumn + INTERMEDIATES.length + 2 } },
    severity: 3,
    code: 'nvtx-refine',
    source: 'nsys-ai',
    message: 'launches up to 2 kernels (0.3 on average) of 1 kind per call: add finer ranges',
  };
  interface Diagnostic { range: Lens['range']; severity: number; code: string; source: string; message: string }
  interface Published { uri: string; diagnostics: Diagnostic[] }
  interface TextEdit { range: Lens['range']; newText: string }

  // The latest textDocument/publishDiagnostics for `uri` among the notifications from index `from` on (once one came).
  const publishedAfter = async (from: number, uri: string): Promise<Published> => {
    const all = () =>
      server.notifications
        .slice(from)
        .filter((n) => n.method === 'textDocument/publishDiagnostics')
        .map((n) => n.params as Published)
        .filter((p) => p.uri === uri);
    await poll(async () => all().length, (n) => n > 0, `diagnostics of ${uri} after notification ${from}`);
    return all().at(-1)!;
  };
  const lensesOf = (uri: string) =>
    server.conn.sendRequest<Lens[] | null>('textDocument/codeLens', { textDocument: { uri } });
  const actionsAt = (line: number, character: number, diagnostics: Diagnostic[] = []) =>
    server.conn.sendRequest<{ title: string; kind: string; edit?: { changes?: Record<string, TextEdit[]>; documentChanges?: unknown } }[] | null>(
      'textDocument/codeAction',
      { textDocument: { uri: launchUri }, range: { start: { line, character }, end: { line, character } }, context: { diagnostics } },
    );

  before(async () => {
    const folders = [{ uri: uriOf(nvfuserDir), name: 'nvfuser' }];
    if (withPair) folders.push({ uri: uriOf(sourcesDir), name: 'efficientcenterformer' });
    server = await startServer({}, { workspace: { codeLens: { refreshSupport: true } } }, { workspaceFolders: folders });
    server.conn.onRequest('workspace/codeLens/refresh', () => {
      refreshes += 1;
      return null;
    });
    await server.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: launchUri, languageId: 'cpp', version: 1, text: launchText },
    });
    await server.client.openProfile(h200);
  });
  after(async () => assert.equal(await server.stop(), 0));

  test('launch.cpp: one Information diagnostic, on the range that launches 2 kernels in a call', async () => {
    assert.equal(rangeLine, 20);
    const published = await publishedAfter(0, launchUri);
    // Nothing on KernelExecutor::runFusion (kernels in a nested range) nor on cuLaunchKernel (one per call).
    assert.deepEqual(published.diagnostics, [REFINE]);
    const lenses = (await lensesOf(launchUri))!;
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command?.title]),
      [
        [12, '6 calls · 10.1 ms · 1.3 kernels/call · 3.1 ms GPU'],
        [14, '6 calls · 155 µs · 1 kernel/call · 3.1 ms GPU'],
        [20, '6 calls · 6.6 ms · 0.3 kernels/call · 2.8 µs GPU'],
      ],
    );
  });

  test('eval_models.py: a Hint on each range h200 never ran', { skip: withPair ? undefined : `no ${evalModels}` }, async () => {
    const published = await publishedAfter(0, uriOf(evalModels));
    const lines = fs.readFileSync(evalModels, 'utf8').split('\n');
    assert.deepEqual(
      published.diagnostics.map((d) => [d.range.start.line, d.severity, d.code, d.message]),
      RANGES.map(([name, line]) => [line, 4, 'nvtx-not-run', `'${name}' did not run in this profile`]),
    );
    for (const d of published.diagnostics) {
      const literal = lines[d.range.start.line].slice(d.range.start.character, d.range.end.character);
      assert.match(literal, /^["'].+["']$/, 'the range covers the name literal');
      assert.ok(d.message.startsWith(`'${literal.slice(1, -1)}'`), `${literal} in ${d.message}`);
    }
  });

  test('"Add NVTX ranges inside" on the range to refine: one file\'s edit, two nested scopes, still compiles', async () => {
    const actions = (await actionsAt(rangeLine, rangeColumn + 1, [REFINE]))!;
    assert.deepEqual(
      actions.map((a) => [a.title, a.kind]),
      [[`Add NVTX ranges inside '${INTERMEDIATES}'`, 'refactor.rewrite']],
    );
    const { edit } = actions[0];
    assert.equal(edit?.documentChanges, undefined);
    assert.deepEqual(Object.keys(edit?.changes ?? {}), [launchUri], 'exactly one document changes');
    const edits = edit!.changes![launchUri];
    assert.deepEqual(
      edits.map((e) => e.range.start.line),
      [21, 22],
      'one edit per statement that calls something (zeroBuffer, fillBuffer)',
    );
    const edited = applyEdits(launchText, edits);
    const addedScopes = edited
      .split('\n')
      .map((l, i): [number, string | undefined] => [i, /FUSER_PERF_SCOPE\("([^"]*)"\);/.exec(l)?.[1]])
      .filter(([, name]) => name?.startsWith(`${INTERMEDIATES}/`));
    assert.deepEqual(addedScopes, [
      [22, `${INTERMEDIATES}/zeroBuffer`],
      [26, `${INTERMEDIATES}/fillBuffer`],
    ]);
    assert.equal(edited.split('\n').length, launchLines.length + 6, 'each statement in a new { } block: 3 lines more');
    // Everything outside the range's body is as it was.
    assert.equal(edited.split('\n').slice(0, 21).join('\n'), launchLines.slice(0, 21).join('\n'));
    // launch.cpp declares the scope macro but not the functions it calls: they are declared through -include.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-refine-'));
    try {
      fs.writeFileSync(path.join(dir, 'callees.h'), '#include <cstdint>\nvoid launchSegment(int64_t);\nvoid zeroBuffer(int64_t);\nvoid fillBuffer(int64_t);\n');
      const compile = (text: string) => {
        fs.writeFileSync(path.join(dir, 'launch.cpp'), text);
        execFileSync('g++', ['-std=c++17', '-fsyntax-only', '-include', 'callees.h', 'launch.cpp'], { cwd: dir, stdio: 'pipe' });
      };
      compile(launchText); // the input compiles
      compile(edited);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('no refine action on ranges that are not to refine (nested kernels, one kernel per call)', async () => {
    assert.deepEqual(await actionsAt(12, 21), [], 'KernelExecutor::runFusion');
    assert.deepEqual(await actionsAt(14, 23), [], 'ExecutorRunFusion::cuLaunchKernel');
  });

  test('opening another profile replaces the source diagnostics and asks for the lenses again', async () => {
    const before = server.notifications.length;
    const refreshesBefore = refreshes;
    await server.client.openProfile(path.join(fixturesDir, 'mfu_2gpu_after.sqlite'));
    // None of launch.cpp's names ran in mfu_2gpu_after: its diagnostic is cleared, its lenses and actions go.
    assert.deepEqual((await publishedAfter(before, launchUri)).diagnostics, []);
    await poll(async () => refreshes, (n) => n > refreshesBefore, 'workspace/codeLens/refresh');
    assert.deepEqual(await lensesOf(launchUri), []);
    assert.deepEqual(await actionsAt(rangeLine, rangeColumn + 1), []);
    if (withPair) {
      const hints = (await publishedAfter(before, uriOf(evalModels))).diagnostics;
      assert.deepEqual(hints.map((d) => [d.range.start.line, d.severity]), RANGES.map(([, line]) => [line, 4]));
    }
    // The switch's refresh (it clears launch.cpp, publishes eval_models.py, then looks at launch.cpp once more) must be
    // over before switching back: the server runs two switches' refreshes concurrently, and the older one's last look
    // then clears the diagnostic the newer one published (seen in the Neovim suite). Hence a quarter second.
    await new Promise((r) => setTimeout(r, 250));
    // Back to h200: its diagnostic and lenses return.
    const again = server.notifications.length;
    const refreshesAgain = refreshes;
    await server.client.openProfile(h200);
    await publishedAfter(again, launchUri);
    await poll(async () => refreshes, (n) => n > refreshesAgain, 'workspace/codeLens/refresh');
    assert.equal((await lensesOf(launchUri))!.length, 3);
    assert.deepEqual((await publishedAfter(again, launchUri)).diagnostics, [REFINE], 'the last word on launch.cpp');
  });
});

// LSP TextEdits applied to a text (ASCII here: UTF-16 columns are byte columns), last first.
function applyEdits(text: string, edits: { range: Lens['range']; newText: string }[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p: { line: number; character: number }) => starts[p.line] + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}
