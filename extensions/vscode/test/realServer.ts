// Starts the REAL nsys-ai server over stdio and connects the extension's own protocol client to it with
// vscode-jsonrpc. The binary: $NSYS_AI_BIN (or $NSYS_AI_BINARY, as scripts/test sets it), else the repository's
// build/nsys-ai. The fixture: $NSYS_AI_FIXTURES_DIR, else ../shared/fixtures beside the repository.
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { buildInitializationOptions, NsysClient } from '../src/protocol/client';
import type { LlmOptions } from '../src/protocol/types';

const extensionDir = path.resolve(__dirname, '..', '..');
const repoDir = path.resolve(extensionDir, '..', '..');

export const serverBinary =
  process.env.NSYS_AI_BIN || process.env.NSYS_AI_BINARY || path.join(repoDir, 'build', 'nsys-ai');

export const fixturesDir = process.env.NSYS_AI_FIXTURES_DIR || path.resolve(repoDir, '..', 'shared', 'fixtures');
export const h100 = path.join(fixturesDir, 'h100_2gpu_1s.sqlite');
/** Why the real-server tests cannot run here, or undefined when they can. */
export const skipReason = !fs.existsSync(serverBinary)
  ? `no server binary at ${serverBinary} (set NSYS_AI_BIN)`
  : !fs.existsSync(h100)
    ? `no fixture at ${h100} (set NSYS_AI_FIXTURES_DIR)`
    : undefined;

export interface RealServer {
  client: NsysClient;
  conn: MessageConnection;
  proc: ChildProcess;
  initializeResult: unknown;
  notifications: { method: string; params: unknown }[];
  stop(): Promise<number | null>;
}

/**
 * The real server over stdio, initialized. `initParams` adds to the initialize params (e.g. `workspaceFolders`, or
 * `initializationOptions` beside the LLM's).
 */
export async function startServer(
  llm: LlmOptions = {},
  extraCapabilities: object = {},
  initParams: { initializationOptions?: object; [key: string]: unknown } = {},
): Promise<RealServer> {
  const proc = spawn(serverBinary, ['serve', '--stdio', '--no-cache'], { stdio: ['pipe', 'pipe', 'pipe'] });
  proc.stderr!.on('data', () => {}); // logs; drained so the pipe never fills
  const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const notifications: { method: string; params: unknown }[] = [];
  conn.onNotification((method, params) => notifications.push({ method, params }));
  conn.listen();
  const client = new NsysClient(conn);
  const { initializationOptions: moreOptions, ...moreParams } = initParams;
  const initializeResult = await conn.sendRequest('initialize', {
    processId: process.pid,
    clientInfo: { name: 'nsys-ai-vscode-tests' },
    capabilities: { window: { workDoneProgress: false }, ...extraCapabilities },
    initializationOptions: { ...buildInitializationOptions(llm), ...moreOptions },
    ...moreParams,
  });
  client.setServerCapabilities(initializeResult);
  await conn.sendNotification('initialized', {});
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    client,
    conn,
    proc,
    initializeResult,
    notifications,
    async stop() {
      await conn.sendRequest('shutdown');
      await conn.sendNotification('exit');
      const code = await exited;
      conn.dispose();
      return code;
    },
  };
}
