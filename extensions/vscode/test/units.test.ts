// Small pure parts: the server path, the export sniffing, initialization options, formatting.
import './vscodeStub';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseArgValue, validateArgInput } from '../src/commands';
import { buildInitializationOptions, mappingCoverageOf } from '../src/protocol/client';
import { coverageLabel } from '../src/coverage';
import { editSize, toWorkspaceEdit } from '../src/edits';
import { REVEAL_RANGE_COMMAND, rewriteExplainLinks, SOURCE_GLOB, sourceDocumentSelector } from '../src/sources';
import { kernelSourcesHtml } from '../src/view/html';
import { parseFileLink, renderMarkdown } from '../src/view/markdown';
import { locateServer } from '../src/locateServer';
import { resolveServerPath, standardServerDirs } from '../src/serverPath';
import { KEY_ENV, llmKey, llmSettings, ranksPerNodeSetting } from '../src/settings';
import { looksLikeNsightExport } from '../src/sniff';
import { formatNs, formatShare } from '../src/view/format';
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
  // The first run finds a build that is not on the extension host's PATH in the standard places, after PATH;
  // a workspace's build/ only when the workspace is trusted.
  test('not on PATH: found in ~/.local/bin, then in a trusted workspace folder’s build/', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-home-'));
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-ws-'));
    fs.mkdirSync(path.join(folder, 'build'));
    const built = path.join(folder, 'build', 'nsys-ai');
    fs.writeFileSync(built, '#!/bin/sh\n', { mode: 0o755 });
    const trusted = standardServerDirs([folder], true, home);
    assert.deepEqual(trusted, [path.join(home, '.local', 'bin'), path.join(folder, 'build')]);
    assert.deepEqual(resolveServerPath('nsys-ai', '/nonexistent', trusted), { ok: true, path: built });
    assert.deepEqual(resolveServerPath('nsys-ai', dir, trusted), { ok: true, path: exe }, 'PATH first');
    fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    const local = path.join(home, '.local', 'bin', 'nsys-ai');
    fs.writeFileSync(local, '#!/bin/sh\n', { mode: 0o755 });
    assert.deepEqual(resolveServerPath('nsys-ai', '/nonexistent', trusted), { ok: true, path: local });
    fs.rmSync(local);
    const untrusted = standardServerDirs([folder], false, home);
    assert.deepEqual(untrusted, [path.join(home, '.local', 'bin')], 'an untrusted folder’s binary is never run');
    const r = resolveServerPath('nsys-ai', '/nonexistent', untrusted);
    assert.ok(!r.ok && r.message.includes(`was not found on PATH nor in ${path.join(home, '.local', 'bin')}.`), JSON.stringify(r));
  });
  test('Locate nsys-ai…: the picked executable is written to the user’s nsysAi.serverPath; anything else is refused', async () => {
    stub.reset();
    const plain = path.join(dir, 'not-exec');
    fs.writeFileSync(plain, '', { mode: 0o644 });
    stub.answers.open.push([stub.Uri.file(plain)], [stub.Uri.file(exe)], undefined);
    assert.equal(await locateServer(), undefined);
    assert.match(stub.record.messages[0].text, /is not an executable file/);
    assert.equal(await locateServer(), exe);
    assert.deepEqual(stub.record.configUpdates, [{ key: 'nsysAi.serverPath', value: exe }]);
    assert.equal(await locateServer(), undefined, 'cancelled: nothing written');
    assert.equal(stub.record.configUpdates.length, 1);
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
  test('the key goes to the server as KEY_ENV: from SecretStorage, or from the variable the settings name', () => {
    const config = stub.workspace.getConfiguration('nsysAi') as never;
    assert.equal(llmKey(config, 'sk-secret', {}), 'sk-secret');
    assert.equal(llmKey(config, undefined, {}), undefined);
    assert.equal(llmSettings(config, true).apiKeyEnv, KEY_ENV);
    assert.equal(llmSettings(config, false).apiKeyEnv, undefined);
    // A named variable is read from VS Code's environment here; the server is only ever told KEY_ENV.
    stub.settings.set('nsysAi.llm.apiKeyEnv', 'MY_KEY');
    assert.equal(llmKey(config, 'sk-secret', { MY_KEY: 'sk-from-env' }), 'sk-from-env');
    assert.equal(llmKey(config, 'sk-secret', {}), undefined);
    assert.equal(llmSettings(config, true).apiKeyEnv, KEY_ENV);
    stub.settings.clear();
  });
  test('an untrusted workspace sends no LLM settings', () => {
    stub.settings.set('nsysAi.llm.provider', 'openai');
    stub.settings.set('nsysAi.llm.model', 'm');
    stub.settings.set('nsysAi.llm.baseUrl', 'http://attacker.example/v1');
    const config = stub.workspace.getConfiguration('nsysAi') as never;
    assert.deepEqual(buildInitializationOptions(llmSettings(config, true, false)), {});
    assert.deepEqual(buildInitializationOptions(llmSettings(config, true, true)), {
      llm: { provider: 'openai', model: 'm', baseUrl: 'http://attacker.example/v1', apiKeyEnv: KEY_ENV },
    });
    stub.settings.clear();
  });
  test('the LLM settings are machine-scoped and restricted in untrusted workspaces', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const properties = manifest.contributes.configuration.properties;
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    for (const key of ['nsysAi.llm.provider', 'nsysAi.llm.model', 'nsysAi.llm.baseUrl', 'nsysAi.llm.apiKeyEnv']) {
      assert.equal(properties[key].scope, 'machine', key);
      assert.ok(untrusted.restrictedConfigurations.includes(key), key);
    }
    for (const key of ['nsysAi.serverPath', 'nsysAi.serverArgs']) {
      assert.ok(untrusted.restrictedConfigurations.includes(key), `${key}: a workspace could name a program`);
    }
  });
});

describe('ranks per node of a job', () => {
  // A job was called a run: nsysAi.run.ranksPerNode is read while nsysAi.job.ranksPerNode is set nowhere.
  test('nsysAi.job.ranksPerNode, else the former nsysAi.run.ranksPerNode, else 0', () => {
    const value = () => ranksPerNodeSetting(stub.workspace.getConfiguration('nsysAi') as never);
    stub.settings.clear();
    assert.equal(value(), 0);
    stub.settings.set('nsysAi.run.ranksPerNode', 4);
    assert.equal(value(), 4, 'the former setting, the new one unset');
    stub.settings.set('nsysAi.job.ranksPerNode', 0);
    assert.equal(value(), 0, 'the new setting, set to 0, wins');
    stub.settings.set('nsysAi.job.ranksPerNode', 8);
    assert.equal(value(), 8);
    stub.settings.delete('nsysAi.job.ranksPerNode');
    stub.settings.set('nsysAi.run.ranksPerNode', -2);
    assert.throws(value, { message: 'The setting nsysAi.run.ranksPerNode must be a whole number, 0 or more (it is -2).' });
    stub.settings.clear();
  });
  test('the manifest declares the new setting and marks the former one deprecated', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const properties = manifest.contributes.configuration.properties;
    assert.deepEqual([properties['nsysAi.job.ranksPerNode'].type, properties['nsysAi.job.ranksPerNode'].default], ['integer', 0]);
    assert.match(properties['nsysAi.run.ranksPerNode'].deprecationMessage, /nsysAi\.job\.ranksPerNode/);
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

describe('source files', () => {
  test('the language client syncs Python, C, C++, CUDA and Julia files on disk', () => {
    assert.deepEqual(sourceDocumentSelector(), [
      { scheme: 'file', language: 'python' },
      { scheme: 'file', language: 'c' },
      { scheme: 'file', language: 'cpp' },
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', language: 'julia' },
    ]);
    for (const ext of ['py', 'c', 'cpp', 'cc', 'h', 'hpp', 'cu', 'cuh', 'jl']) assert.match(SOURCE_GLOB, new RegExp(`[{,]${ext}[,}]`));
  });
  test('the lens command is the server’s: neither contributed nor registered by the extension', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
    const ids = manifest.contributes.commands.map((c: { command: string }) => c.command);
    assert.ok(!ids.includes(REVEAL_RANGE_COMMAND));
    assert.ok(ids.includes('nsysAi.suggestRefinements'));
    const sources = fs.readdirSync(path.resolve(__dirname, '..', '..', 'src'), { recursive: true }) as string[];
    for (const f of sources.filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.resolve(__dirname, '..', '..', 'src', f), 'utf8');
      assert.doesNotMatch(text, /registerCommand\(\s*(REVEAL_RANGE_COMMAND|'nsys-ai\.revealRange')/, f);
    }
  });
  test('source roots go in initializationOptions beside the LLM settings', () => {
    assert.deepEqual(buildInitializationOptions({ provider: 'none' }, [' /src/a ', '', 'file:///src/b']), {
      llm: { provider: 'none' },
      sourceRoots: ['/src/a', 'file:///src/b'],
    });
    assert.deepEqual(buildInitializationOptions({}, []), {});
  });
  test('the mapping coverage is read beside info (never in it); null is "not computed", absent is "not reported"', () => {
    const info = {} as never;
    const c = { share: 0.308, mappedNs: 308, kernelNs: 1000 };
    assert.deepEqual(mappingCoverageOf({ profileId: 'p1', path: '', info, mappingCoverage: c }), c);
    assert.equal(mappingCoverageOf({ profileId: 'p1', path: '', info: { mappingCoverage: c } as never }), undefined);
    assert.equal(mappingCoverageOf({ profileId: 'p1', path: '', info, mappingCoverage: null }), null);
    assert.equal(mappingCoverageOf({ profileId: 'p1', path: '', info }), undefined);
    assert.equal(coverageLabel(c), 'NVTX coverage 30.8 %');
    assert.equal(formatShare(1), '100.0 %');
  });
  test('file: links in the server’s Markdown become links the view posts to the extension', () => {
    const html = renderMarkdown('[eval.py:151](file:///src/tools/eval.py#L151) and [x](javascript:alert(1))');
    assert.match(html, /<a href="#" data-uri="file:\/\/\/src\/tools\/eval\.py#L151">eval\.py:151<\/a>/);
    assert.doesNotMatch(html, /href="javascript/, "a javascript: link stays text");
    assert.deepEqual(parseFileLink('file:///src/tools/eval.py#L151'), { uri: 'file:///src/tools/eval.py', line: 150, character: 0 });
    assert.deepEqual(parseFileLink('file:///a.cu#L3,5'), { uri: 'file:///a.cu', line: 2, character: 4 });
    assert.deepEqual(parseFileLink('file:///a.cu'), { uri: 'file:///a.cu', line: 0, character: 0 });
    assert.equal(parseFileLink('https://x/#L1'), undefined);
  });
  test('kernel sources render as escaped links with their share, time and calls', () => {
    const html = kernelSourcesHtml({
      kernel: 'k',
      locations: [
        {
          uri: 'file:///src/run%20it/launch.cpp',
          range: { start: { line: 15, character: 21 }, end: { line: 15, character: 56 } },
          name: 'ExecutorRunFusion::cuLaunchKernel<"x">',
          share: 1,
          gpuNs: 694040,
          calls: 1,
        },
      ],
    });
    assert.match(html, /<h4>Kernel sources<\/h4>/);
    assert.match(html, /data-uri="file:\/\/\/src\/run%20it\/launch\.cpp" data-line="15" data-character="21"/);
    assert.match(html, />launch\.cpp:16<\/a>/);
    assert.match(html, /ExecutorRunFusion::cuLaunchKernel&lt;&quot;x&quot;&gt;/);
    assert.match(html, /100\.0 % of its time · 694\.0 µs · 1 calls/);
    assert.equal(kernelSourcesHtml({ kernel: 'k', locations: [] }), '');
  });
  test('a source hover’s kernel links run nsysAi.explainKernel with the profile and the kernel', () => {
    const md = '| [nvjet_tst_192x192](nsys-ai://explain/p1/nvjet_tst_192x192%3Cx%3E) | 2.1 ms |\n[doc](https://docs.nvidia.com)';
    const { value, changed } = rewriteExplainLinks(md);
    assert.equal(changed, true);
    const target = /\(command:nsysAi\.explainKernel\?([^)]+)\)/.exec(value)![1];
    assert.deepEqual(JSON.parse(decodeURIComponent(target)), ['p1', 'nvjet_tst_192x192<x>']);
    assert.match(value, /\[doc\]\(https:\/\/docs\.nvidia\.com\)/, 'other links untouched');
    assert.deepEqual(rewriteExplainLinks('no links'), { value: 'no links', changed: false });
  });
  test('a WorkspaceEdit from the server becomes one vscode.WorkspaceEdit, changes and documentChanges', () => {
    const range = { start: { line: 3, character: 4 }, end: { line: 3, character: 4 } };
    const edit = toWorkspaceEdit({
      changes: { 'file:///a.py': [{ range, newText: 'x' }, { range, newText: 'y' }] },
      documentChanges: [{ textDocument: { uri: 'file:///b.cpp', version: 2 }, edits: [{ range, newText: 'z' }] }],
    }) as unknown as stub.WorkspaceEdit;
    assert.deepEqual(
      edit.edits.map((e) => [e.uri.toString(), e.range.start.line, e.range.start.character, e.newText]),
      [
        ['file:///a.py', 3, 4, 'x'],
        ['file:///a.py', 3, 4, 'y'],
        ['file:///b.cpp', 3, 4, 'z'],
      ],
    );
    assert.deepEqual(editSize({ changes: { 'file:///a.py': [{ range, newText: '' }] } }), { files: 1, edits: 1 });
  });
});
