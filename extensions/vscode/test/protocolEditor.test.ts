// The protocol the NVTX tree, Diff Profiles and the Problems panel rely on, through the extension's own
// client against the REAL server. Expected NVTX figures: sqlite3/Python over h200_nvfuser_nvtx.sqlite, nesting the
// push/pop ranges (eventType 59) per thread by start and end, and attributing a kernel to the ranges that hold the
// start of its launching call (CUPTI_ACTIVITY_KIND_RUNTIME joined on correlationId within the same process).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { errorCode, Unsupported } from '../src/protocol/client';
import type { NvtxTreeNode, NvtxTreeResult } from '../src/protocol/types';
import { revealWindow } from '../src/reveal';
import { fixturesDir, RealServer, skipReason, startServer } from './realServer';

const h200 = path.join(fixturesDir, 'h200_nvfuser_nvtx.sqlite');

describe('nsys/nvtxTree, nsys/diff and findings as diagnostics on the real server', { skip: skipReason }, () => {
  let server: RealServer;
  let profileId: string;

  before(async () => {
    server = await startServer();
    profileId = (await server.client.openProfile(h200)).profileId;
  });
  after(async () => assert.equal(await server.stop(), 0));

  async function children(parent?: string): Promise<NvtxTreeResult> {
    const result = await server.client.nvtxTree(profileId, parent);
    assert.ok(!(result instanceof Unsupported), 'the server has nsys/nvtxTree');
    return result as NvtxTreeResult;
  }
  const figures = (n: NvtxTreeNode) => [n.kind, n.name, n.instances, n.wallNs, n.gpuNs, n.kernelCount, n.hasChildren];

  test('the top level: one node per thread with NVTX ranges, the most wall time first', async () => {
    const { nodes, truncated } = await children();
    assert.equal(truncated, false);
    // 9 threads of pid 50556 hold ranges: the main thread and the 8 compileFusionParallel workers 51306..51313.
    assert.deepEqual(
      nodes.map((n) => n.tid).sort(),
      [50556, 51306, 51307, 51308, 51309, 51310, 51311, 51312, 51313],
    );
    assert.ok(nodes.every((n) => n.kind === 'thread' && n.pid === 50556 && n.hasChildren));
    assert.equal(nodes[0].tid, 50556, 'the main thread: 846.8 ms of top-level ranges, the next 342.6 ms');
    assert.match(nodes[0].label, /\(pid 50556, tid 50556\)$/);
    for (let i = 1; i < nodes.length; i++) assert.ok(nodes[i - 1].wallNs >= nodes[i].wallNs, 'sorted by wall');
  });

  test('a thread’s children: its ranges by name, most GPU time then wall first, with the longest instance', async () => {
    const [main] = (await children()).nodes;
    const { nodes, truncated } = await children(main.id);
    assert.equal(truncated, false);
    assert.deepEqual(nodes.map(figures), [
      ['range', 'FusionExecutorCache::runFusionWithInputs', 2, 844817085, 3134397, 8, true],
      ['range', 'FusionDefinition Definition', 2, 1949779, 0, 0, true],
      ['range', 'FusionCache::get', 2, 57010, 0, 0, false], // no range nested in it, no kernel launched in it
    ]);
    assert.deepEqual([nodes[0].startNs, nodes[0].endNs], [8171245085, 8745005155]);
    // Ids resolve again: the same parent gives the same children.
    assert.deepEqual((await children(main.id)).nodes, nodes);
    const sub = (await children(nodes[0].id)).nodes;
    assert.deepEqual(sub.map(figures), [
      ['range', 'FusionKernelRuntime::runWithInputs', 2, 10342502, 3134397, 8, true],
      ['range', 'FusionKernelRuntime::compileFusionParallel', 2, 555732407, 0, 0, true],
      ['range', 'FusionExecutorCache::getKernelRuntimeFor', 2, 278482218, 0, 0, true],
      ['range', 'FusionExecutorCache::setCacheId', 2, 229988, 0, 0, true],
    ]);
  });

  test('kernel leaves under the range that launches them, and a window Perfetto accepts', async () => {
    const chain = [
      'FusionExecutorCache::runFusionWithInputs',
      'FusionKernelRuntime::runWithInputs',
      'FusionKernelRuntime::runSegmentsWithInputs',
      'FusionKernelRuntime::runKernelWithInput',
      'ExecutorDispatch::run2',
      'KernelExecutor::runFusion',
      'KernelExecutor::runFusion::execute_kernel',
      'ExecutorRunFusion::cuLaunchKernel',
    ];
    let node = (await children()).nodes[0];
    for (const name of chain) {
      const found = (await children(node.id)).nodes.find((n) => n.name === name);
      assert.ok(found, name);
      node = found;
    }
    assert.deepEqual(figures(node), ['range', 'ExecutorRunFusion::cuLaunchKernel', 6, 154899, 3131549, 6, true]);
    const kernels = (await children(node.id)).nodes;
    assert.deepEqual(
      kernels.map((k) => [k.kind, k.name, k.instances, k.gpuNs, k.kernelCount, k.hasChildren]),
      [
        ['kernel', 'nvfuser_inner_persistent_f1_c1_r0_g2', 1, 901303, 1, false],
        ['kernel', 'nvfuser_inner_persistent_f0_c1_r0_g2', 1, 761016, 1, false],
        ['kernel', 'nvfuser_pointwise_f0_c1_r0_g0', 1, 694040, 1, false],
        ['kernel', 'nvfuser_pointwise_f1_c1_r0_g1', 1, 383931, 1, false],
        ['kernel', 'nvfuser_pointwise_f0_c1_r0_g4', 1, 380732, 1, false],
        ['kernel', 'nvfuser_reduction_f0_c1_r0_g3', 1, 10527, 1, false],
      ],
    );
    // The reveal window of the range, as the tree's "Reveal in Perfetto" sends it, is a window the server takes.
    const info = (await server.client.profileInfo(profileId)).info;
    const result = await server.client.openInPerfetto(profileId, undefined, revealWindow(node, info));
    assert.match(result.url, /^http:\/\/127\.0\.0\.1:\d+\/p\/[0-9a-f]+\/$/);
  });

  test('an unknown profile id is -32602', async () => {
    await assert.rejects(server.client.nvtxTree('p999'), (err) => errorCode(err) === -32602);
  });

  test('nsys/diff of the before/after pair: a verdict, a headline, rows', async () => {
    const base = await server.client.openProfile(path.join(fixturesDir, 'mfu_2gpu_before.sqlite'));
    const next = await server.client.openProfile(path.join(fixturesDir, 'mfu_2gpu_after.sqlite'));
    const diff = await server.client.diff(base.profileId, next.profileId);
    // The optimisation made the step slower: median iteration 16.727 ms → 18.914 ms (32 and 28 iterations), above
    // its 3.96% noise floor; the same 27 kernels run in both.
    assert.equal(diff.verdict, 'regressed');
    assert.equal(diff.headline?.metric, 'median iteration time');
    assert.equal(diff.headline?.baseNs, 16726534.5);
    assert.equal(diff.headline?.newNs, 18914266);
    assert.equal(diff.headline?.changePct?.toFixed(2), '13.08');
    assert.equal(diff.comparability.label, 'comparable');
    assert.deepEqual(diff.kernelCounts, { both: 27, appeared: 0, disappeared: 0 });
    assert.equal(diff.kernels[0].shortName, 'ncclDevKernel_SendRecv');
    assert.deepEqual([diff.kernels[0].baseCalls, diff.kernels[0].newCalls], [66, 62]);
    assert.match(diff.basePath, /mfu_2gpu_before\.sqlite$/);
    assert.match(diff.newPath, /mfu_2gpu_after\.sqlite$/);
    await server.client.closeProfile(base.profileId);
    await server.client.closeProfile(next.profileId);
  });

  test('nsys/analyze publishes the findings as diagnostics on the profile’s file URI; closing clears them', async () => {
    // `nsys-ai analyze` finds 9 root causes in the "after" profile (the largest: compute-bound, 120 ms; one is what the idle time waited for).
    const file = path.join(fixturesDir, 'mfu_2gpu_after.sqlite');
    const opened = await server.client.openProfile(file);
    const uri = `file://${file}`;
    const published = () =>
      server.notifications
        .filter((n) => n.method === 'textDocument/publishDiagnostics')
        .map((n) => n.params as { uri: string; diagnostics: { range: unknown; severity: number; source: string; code: string; message: string }[] })
        .filter((p) => p.uri === uri);
    const result = await server.client.analyze(opened.profileId);
    assert.ok(!(result instanceof Unsupported));
    const findings = (result as { findings: { rootCause?: string; title: string; severity?: string }[] }).findings;
    for (let i = 0; i < 100 && published().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const diagnostics = published().at(-1)!.diagnostics;
    assert.equal(diagnostics.length, findings.length);
    assert.equal(findings.length, 9);
    assert.ok(diagnostics.some((d) => d.severity === 2), 'a high finding is a warning');
    assert.deepEqual(diagnostics.map((d) => d.code).sort(), findings.map((f) => f.rootCause).sort());
    findings.forEach((f) => {
      const d = diagnostics.find((x) => x.code === f.rootCause)!;
      assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
      assert.equal(d.source, 'nsys-ai');
      assert.equal(d.code, f.rootCause);
      assert.equal(d.severity, f.severity === 'high' ? 2 : f.severity === 'medium' ? 3 : 4);
      assert.ok(d.message.startsWith(f.title), d.message);
      assert.match(d.message, /Recommendation: /);
    });
    const before_ = published().length;
    await server.client.closeProfile(opened.profileId);
    for (let i = 0; i < 100 && published().length === before_; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(published().at(-1)!.diagnostics, []);
  });
});
