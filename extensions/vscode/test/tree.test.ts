// The NVTX tree view and the Diff Profiles command on the vscode stand-in, with the REAL server behind them (every
// request goes to it; the recording connection only notes what was asked). Expected figures: sqlite3 over the
// exports (see protocol.test.ts, which checks the same nodes at the protocol level).
import * as stub from './vscodeStub'; // first: makes require('vscode') resolve to the stand-in
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { ProgressType } from 'vscode-jsonrpc';
import { registerCommands } from '../src/commands';
import { nodeDescription, nodeTooltip, NvtxTreeProvider, revealWindow, TreeElement } from '../src/nvtxTree';
import { ProfileEditorProvider } from '../src/profileEditor';
import { ProfileDocument, ProfileRegistry, Services } from '../src/profiles';
import { CancellationToken, Disposable, NsysClient, RpcConnection } from '../src/protocol/client';
import type { DiffResult, NvtxTreeNode } from '../src/protocol/types';
import { improvements, regressions, renderDiffHtml } from '../src/view/diff';
import { fixturesDir, h100, RealServer, skipReason, startServer } from './realServer';

const h200 = path.join(fixturesDir, 'h200_nvfuser_nvtx.sqlite');
const before_ = path.join(fixturesDir, 'mfu_2gpu_before.sqlite');
const after_ = path.join(fixturesDir, 'mfu_2gpu_after.sqlite');
const asUri = (p: string) => stub.Uri.file(p) as unknown as vscode.Uri;

/** The real connection, with a note of each request. */
class Recording implements RpcConnection {
  readonly calls: { method: string; params: Record<string, unknown> }[] = [];
  constructor(private readonly real: RpcConnection) {}
  onProgress<P>(type: ProgressType<P>, token: string | number, handler: (value: P) => void): Disposable {
    return this.real.onProgress(type, token, handler);
  }
  sendRequest<R>(method: string, params: unknown, token?: CancellationToken): Promise<R> {
    this.calls.push({ method, params: params as Record<string, unknown> });
    return token ? this.real.sendRequest<R>(method, params, token) : this.real.sendRequest<R>(method, params);
  }
  count(method: string): number {
    return this.calls.filter((c) => c.method === method).length;
  }
}

const nodeOf = (e: TreeElement): NvtxTreeNode => {
  if (e.type !== 'node') assert.fail(`a node, not the line '${e.text}'`);
  return e.node;
};

describe('NVTX tree and Diff Profiles on the vscode stand-in, real server behind them', { skip: skipReason }, () => {
  let server: RealServer;
  let rec: Recording;
  let services: Services;
  let tree: NvtxTreeProvider;

  before(async () => {
    server = await startServer();
    rec = new Recording(server.conn);
    const client = new NsysClient(rec);
    client.setServerCapabilities(server.initializeResult);
    services = { client: async () => client, registry: new ProfileRegistry() };
    tree = new NvtxTreeProvider(services);
    registerCommands({
      ...services,
      editor: new ProfileEditorProvider(services),
      tree,
      secrets: { get: async () => undefined, store: async () => {}, delete: async () => {} } as never,
      restartServer: async () => {},
    });
  });
  after(async () => assert.equal(await server.stop(), 0));
  beforeEach(async () => {
    stub.reset();
    await Promise.all(services.registry.all().map((d) => d.close())); // what a failed test left open
  });

  /** A profile as the editor opens it: registered, so it becomes the shown one. */
  function open(file: string): ProfileDocument {
    const doc = new ProfileDocument(asUri(file), services);
    services.registry.add(doc);
    return doc;
  }

  test('no profile: an empty tree (the welcome view), and nothing is asked', async () => {
    assert.deepEqual(await tree.getChildren(), []);
    assert.equal(rec.count('nsys/nvtxTree'), 0);
  });

  test('lazy: the threads first, a node’s children only when it is expanded, labelled from the server', async () => {
    const changes: unknown[] = [];
    const sub = tree.onDidChangeTreeData((e) => changes.push(e));
    const doc = open(h200);
    assert.equal(changes.length, 1, 'a newly shown profile refreshes the tree');
    const { profileId } = await doc.current();
    const asked = rec.count('nsys/nvtxTree');
    const threads = await tree.getChildren();
    assert.equal(rec.count('nsys/nvtxTree'), asked + 1, 'one request for the top level');
    assert.deepEqual(rec.calls.at(-1)!.params, { profileId }, 'no parent: the threads');
    // sqlite3: 9 threads of pid 50556 have NVTX push/pop ranges; the main thread (tid 50556) has the most wall time.
    assert.equal(threads.length, 9);
    const main = nodeOf(threads[0]);
    assert.deepEqual([main.kind, main.pid, main.tid, main.hasChildren], ['thread', 50556, 50556, true]);
    const mainItem = tree.getTreeItem(threads[0]) as unknown as stub.TreeItem;
    assert.equal(mainItem.label, main.label);
    assert.match(mainItem.label, /pid 50556, tid 50556/);
    assert.equal(mainItem.collapsibleState, stub.TreeItemCollapsibleState.Collapsed);
    assert.equal(rec.count('nsys/nvtxTree'), asked + 1, 'rendering items asks nothing');

    const ranges = await tree.getChildren(threads[0]);
    assert.equal(rec.count('nsys/nvtxTree'), asked + 2);
    assert.deepEqual(rec.calls.at(-1)!.params, { profileId, parent: main.id }, 'expanding asks with the parent id');
    const top = nodeOf(ranges[0]);
    // sqlite3: 2 instances, 844817085 ns summed, 8 kernels of 3134397 ns launched inside by this thread.
    assert.equal(top.name, 'FusionExecutorCache::runFusionWithInputs');
    const item = tree.getTreeItem(ranges[0]) as unknown as stub.TreeItem;
    assert.equal(item.description, '3.1 ms GPU · 2× · 8 kernels');
    assert.match(item.tooltip!, /^FusionExecutorCache::runFusionWithInputs\n/);
    assert.match(item.tooltip!, /2 instances, 844\.8 ms wall in all/);
    assert.match(item.tooltip!, /3\.1 ms GPU time in 8 kernels/);
    assert.match(item.tooltip!, /Longest instance: 573\.8 ms \(capture clock 8171245085–8745005155 ns\)/);
    assert.equal(item.contextValue, 'nsysAi.nvtx.range.revealable');
    assert.equal((item.iconPath as stub.ThemeIcon).id, 'symbol-namespace');
    sub.dispose();
    doc.dispose();
  });

  test('kernel leaves: launches and GPU time per kernel, no children', async () => {
    const doc = open(h200);
    // Down the path that holds the launches (sqlite3: ExecutorRunFusion::cuLaunchKernel launches 6 kernels).
    const path_ = [
      'FusionExecutorCache::runFusionWithInputs',
      'FusionKernelRuntime::runWithInputs',
      'FusionKernelRuntime::runSegmentsWithInputs',
      'FusionKernelRuntime::runKernelWithInput',
      'ExecutorDispatch::run2',
      'KernelExecutor::runFusion',
      'KernelExecutor::runFusion::execute_kernel',
      'ExecutorRunFusion::cuLaunchKernel',
    ];
    let level = await tree.getChildren();
    let element: TreeElement = level[0];
    for (const name of path_) {
      level = await tree.getChildren(element);
      element = level.find((e) => e.type === 'node' && e.node.name === name)!;
      assert.ok(element, `${name} among ${level.map((e) => (e.type === 'node' ? e.node.name : e.text)).join(', ')}`);
    }
    const kernels = (await tree.getChildren(element)).map(nodeOf);
    assert.deepEqual(
      kernels.map((k) => [k.kind, k.name, k.instances, k.gpuNs, k.hasChildren]),
      [
        ['kernel', 'nvfuser_inner_persistent_f1_c1_r0_g2', 1, 901303, false],
        ['kernel', 'nvfuser_inner_persistent_f0_c1_r0_g2', 1, 761016, false],
        ['kernel', 'nvfuser_pointwise_f0_c1_r0_g0', 1, 694040, false],
        ['kernel', 'nvfuser_pointwise_f1_c1_r0_g1', 1, 383931, false],
        ['kernel', 'nvfuser_pointwise_f0_c1_r0_g4', 1, 380732, false],
        ['kernel', 'nvfuser_reduction_f0_c1_r0_g3', 1, 10527, false],
      ],
    );
    const leaf = tree.getTreeItem({ type: 'node', doc, node: kernels[0] }) as unknown as stub.TreeItem;
    assert.equal(leaf.description, '901.3 µs GPU · 1 launch');
    assert.equal(leaf.collapsibleState, stub.TreeItemCollapsibleState.None);
    assert.equal((leaf.iconPath as stub.ThemeIcon).id, 'chip');
    doc.dispose();
  });

  test('Reveal in Perfetto: nsys/openInPerfetto with a window around the node, then asExternalUri + openExternal', async () => {
    const doc = open(h200);
    const { profileId, info } = await doc.current();
    const [thread] = await tree.getChildren();
    const [range] = await tree.getChildren(thread);
    const node = nodeOf(range);
    await stub.commands.executeCommand('nsysAi.revealInPerfetto', range);
    const call = rec.calls.filter((c) => c.method === 'nsys/openInPerfetto').at(-1)!;
    // 8171245085–8745005155 padded by a quarter of its 573760070 ns each side, clipped to the profile.
    const expected = { start: Math.max(8171245085 - 143440018, info.startNs), end: Math.min(8745005155 + 143440018, info.endNs), clock: 'capture_ns' };
    const { workDoneToken, ...params } = call.params;
    assert.match(String(workDoneToken), /^nsys-ai-vscode-progress-/, 'with a progress notification');
    assert.deepEqual(params, { profileId, window: expected });
    assert.deepEqual(revealWindow(node, info), expected);
    assert.deepEqual(stub.record.messages.filter((m) => m.level === 'error'), [], 'the server took the window');
    assert.equal(stub.record.asExternalUri.length, 1);
    assert.match(stub.record.openExternal[0], /^http:\/\/localhost:\d+\/p\/[0-9a-f]+\/$/);
    await stub.commands.executeCommand('nsysAi.revealInPerfetto', { type: 'message', text: 'x' });
    assert.equal(stub.record.asExternalUri.length, 1, 'a message line reveals nothing');
    doc.dispose();
  });

  test('the tree follows the active profile and starts over when it changes', async () => {
    const a = open(h200);
    const b = open(h100);
    const changes: unknown[] = [];
    const sub = tree.onDidChangeTreeData((e) => changes.push(e));
    const names: string[] = [];
    tree.onProfile = (n) => names.push(String(n));
    services.registry.setActive(a);
    assert.equal(changes.length, 1);
    assert.deepEqual(names, ['h200_nvfuser_nvtx.sqlite']);
    const [first] = await tree.getChildren();
    assert.equal(nodeOf(first).pid, 50556);
    services.registry.setActive(a);
    assert.equal(changes.length, 1, 'the same profile again: no refresh');
    a.dispose();
    assert.deepEqual(names.at(-1), 'h100_2gpu_1s.sqlite', 'closing it shows the one still open');
    const late = await tree.getChildren(first); // an expansion that comes after the close opens nothing again
    assert.match((late[0] as { text: string }).text, /^h200_nvfuser_nvtx\.sqlite was closed; open it again to use it\.$/);
    // sqlite3: the H100 export's NVTX ranges are on pid 111 (tid 111) and pid 112 (tid 112).
    const threads = (await tree.getChildren()).map(nodeOf);
    assert.deepEqual(threads.map((t) => [t.pid, t.tid]).sort(), [[111, 111], [112, 112]]);
    b.dispose();
    assert.equal(names.at(-1), 'undefined');
    assert.deepEqual(await tree.getChildren(), []);
    sub.dispose();
    tree.onProfile = undefined;
  });

  test('a server error becomes a line in the tree, not an exception', async () => {
    const doc = open(h200);
    const { profileId } = await doc.current();
    await server.client.closeProfile(profileId); // behind the document's back
    const lines = await tree.getChildren();
    assert.equal(lines.length, 1);
    assert.equal(lines[0].type, 'message');
    assert.match((lines[0] as { text: string }).text, /no open profile has id/);
    doc.dispose();
  });

  test('Diff Profiles: two files from the explorer, nsys/diff, the verdict and regressions in a panel', async () => {
    // The reference: the same request straight to the server.
    const [b, a] = [await server.client.openProfile(before_), await server.client.openProfile(after_)];
    const result = await server.client.diff(b.profileId, a.profileId);
    await server.client.closeProfile(b.profileId);
    await server.client.closeProfile(a.profileId);
    await stub.commands.executeCommand('nsysAi.diffProfiles', asUri(before_), [asUri(before_), asUri(after_)]);
    assert.deepEqual(stub.record.messages.filter((m) => m.level === 'error'), []);
    const panel = stub.record.panels.find((p) => p.viewType === 'nsysAi.diff')!;
    assert.equal(panel.title, 'Diff · mfu_2gpu_before.sqlite → mfu_2gpu_after.sqlite');
    const diffCall = rec.calls.filter((c) => c.method === 'nsys/diff').at(-1)!;
    const html = panel.webview.html;
    assert.match(html, new RegExp(`<span class="verdict ${result.verdict}" role="status">${result.verdict}</span>`));
    assert.ok(stub.record.progress.some((p) => p.title === 'Comparing the profiles'));
    // The files were opened for the diff only: both are closed again.
    for (const id of [diffCall.params.baseProfileId, diffCall.params.newProfileId]) {
      await assert.rejects(server.client.profileInfo(String(id)), /no open profile has id/);
    }
    assert.equal((html.match(/<tr tabindex="0">/g) ?? []).length, regressions(result).length + improvements(result).length);
    // The real pair regressed: 2 kernels (their per-call durations' rank test, p < 0.001) and 3 NVTX ranges slower
    // beyond their noise (the server's beyondNoise).
    assert.equal(result.verdict, 'regressed');
    assert.equal(regressions(result).length, 5);
    assert.match(html, /16\.7 ms → 18\.9 ms\n \(<span class="change regressed">\+13\.1%<\/span>\)/);
    assert.match(html, />nvjet_tst_192x208_64x4_1x1_h_bz_coopB_bias_TNT<\/td>/);
    assert.match(html, /<td class="n worse">\+1\.8%<\/td>/, 'its per-call change, in the theme’s error colour');
  });

  test('Diff Profiles by quick pick: an open profile, then a file', async () => {
    const base = open(before_);
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'mfu_2gpu_before.sqlite'));
    let offered: string[] = [];
    stub.answers.quickPick.push((items: { label: string }[]) => {
      offered = items.map((i) => i.label);
      return items.find((i) => i.label === 'Choose a file…');
    });
    stub.answers.open.push([asUri(after_)]);
    await stub.commands.executeCommand('nsysAi.diffProfiles');
    const call = rec.calls.filter((c) => c.method === 'nsys/diff').at(-1)!;
    assert.deepEqual(offered, ['Choose a file…'], 'the base is not offered again');
    assert.equal(call.params.baseProfileId, (await base.current()).profileId);
    assert.deepEqual(stub.record.messages, []);
    assert.ok(stub.record.panels.some((p) => p.viewType === 'nsysAi.diff'));
    await server.client.profileInfo((await base.current()).profileId); // the open one stays open
    base.dispose();
  });
});

describe('tree labels and the diff panel, pure', () => {
  const node: NvtxTreeNode = {
    id: 'x',
    kind: 'range',
    name: 'step',
    label: 'step',
    instances: 1200,
    wallNs: 2_500_000_000,
    gpuNs: 1_250_000,
    kernelCount: 1,
    startNs: 1000,
    endNs: 1000,
    hasChildren: false,
  };
  test('descriptions', () => {
    assert.equal(nodeDescription(node), '1.3 ms GPU · 1,200× · 1 kernel');
    assert.equal(nodeDescription({ ...node, kind: 'thread', kernelCount: 0 }), '1.3 ms GPU · 0 kernels');
    assert.equal(nodeTooltip(node), 'step\n1,200 instances, 2.500 s wall in all\n1.3 ms GPU time in 1 kernel');
  });
  test('the reveal window: a quarter each side, at least 1 µs, clipped to the profile', () => {
    assert.deepEqual(revealWindow({ startNs: 10_000, endNs: 10_400 }), { start: 9000, end: 11_400, clock: 'capture_ns' });
    assert.deepEqual(revealWindow({ startNs: 100_000, endNs: 500_000 }, { startNs: 50_000, endNs: 520_000 }), {
      start: 50_000,
      end: 520_000,
      clock: 'capture_ns',
    });
  });
  test('the diff panel escapes the server’s text and colours the verdict with the theme', () => {
    const result = {
      verdict: 'regressed',
      headline: { metric: 'median iteration time', baseNs: 100e6, newNs: 112e6, changePct: 12, noiseFloorPct: 1.5 },
      comparability: { score: 0.9, label: 'comparable', reasons: [] },
      kernels: [
        { name: '<k>', shortName: '<k>', presence: 'both', baseCalls: 10, newCalls: 10, baseTotalNs: 1, newTotalNs: 2, baseAvgNs: 1e6, newAvgNs: 2e6, perCallPct: 100, impactNs: 10e6, beyondNoise: true },
        { name: 'n', presence: 'both', baseCalls: 1, newCalls: 1, baseTotalNs: 1, newTotalNs: 1, impactNs: 5, beyondNoise: false },
      ],
      ranges: [],
      notes: [],
      basePath: '/a/before.sqlite',
      newPath: '/a/after.sqlite',
      answer: { summary: 'Slower.', markdown: '' },
      markdown: '',
    } as unknown as DiffResult;
    const html = renderDiffHtml(result, 'n0nce');
    assert.match(html, /<h1>before\.sqlite → after\.sqlite<\/h1>/);
    assert.match(html, /\.verdict\.regressed \{ color: var\(--vscode-errorForeground/);
    assert.match(html, /100\.0 ms → 112\.0 ms\n \(<span class="change regressed">\+12\.0%<\/span>\)/);
    assert.match(html, /&lt;k&gt;/);
    assert.doesNotMatch(html, /<k>/);
    assert.equal(regressions(result).length, 1, 'only rows beyond noise');
    assert.match(html, /\+10\.0 ms/);
    // A base that measured no time has no finite change: the server leaves changePct out.
    const { changePct: _unused, ...noChange } = result.headline!;
    const zero = renderDiffHtml({ ...result, headline: { ...noChange, baseNs: 0 } }, 'n0nce');
    assert.match(zero, /0 ns → 112\.0 ms\n \(<span class="change regressed">n\/a<\/span>\)/);
  });
});
