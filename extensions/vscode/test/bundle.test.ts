// The bundle VS Code loads (dist/extension.js, built by esbuild) activates and registers every command, the custom
// editor and the tree view its manifest declares, without starting the server (it starts on first use), and the
// job commands' former ids (a job was called a run), which the manifest does not contribute.
import * as stub from './vscodeStub';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '..', '..');

test('dist/extension.js activates and registers what package.json declares', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const extension = require(path.join(root, 'dist', 'extension.js'));
  const subscriptions: { dispose(): void }[] = [];
  extension.activate({ subscriptions, secrets: { get: async () => undefined } });
  const declared = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  const former = ['nsysAi.analyzeRun', 'nsysAi.openRun', 'nsysAi.openRunInPerfetto', 'nsysAi.setRunRanksPerNode'];
  assert.deepEqual(stub.registeredCommands().sort(), [...declared, ...former].sort());
  for (const id of former) {
    assert.ok(!declared.includes(id), `${id}: registered, out of the palette`);
    assert.ok(manifest.activationEvents.includes(`onCommand:${id}`), `${id} activates the extension`);
  }
  for (const id of ['nsysAi.openJob', 'nsysAi.analyzeJob', 'nsysAi.openJobInPerfetto', 'nsysAi.setJobRanksPerNode']) {
    assert.ok(declared.includes(id), id);
  }
  assert.deepEqual(
    stub.record.customEditors,
    manifest.contributes.customEditors.map((e: { viewType: string }) => e.viewType),
  );
  assert.equal(manifest.contributes.customEditors[0].priority, 'option');
  // The NVTX tree: the view the manifest declares is created; its menus name declared commands only.
  assert.deepEqual(stub.record.treeViews, manifest.contributes.views.explorer.map((v: { id: string }) => v.id));
  assert.deepEqual(stub.record.treeViews, ['nsysAi.nvtxTree']);
  const menuCommands = Object.values(manifest.contributes.menus).flatMap((m) => (m as { command: string }[]).map((e) => e.command));
  for (const c of menuCommands) assert.ok(declared.includes(c), c);
  // Findings reach the Problems panel through the server's publishDiagnostics and the language client's own
  // collection: the extension makes none, so nothing is listed twice.
  assert.equal(stub.diagnosticCollections.count, 0);
  assert.deepEqual(manifest.extensionKind, ['workspace']);
  for (const s of subscriptions) s.dispose();
});
