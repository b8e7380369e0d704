// The source mapping in the extension: the NVTX coverage in the status bar and the profile view, Suggest NVTX
// Refinements and the kernel links of source hovers, on the vscode stand-in with the REAL server behind it (its source
// set: the C++ test data in test/data/nvfuser, whose scope macros name ranges of h200_nvfuser_nvtx.sqlite).
//
// h200_nvfuser_nvtx.sqlite's coverage, from sqlite3 (/ Python over it): 18 kernels, 10167602 ns of GPU time; a kernel
// belongs to the innermost push/pop range (eventType 59) on its launching call's thread that holds the call's start
// (runtime call joined by (pid, correlationId)). ExecutorRunFusion::cuLaunchKernel: 6 instances, each launching one
// kernel, 3131549 ns; KernelExecutor::runFusion::intermediates: one of its 6 instances launches 2 kernels (2848 ns,
// two vectorized_elementwise_kernel). Mapped one kernel per call: 3131549 / 10167602 = 30.8 %.
import * as stub from './vscodeStub'; // first: makes require('vscode') resolve to the stand-in
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { registerCommands } from '../src/commands';
import { CoverageStatus } from '../src/coverage';
import { ProfileEditorProvider, VIEW_TYPE } from '../src/profileEditor';
import { ProfileDocument, ProfileRegistry, Services } from '../src/profiles';
import { fixturesDir, RealServer, skipReason, startServer } from './realServer';

const h200 = path.join(fixturesDir, 'h200_nvfuser_nvtx.sqlite');
const nvfuserDir = path.resolve(__dirname, '..', '..', 'test', 'data', 'nvfuser');
const launch = path.join(nvfuserDir, 'launch.cpp');
const asUri = (p: string) => stub.Uri.file(p) as unknown as vscode.Uri;

async function waitFor(cond: () => boolean, what: string, ms = 20000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('source coverage, annotation plans and kernel links in the extension (real server)', { skip: skipReason }, () => {
  let server: RealServer;
  let services: Services;
  let editor: ProfileEditorProvider;

  before(async () => {
    server = await startServer({}, {}, { workspaceFolders: [{ uri: `file://${nvfuserDir}`, name: 'nvfuser' }] });
    services = { client: async () => server.client, registry: new ProfileRegistry() };
    editor = new ProfileEditorProvider(services);
    registerCommands({
      ...services,
      editor,
      secrets: { get: async () => undefined, store: async () => {}, delete: async () => {} } as never,
      restartServer: async () => {},
    });
  });
  after(async () => assert.equal(await server.stop(), 0));
  beforeEach(() => stub.reset());

  // mappingCoverage (nsys/profileInfo) and nsys/annotationPlan: a server without them fails these tests.
  const coverageReported = async () => {
    const probe = await server.client.openProfile(h200);
    await server.client.closeProfile(probe.profileId);
    return 'mappingCoverage' in probe;
  };

  test('the status bar follows the shown profile’s NVTX coverage', async () => {
    if (!(await coverageReported())) assert.fail('the server does not report mappingCoverage');
    const status = new CoverageStatus(services);
    const doc = editor.openCustomDocument(asUri(h200)); // registry.add: the shown profile changes
    try {
      await waitFor(() => status.item.text.includes('%'), 'the coverage in the status bar');
      assert.equal(status.item.text, '$(symbol-ruler) NVTX coverage 30.8 %');
      assert.match(String(status.item.tooltip), /^3\.1 ms of 10\.2 ms kernel time/);
      assert.equal(status.item.command, 'nsysAi.suggestRefinements');
      assert.ok((status.item as unknown as stub.FakeStatusBarItem).visible);
      const { mappingCoverage } = await server.client.profileInfo((await doc.current()).profileId);
      assert.deepEqual(mappingCoverage, { share: 3131549 / 10167602, mappedNs: 3131549, kernelNs: 10167602 });
    } finally {
      doc.dispose();
    }
    await waitFor(() => !(status.item as unknown as stub.FakeStatusBarItem).visible, 'hidden with no profile shown');
    status.dispose();
  });

  test('the profile view’s summary has the coverage card', async () => {
    if (!(await coverageReported())) assert.fail('the server does not report mappingCoverage');
    const doc = editor.openCustomDocument(asUri(h200));
    const panel = new stub.FakePanel(VIEW_TYPE, 'h200');
    await editor.resolveCustomEditor(doc, panel as never);
    const card = () =>
      /<div class="card" id="coverage">([\s\S]*?)<\/div>\n/.exec(panel.webview.html)?.[1] +
      panel.posted
        .filter((m) => (m as { type: string }).type === 'coverage')
        .map((m) => (m as { html: string }).html)
        .join('');
    await waitFor(() => card().includes('30.8 %'), 'the coverage card');
    assert.match(card(), /3\.1 ms of 10\.2 ms kernel time maps 1:1/);
    doc.dispose();
  });

  test('Suggest NVTX Refinements: the plan in a quick pick; choosing an item applies its edit', async () => {
    if (!server.client.supports('nsys/annotationPlan')) assert.fail('the server has no nsys/annotationPlan');
    const doc = editor.openCustomDocument(asUri(h200));
    let offered: { label: string; description: string; detail: string }[] = [];
    stub.answers.quickPick.push((items: { label: string; description: string; detail: string }[]) => {
      offered = items;
      return items.find((i) => i.label === 'KernelExecutor::runFusion::intermediates');
    });
    stub.answers.message.push('Copy Command');
    await stub.commands.executeCommand('nsysAi.suggestRefinements', doc.uri);
    const item = offered.find((i) => i.label === 'KernelExecutor::runFusion::intermediates');
    assert.ok(item, `the plan names the range that launches 2 kernels: ${JSON.stringify(offered)}`);
    assert.match(item.description, /^2\.8 µs GPU · /, '2848 ns (sqlite3)');
    assert.match(item.description, /launch\.cpp:21/);
    // The server's edit, converted as it is: nested scopes in launch.cpp, nothing else.
    assert.equal(stub.record.appliedEdits.length, 1);
    const edits = stub.record.appliedEdits[0].edits;
    assert.ok(edits.length > 0);
    assert.ok(edits.every((e) => e.uri.toString() === `file://${launch}`));
    assert.ok(edits.some((e) => e.newText.includes('KernelExecutor::runFusion::intermediates/')), 'named X/<callee>');
    assert.deepEqual(stub.record.shownDocuments.map((d) => [d.uri, d.selection?.line]), [[`file://${launch}`, 20]]);
    const done = stub.record.messages.find((m) => m.text.startsWith('nsys-ai added NVTX ranges'))!;
    assert.match(done.text, /nsys profile .*&& nsys export --type sqlite/);
    assert.match(stub.record.clipboard[0], /^nsys profile /);
    doc.dispose();
  });

  test('a kernel link of a source hover opens its explanation with the source line that launches it', async () => {
    const doc = editor.openCustomDocument(asUri(h200));
    const { profileId } = await doc.current();
    await stub.commands.executeCommand('nsysAi.explainKernel', profileId, 'nvfuser_pointwise_f0_c1_r0_g0');
    const panel = stub.record.panels.find((p) => p.viewType === 'nsysAi.kernel')!;
    assert.ok(panel, 'a kernel panel');
    assert.match(panel.webview.html, /nvfuser_pointwise_f0_c1_r0_g0/);
    assert.match(panel.webview.html, /data-uri="file:\/\/[^"]*launch\.cpp/, 'the source line as a link');
    await panel.receive({ type: 'openSource', uri: `file://${launch}#L16`, line: -1 });
    const shown = stub.record.shownDocuments.at(-1)!;
    assert.deepEqual([shown.uri, shown.selection?.line, shown.selection?.character], [`file://${launch}`, 15, 0]);
    doc.dispose();
  });
});
