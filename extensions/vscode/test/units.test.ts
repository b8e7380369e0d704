// Small pure parts: the server path, the export sniffing, initialization options, formatting.
import './vscodeStub';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseArgValue, validateArgInput } from '../src/commands';
import { buildInitializationOptions } from '../src/protocol/client';
import { resolveServerPath } from '../src/serverPath';
import { KEY_ENV, llmSettings } from '../src/settings';
import { looksLikeNsightExport } from '../src/sniff';
import { formatNs } from '../src/view/format';
import { fixturesDir } from './realServer';
import * as stub from './vscodeStub';

describe('server path', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-path-'));
  const exe = path.join(dir, 'nsys-ai');
  fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });

  test('found on PATH', () => {
    assert.deepEqual(resolveServerPath('nsys-ai', `/nonexistent${path.delimiter}${dir}`), { ok: true, path: exe });
  });
  test('missing from PATH: the message says how to fix it', () => {
    const r = resolveServerPath('', '/nonexistent');
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.match(r.message, /"nsys-ai" was not found on PATH/);
      assert.match(r.message, /set "nsysAi\.serverPath" to its absolute path/);
    }
  });
  test('an absolute path that is not executable', () => {
    const plain = path.join(dir, 'plain');
    fs.writeFileSync(plain, '', { mode: 0o644 });
    const r = resolveServerPath(plain, '');
    assert.ok(!r.ok && /is not an executable file/.test(r.message));
    const gone = resolveServerPath(path.join(dir, 'gone'), '');
    assert.ok(!gone.ok && /does not exist/.test(gone.message));
  });
});

describe('initialization options', () => {
  test('only the LLM settings that are set, trimmed; never a key', () => {
    assert.deepEqual(buildInitializationOptions({ provider: ' openai ', model: '', baseUrl: undefined, apiKeyEnv: 'K' }), {
      llm: { provider: 'openai', apiKeyEnv: 'K' },
    });
    assert.deepEqual(buildInitializationOptions({}), {});
  });
  test('a key in SecretStorage is named through apiKeyEnv unless the settings name a variable', () => {
    const config = stub.workspace.getConfiguration('nsysAi') as never;
    assert.equal(llmSettings(config, true).apiKeyEnv, KEY_ENV);
    assert.equal(llmSettings(config, false).apiKeyEnv, '');
    stub.settings.set('nsysAi.llm.apiKeyEnv', 'MY_KEY');
    assert.equal(llmSettings(config, true).apiKeyEnv, 'MY_KEY');
    stub.settings.clear();
  });
});

describe('Nsight export sniffing', () => {
  test('every shared .sqlite fixture is recognised', { skip: !fs.existsSync(fixturesDir) }, async () => {
    const files = fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.sqlite'));
    assert.ok(files.length >= 5);
    for (const f of files) assert.equal(await looksLikeNsightExport(path.join(fixturesDir, f)), true, f);
  });
  test('a text file, an empty SQLite header and a missing file are not', async () => {
    const tmp = path.join(os.tmpdir(), `sniff-${process.pid}`);
    fs.writeFileSync(tmp, 'StringIds TARGET_INFO_ but no header');
    assert.equal(await looksLikeNsightExport(tmp), false);
    fs.writeFileSync(tmp, 'SQLite format 3\0');
    assert.equal(await looksLikeNsightExport(tmp), false);
    fs.rmSync(tmp);
    assert.equal(await looksLikeNsightExport(tmp), false);
  });
});

describe('skill argument input', () => {
  const limit = { name: 'limit', type: 'int' as const };
  test('typed values, empty keeps the default', () => {
    assert.equal(parseArgValue(limit, ' 5 '), 5);
    assert.equal(parseArgValue(limit, ''), undefined);
    assert.equal(parseArgValue({ name: 'b', type: 'bool' }, 'true'), true);
    assert.equal(parseArgValue({ name: 's', type: 'double' }, '0.5'), 0.5);
    assert.equal(validateArgInput(limit, '1.5'), 'limit takes a whole number.');
    assert.equal(validateArgInput({ name: 'x', type: 'string', required: true }, ''), 'x is required.');
  });
});

describe('formatting', () => {
  test('times', () => {
    assert.equal(formatNs(969447605), '969.4 ms');
    assert.equal(formatNs(125490.6), '125.5 µs');
    assert.equal(formatNs(812), '812 ns');
    assert.equal(formatNs(2.5e9), '2.500 s');
  });
});
