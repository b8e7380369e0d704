// The bundle VS Code loads (dist/extension.js, built by esbuild) activates and registers every command and the
// custom editor its manifest declares, without starting the server (it starts on first use).
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
  assert.deepEqual(stub.registeredCommands().sort(), declared);
  assert.deepEqual(
    stub.record.customEditors,
    manifest.contributes.customEditors.map((e: { viewType: string }) => e.viewType),
  );
  assert.equal(manifest.contributes.customEditors[0].priority, 'option');
  assert.deepEqual(manifest.extensionKind, ['workspace']);
  for (const s of subscriptions) s.dispose();
});
