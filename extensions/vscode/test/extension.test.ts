// The extension's logic (profile editor, findings, hovers, commands, progress, the offer) against the vscode
// stand-in, with the REAL server behind it; nsys/analyze, nsys/explainKernel and nsys/ask come from the stand-in
// connection (test/standIn.ts) until the server has them.
import * as stub from './vscodeStub'; // first: makes require('vscode') resolve to the stand-in
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { after, before, beforeEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { registerCommands } from '../src/commands';
import { ProfileOffer, OPEN } from '../src/offer';
import { ProfileEditorProvider, VIEW_TYPE } from '../src/profileEditor';
import { ProfileDocument, ProfileRegistry, Services } from '../src/profiles';
import { NsysClient } from '../src/protocol/client';
import { FINDINGS, StandInConnection } from './standIn';
import { handleShowDocument, openInPerfetto } from '../src/perfetto';
import { fixturesDir, h100, RealServer, skipReason, startServer } from './realServer';

const qdrep = path.join(fixturesDir, 'realworld', 'rtx3090_pytorch_brainstorm_sample.qdrep');
const asUri = (p: string) => stub.Uri.file(p) as unknown as vscode.Uri;
const posted = (panel: stub.FakePanel, type: string) => panel.posted.filter((m) => (m as { type: string }).type === type);
const settle = () => new Promise((r) => setTimeout(r, 30));
async function waitFor(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('extension logic on the vscode stand-in, real server behind it', { skip: skipReason }, () => {
  let server: RealServer;
  let standIn: StandInConnection;
  let services: Services;
  let editor: ProfileEditorProvider;
  let restarts = 0;

  before(async () => {
    server = await startServer();
    standIn = new StandInConnection(server.conn);
    const client = new NsysClient(standIn); // no initialize capabilities: it asks and learns from -32601
    services = {
      client: async () => client,
      registry: new ProfileRegistry(),
    };
    editor = new ProfileEditorProvider(services);
    registerCommands({
      ...services,
      editor,
      secrets: { get: async () => undefined, store: async () => {}, delete: async () => {} } as never,
      restartServer: async () => void (restarts += 1),
    });
  });
  after(async () => assert.equal(await server.stop(), 0));
  beforeEach(() => {
    stub.reset();
    standIn.missing = false;
  });

  async function openView(file = h100): Promise<{ doc: ProfileDocument; panel: stub.FakePanel }> {
    const doc = editor.openCustomDocument(asUri(file));
    const panel = new stub.FakePanel(VIEW_TYPE, path.basename(file));
    await editor.resolveCustomEditor(doc, panel as never);
    await settle();
    return { doc, panel };
  }

  test('the profile view is rendered from the server’s answers, with the findings', async () => {
    const { doc, panel } = await openView();
    const html = panel.shown();
    assert.match(html, /<h1>h100_2gpu_1s\.sqlite<\/h1>/);
    assert.match(html, /969\.4 ms/, 'duration 969447605 ns');
    assert.match(html, /<li>GPU 0<\/li><li>GPU 1<\/li>/);
    assert.match(html, /data-kernel="sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8/);
    assert.match(html, /69\.4%/, 'top kernel share from top_kernels');
    assert.equal((html.match(/<figure class="util"/g) ?? []).length, 2, 'one utilisation chart per device');
    assert.equal((html.match(/<figure class="budget"/g) ?? []).length, 2, 'one time budget per device');
    assert.match(html, /<rect class="slice copy copy_htod" x="[0-9.]+" y="0" width="9[45][0-9.]*"/, 'the 95% HtoD slice');
    assert.equal((html.match(/<rect class="bar/g) ?? []).length, 200, '100 chunks per device');
    assert.match(html, /Content-Security-Policy/);
    assert.doesNotMatch(html, /style="/, 'no style attributes: the CSP admits only the nonce\'d <style>');
    const script = /<script nonce="[0-9a-f]+">([\s\S]*?)<\/script>/.exec(html)![1];
    assert.doesNotThrow(() => new vm.Script(script), 'the view\'s script compiles');
    assert.match(html, /Computing findings…/);
    assert.ok(progressTitles().some((t) => t.startsWith('Opening h100_2gpu_1s.sqlite')));
    // Findings arrive after the view, posted to the webview. The Problems panel is the server's (publishDiagnostics,
    // see protocol.test.ts): the extension publishes nothing itself, so findings are never listed twice.
    await waitFor(() => posted(panel, 'findings').length > 0, 'the findings');
    const findings = posted(panel, 'findings') as { html: string }[];
    assert.equal(findings.length, 1);
    assert.match(findings[0].html, /cudaStreamSynchronize stalls the host/);
    assert.match(findings[0].html, /<strong>244<\/strong>/, 'the Markdown is rendered');
    assert.doesNotMatch(findings[0].html, /<script>/, 'raw HTML from the server is escaped');
    doc.dispose();
  });

  // The view's page is set once, with what the open told (duration, devices) and every table computing;
  // each table is then posted into it as its answer arrives. Setting the page again per table reloads the webview
  // each time, which a real VS Code showed as the kernels appearing 0.5-3.5 s after their answer.
  test('the profile view paints the summary at once, then posts each table into it as it arrives', async () => {
    const { doc, panel } = await openView();
    const computing = (page: string) =>
      ['GPU operations', 'GPU activity', 'kernels', 'NVTX ranges'].filter((w) => page.includes(`Computing ${w}…`)).length;
    const pages = panel.pages.filter((p) => p.includes('<h1>h100_2gpu_1s.sqlite</h1>'));
    assert.equal(pages.length, 1, 'the view’s page is set once');
    assert.equal(computing(pages[0]), 4, 'the first paint has every table computing');
    assert.match(pages[0], /969\.4 ms/, 'and the duration the open read');
    assert.doesNotMatch(pages[0], /data-kernel=/);
    const sections = posted(panel, 'section') as { id: string; html: string }[];
    assert.deepEqual(sections.map((m) => m.id).sort(), ['budget', 'kernels', 'nvtx', 'utilisation'], 'each table once');
    assert.ok(sections.every((m) => !m.html.includes('Computing')));
    assert.match(sections.find((m) => m.id === 'kernels')!.html, /data-kernel="sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8/);
    assert.equal(computing(panel.shown()), 0);
    assert.match(panel.shown(), /<div id="kernels-body"><table[\s\S]*69\.4%/);
    doc.dispose();
  });

  // A slow open (a first load of a large export, a report's conversion) shows "Opening profile…" until the view's page
  // replaces it; a fast one goes straight to the view (the interim page would be one more page load before it).
  test('a slow open shows "Opening profile…" first, then the view', async () => {
    const slow = new ProfileEditorProvider({
      client: async () => {
        await new Promise((r) => setTimeout(r, 400));
        return services.client();
      },
      registry: services.registry,
    });
    const doc = slow.openCustomDocument(asUri(h100));
    const panel = new stub.FakePanel(VIEW_TYPE, 'h100');
    await slow.resolveCustomEditor(doc, panel as never);
    await settle();
    assert.match(panel.pages[0], /Opening profile…/);
    assert.equal(panel.pages.length, 2, 'the interim page, then the view’s page');
    assert.match(panel.pages[1], /<h1>h100_2gpu_1s\.sqlite<\/h1>/);
    assert.match(panel.shown(), /data-kernel="sm80_xmma_gemm/);
    doc.dispose();
  });

  // A .qdrep (what Nsight Systems wrote until 2021.1) is a report like a .nsys-rep: the server converts it
  // with the installed nsys and the view shows its numbers; one that is not a report shows the server's plain words.
  test('a .qdrep report opens in the profile view', { skip: fs.existsSync(qdrep) ? undefined : `no ${qdrep}` }, async () => {
    const { doc, panel } = await openView(qdrep);
    const html = panel.shown();
    assert.match(html, /<h1>rtx3090_pytorch_brainstorm_sample\.qdrep<\/h1>/);
    assert.match(html, /NVIDIA GeForce RTX 3090/);
    assert.match(html, /data-kernel="sample/, 'its kernels, from the converted export');
    doc.dispose();

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-qdrep-'));
    const fake = path.join(dir, 'notes.qdrep');
    fs.writeFileSync(fake, 'meeting notes, not a profile\n');
    try {
      const bad = await openView(fake);
      assert.match(bad.panel.webview.html, /is not an Nsight Systems report: it does not start with a report(’|&#39;|')s header/);
      bad.doc.dispose();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('hovering a kernel posts nsys/explainKernel’s Markdown as HTML', async () => {
    const { doc, panel } = await openView();
    const kernel = /data-kernel="([^"]+)"/.exec(panel.shown())![1];
    await panel.receive({ type: 'explainKernel', kernel });
    const [reply] = posted(panel, 'kernelExplanation') as { kernel: string; html: string }[];
    assert.equal(reply.kernel, kernel);
    assert.match(reply.html, /<em>GEMM<\/em> kernel from cuBLAS/);
    const call = standIn.calls.find((c) => c.method === 'nsys/explainKernel')!;
    assert.deepEqual(call.params, { profileId: (await doc.current()).profileId, kernel });
    doc.dispose();
  });

  test('a server without the new methods (-32601) hides findings and hovers instead of failing', async () => {
    const fresh = new NsysClient(standIn);
    standIn.missing = true;
    const local: Services = { ...services, client: async () => fresh };
    const ed = new ProfileEditorProvider(local);
    const doc = ed.openCustomDocument(asUri(h100));
    const panel = new stub.FakePanel(VIEW_TYPE, 'x');
    await ed.resolveCustomEditor(doc, panel as never);
    await waitFor(() => posted(panel, 'findings').length > 0, 'the findings message');
    assert.deepEqual(posted(panel, 'findings'), [{ type: 'findings', hidden: true }]);
    await panel.receive({ type: 'explainKernel', kernel: 'k' });
    assert.deepEqual(posted(panel, 'kernelExplanation'), [{ type: 'kernelExplanation', kernel: 'k', unsupported: true }]);
    // Reopened: the client remembers, the section is not even rendered, and nothing is asked again.
    const asked = standIn.calls.length;
    const panel2 = new stub.FakePanel(VIEW_TYPE, 'y');
    await ed.resolveCustomEditor(doc, panel2 as never);
    assert.doesNotMatch(panel2.webview.html, /id="findings"/);
    assert.equal(standIn.calls.length, asked);
    assert.deepEqual(stub.record.messages.filter((m) => m.level === 'error'), []);
    doc.dispose();
  });

  test('a file that is not an export shows the server’s error in the view', async () => {
    const bad = path.join(os.tmpdir(), `nsys-ai-vscode-${process.pid}.sqlite`);
    fs.writeFileSync(bad, 'not a database');
    try {
      const { doc, panel } = await openView(bad);
      assert.match(panel.webview.html, /Could not open the profile/);
      assert.match(panel.webview.html, /not an Nsight Systems export|not a database|SQLite/i);
      doc.dispose();
    } finally {
      fs.rmSync(bad);
    }
  });

  test('Open in Perfetto asks the server, then asExternalUri + openExternal, afresh each time', async () => {
    const { doc } = await openView();
    await stub.commands.executeCommand('nsysAi.openInPerfetto', doc.uri);
    await stub.commands.executeCommand('nsysAi.openInPerfetto', doc.uri);
    assert.equal(stub.record.asExternalUri.length, 2, 'resolved for each open, never cached');
    for (const [i, asked] of stub.record.asExternalUri.entries()) {
      assert.match(asked, /^http:\/\/127\.0\.0\.1:\d+\/$/, 'only the origin goes through asExternalUri');
      const opened = stub.record.openExternal[i];
      assert.match(opened, /^http:\/\/localhost:\d+\/p\/[0-9a-f]+\/$/, 'the page’s path behind the forwarded authority');
    }
    assert.notEqual(stub.record.openExternal[0], stub.record.openExternal[1]);
    doc.dispose();
  });

  test('the server’s window/showDocument opens through asExternalUri + openExternal too', async () => {
    const other = await startServer({}, { window: { showDocument: { support: true } } });
    try {
      const shown: string[] = [];
      other.conn.onRequest('window/showDocument', (params: { uri: string; external?: boolean }) => {
        shown.push(params.uri);
        return handleShowDocument(params, async () => ({ success: false }));
      });
      const { profileId } = await other.client.openProfile(h100);
      const result = await other.client.openInPerfetto(profileId);
      assert.equal(result.showDocument, true);
      await waitFor(() => stub.record.openExternal.length === 1, 'the browser to open');
      assert.deepEqual(shown, [result.url]);
      assert.deepEqual(stub.record.asExternalUri, [`${new URL(result.url).origin}/`]);
      assert.match(stub.record.openExternal[0], /^http:\/\/localhost:\d+\/p\/[0-9a-f]+\/$/);
    } finally {
      assert.equal(await other.stop(), 0);
    }
  });

  // code-server (VS Code for the web) answers asExternalUri with its port proxy's root and drops the path,
  // which opened "Not found". A proxy that forwards /proxy/PORT/REST to 127.0.0.1:PORT/REST, as code-server's does:
  // the page opened is the opener page, and the trace it fetches relatively is the server's.
  test('Open in Perfetto through a web port proxy opens the opener page, whose trace is the published one', async () => {
    const proxy = http.createServer((req, res) => {
      const m = /^\/proxy\/(\d+)(\/.*)?$/.exec(req.url ?? '');
      if (!m) return void res.writeHead(404).end('Not found');
      const up = http.get({ host: '127.0.0.1', port: Number(m[1]), path: m[2] ?? '/' }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.writeHead(502).end());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      stub.forwarding.webProxy = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      const { doc } = await openView();
      const result = await openInPerfetto(await services.client(), { profileId: (await doc.current()).profileId });
      const opened = stub.record.openExternal[0];
      assert.equal(opened, `${stub.forwarding.webProxy}/proxy/${new URL(result.url).port}${new URL(result.url).pathname}`);
      const page = await fetch(opened);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /trace\.pftrace/, 'the opener page, which fetches the trace relatively');
      const trace = await fetch(new URL('trace.pftrace', opened));
      assert.equal(trace.status, 200);
      const digest = crypto.createHash('sha256').update(Buffer.from(await trace.arrayBuffer())).digest('hex');
      assert.equal(digest, result.sha256);
      doc.dispose();
    } finally {
      proxy.close();
    }
  });

  test('after a server restart, a profile is opened again on the new server', async () => {
    let client = new NsysClient(standIn);
    const local: Services = { ...services, client: async () => client };
    const doc = new ProfileDocument(asUri(h100), local);
    const first = await doc.current();
    assert.equal((await doc.current()).profileId, first.profileId, 'one open per server');
    client = new NsysClient(standIn); // what ServerSession hands out after a restart
    const second = await doc.current();
    assert.notEqual(second.profileId, first.profileId);
    assert.equal(second.info.durationNs, first.info.durationNs);
    assert.equal(stub.record.progress.filter((p) => p.title === 'Opening h100_2gpu_1s.sqlite').length, 2);
    doc.dispose();
    await settle();
    await assert.rejects(client.profileInfo(second.profileId), /no open profile has id/, 'closed with the document');
  });

  test('Run Skill: quick pick from nsys/listSkills, arguments prompted, result as a table', async () => {
    const { doc } = await openView();
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'top_kernels'));
    // top_kernels' args in order: base (bool), limit (int), per_device (bool), by_launch_config (bool)
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'true'));
    stub.answers.input.push('3');
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'false'));
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'false'));
    await stub.commands.executeCommand('nsysAi.runSkill', doc.uri);
    const panel = stub.record.panels.find((p) => p.viewType === 'nsysAi.skill')!;
    assert.match(panel.title, /^top_kernels · h100_2gpu_1s\.sqlite$/);
    assert.equal((panel.webview.html.match(/<tr tabindex="0">/g) ?? []).length, 3);
    assert.match(panel.webview.html, /<td class="n">31121662<\/td>/, 'the top kernel’s total, as the server gave it');
    assert.ok(stub.record.progress.some((p) => p.title === 'Running top_kernels'));
    doc.dispose();
  });

  test('server errors are shown as they are', async () => {
    const { doc } = await openView();
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'nvtx_summary'));
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'false'));
    stub.answers.input.push('-1');
    await stub.commands.executeCommand('nsysAi.runSkill', doc.uri);
    assert.deepEqual(
      stub.record.messages.filter((m) => m.level === 'error').map((m) => m.text),
      ["Argument 'limit' of skill 'nvtx_summary' must be at least 0, got -1."],
    );
    doc.dispose();
  });

  test('argument input is checked for its type before it is sent', async () => {
    const { doc } = await openView();
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'nvtx_summary'));
    stub.answers.quickPick.push((items: { label: string }[]) => items.find((i) => i.label === 'false'));
    stub.answers.input.push('lots');
    await stub.commands.executeCommand('nsysAi.runSkill', doc.uri);
    assert.deepEqual(stub.record.inputs[0].validation, ['limit takes a whole number.']);
    assert.equal(stub.record.panels.filter((p) => p.viewType === 'nsysAi.skill').length, 0);
    doc.dispose();
  });

  test('Analyze: the findings counted, the Problems panel shown; cancelling shows nothing', async () => {
    // The view asks for its own findings too, with no progress token, at a time of its own: the command's request is
    // the one with the token, whichever comes first.
    const before = standIn.calls.length;
    const commandCalls = () =>
      standIn.calls.slice(before).filter((c) => c.method === 'nsys/analyze' && c.params.workDoneToken !== undefined);
    const { doc } = await openView();
    await stub.commands.executeCommand('nsysAi.analyze', doc.uri);
    assert.deepEqual(
      stub.record.messages.map((m) => m.text),
      [`nsys-ai: ${FINDINGS.length} findings (see the Problems panel).`],
    );
    assert.ok(stub.record.executed.some((e) => e.command === 'workbench.actions.view.problems'));
    assert.equal(commandCalls().length, 1, `one request with a token in ${JSON.stringify(standIn.calls.slice(before))}`);
    assert.match(String(commandCalls()[0].params.workDoneToken), /^nsys-ai-vscode-progress-/);
    assert.equal(commandCalls()[0].params.profileId, (await doc.current()).profileId);
    stub.reset();
    stub.progressControl.cancelNext = true;
    await stub.commands.executeCommand('nsysAi.analyze', doc.uri);
    assert.deepEqual(stub.record.messages, [], 'a cancelled request shows no error');
    doc.dispose();
  });

  test('Ask streams the partial text into its panel, then the final answer; follow-ups keep the conversation', async () => {
    const { doc } = await openView();
    stub.answers.input.push('Is the GPU busy?');
    await stub.commands.executeCommand('nsysAi.ask', doc.uri);
    const panel = stub.record.panels.find((p) => p.viewType === 'nsysAi.ask')!;
    assert.deepEqual(posted(panel, 'question'), [{ type: 'question', id: 1, question: 'Is the GPU busy?' }]);
    const answers = posted(panel, 'answer') as { id: number; html: string; done: boolean }[];
    assert.deepEqual(
      answers.map((a) => [a.id, a.done]),
      [[1, false], [1, false], [1, false], [1, true]],
    );
    assert.match(answers[0].html, /The GPU/);
    assert.match(answers[1].html, /<strong>busy<\/strong>/);
    assert.match(answers[3].html, /<p>The GPU is <strong>busy<\/strong> 99% of the time\.<\/p>/);
    const first = standIn.calls.filter((c) => c.method === 'nsys/ask').at(-1)!;
    assert.equal(first.params.question, 'Is the GPU busy?');
    assert.equal(first.params.profileId, (await doc.current()).profileId);
    assert.equal(first.params.conversationId, undefined);
    assert.match(String(first.params.partialResultToken), /^nsys-ai-vscode-partial-/);
    await panel.receive({ type: 'ask', question: ' and on device 1? ' });
    const second = standIn.calls.filter((c) => c.method === 'nsys/ask').at(-1)!;
    assert.equal(second.params.question, 'and on device 1?');
    assert.match(String(second.params.conversationId), /^c\d+$/, 'the id the server returned first');
    assert.equal((posted(panel, 'answer') as { id: number }[]).at(-1)!.id, 2);
    doc.dispose();
  });

  test('findings streamed as partial results fill the view as they come', async () => {
    standIn.streamFindings = true;
    try {
      const { doc, panel } = await openView();
      await waitFor(() => posted(panel, 'findings').length >= 3, 'three findings updates');
      await settle();
      const updates = posted(panel, 'findings') as { html: string }[];
      assert.equal(updates.length, 3, 'one update per streamed finding, then the final one');
      assert.equal((updates[0].html.match(/<li class="finding/g) ?? []).length, 1);
      assert.equal((updates[2].html.match(/<li class="finding/g) ?? []).length, 2);
      doc.dispose();
    } finally {
      standIn.streamFindings = false;
    }
  });

  test('Export Trace writes where the user chose and says so', async () => {
    const { doc } = await openView();
    const out = path.join(os.tmpdir(), `nsys-ai-vscode-${process.pid}.pftrace`);
    stub.answers.save.push(asUri(out));
    try {
      await stub.commands.executeCommand('nsysAi.exportTrace', doc.uri);
      assert.ok(fs.statSync(out).size > 0);
      const info = stub.record.messages.find((m) => m.level === 'info')!;
      assert.match(info.text, new RegExp(`\\(3442 kernels\\) to ${out.replace(/[.]/g, '\\.')}\\.$`));
    } finally {
      fs.rmSync(out, { force: true });
    }
    doc.dispose();
  });

  test('Open Profile opens the chosen file with the profile editor', async () => {
    stub.answers.open.push([asUri(h100)]);
    await stub.commands.executeCommand('nsysAi.openProfile');
    const call = stub.record.executed.find((e) => e.command === 'vscode.openWith')!;
    assert.equal(String(call.args[0]), `file://${h100}`);
    assert.equal(call.args[1], VIEW_TYPE);
  });

  test('commands with no open profile say how to open one', async () => {
    await stub.commands.executeCommand('nsysAi.analyze');
    assert.match(stub.record.messages[0].text, /Open an Nsight profile first/);
  });

  function progressTitles(): string[] {
    return stub.record.progress.map((p) => p.title);
  }
});

describe('the "Open as Nsight profile" offer', () => {
  beforeEach(() => stub.reset());

  test('offered once for an Nsight export opened in another editor', async () => {
    const offer = new ProfileOffer();
    const uri = asUri(h100);
    stub.answers.message.push(OPEN);
    await offer.onTabsOpened([{ input: new stub.TabInputCustom(uri as never, 'qwtel.sqlite-viewer') } as never]);
    assert.equal(stub.record.messages.length, 1);
    assert.deepEqual(stub.record.messages[0].items, ['Open as Nsight profile', "Don't ask again"]);
    assert.deepEqual(stub.record.executed[0], { command: 'vscode.openWith', args: [uri, VIEW_TYPE] });
    await offer.onTabsOpened([{ input: new stub.TabInputText(uri as never) } as never]);
    assert.equal(stub.record.messages.length, 1, 'only once per file');
  }, );

  test('not offered for our own editor, other SQLite files, or after "Don\'t ask again"', async () => {
    const offer = new ProfileOffer();
    await offer.onTabsOpened([{ input: new stub.TabInputCustom(asUri(h100) as never, VIEW_TYPE) } as never]);
    const plain = path.join(os.tmpdir(), `plain-${process.pid}.sqlite`);
    fs.writeFileSync(plain, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096)]));
    try {
      await offer.consider(asUri(plain));
    } finally {
      fs.rmSync(plain);
    }
    assert.equal(stub.record.messages.length, 0);
    stub.answers.message.push("Don't ask again");
    await offer.consider(asUri(h100));
    assert.deepEqual(stub.record.configUpdates, [{ key: 'nsysAi.offerToOpenProfiles', value: false }]);
    await new ProfileOffer().consider(asUri(h100));
    assert.equal(stub.record.messages.length, 1);
  });
});

// The manifest treats .qdrep as it treats .nsys-rep: the custom editor, activation and the explorer menus.
test('the manifest routes .qdrep reports wherever it routes .nsys-rep', () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
  assert.ok(manifest.activationEvents.includes('workspaceContains:**/*.qdrep'));
  const patterns = manifest.contributes.customEditors[0].selector.map((s: { filenamePattern: string }) => s.filenamePattern);
  assert.deepEqual(patterns, ['*.sqlite', '*.nsys-rep', '*.qdrep']);
  const when = (command: string) =>
    manifest.contributes.menus['explorer/context'].find((m: { command: string }) => m.command === command).when as string;
  assert.match(when('nsysAi.openAsProfile'), /resourceExtname == \.qdrep/);
  const diff = when('nsysAi.diffProfiles').match(/=~ \/(.*)\/$/)![1];
  for (const ext of ['.sqlite', '.nsys-rep', '.qdrep']) assert.match(ext, new RegExp(diff), ext);
});
