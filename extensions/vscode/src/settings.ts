// The LLM settings as initializationOptions.llm, and where the key goes: into the server's environment under KEY_ENV,
// named by apiKeyEnv, so no key is ever in the settings or in a protocol message. The key comes from SecretStorage, or
// from the variable nsysAi.llm.apiKeyEnv names in VS Code's own environment (read here, never by the server).
// The LLM settings are machine-scoped (package.json: a workspace's .vscode/settings.json cannot set them) and are
// ignored in an untrusted workspace, so a cloned repository can never choose an endpoint that receives the user's
// key: there the server keeps its own configuration (NSYS_AI_LLM_*).
import type * as vscode from 'vscode';
import type { LlmOptions } from './protocol/types';

export const SECRET_KEY = 'nsysAi.llm.apiKey';
export const KEY_ENV = 'NSYS_AI_VSCODE_LLM_API_KEY';

/** The key the server gets under KEY_ENV: the variable the settings name (in `env`), else SecretStorage's. */
export function llmKey(
  config: vscode.WorkspaceConfiguration,
  secret: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const named = config.get<string>('llm.apiKeyEnv', '').trim();
  if (named) return env[named] || undefined;
  return secret || undefined;
}

export function llmSettings(config: vscode.WorkspaceConfiguration, hasKey: boolean, trusted = true): LlmOptions {
  if (!trusted) return {};
  const llm: LlmOptions = {
    provider: config.get<string>('llm.provider', ''),
    model: config.get<string>('llm.model', ''),
    baseUrl: config.get<string>('llm.baseUrl', ''),
  };
  if (hasKey) llm.apiKeyEnv = KEY_ENV;
  return llm;
}

/** More folders of source code to map the profile onto, beyond the workspace folders (initializationOptions). */
export function sourceRoots(config: vscode.WorkspaceConfiguration): string[] {
  const roots = config.get<unknown>('sourceRoots', []);
  return Array.isArray(roots) ? roots.filter((r): r is string => typeof r === 'string' && r.trim() !== '') : [];
}

export const RANKS_PER_NODE = 'job.ranksPerNode';
/** Its name before a job was called a run: read while the new one is not set anywhere. */
export const FORMER_RANKS_PER_NODE = 'run.ranksPerNode';

/** Whether the user set `key` in any scope (a default does not count). */
function isSet(config: vscode.WorkspaceConfiguration, key: string): boolean {
  const i = config.inspect(key);
  if (!i) return false;
  const scopes = [i.globalValue, i.workspaceValue, i.workspaceFolderValue];
  return [...scopes, i.globalLanguageValue, i.workspaceLanguageValue, i.workspaceFolderLanguageValue].some((v) => v !== undefined);
}

/**
 * nsysAi.job.ranksPerNode: how many consecutive ranks of a job share a node (one clock); 0 = each rank its own node.
 * While it is not set and the former nsysAi.run.ranksPerNode is, that one. A value the schema's minimum did not
 * stop (settings.json takes any number) is refused, never sent or dropped.
 */
export function ranksPerNodeSetting(config: vscode.WorkspaceConfiguration): number {
  const key = !isSet(config, RANKS_PER_NODE) && isSet(config, FORMER_RANKS_PER_NODE) ? FORMER_RANKS_PER_NODE : RANKS_PER_NODE;
  const n = config.get<unknown>(key, 0);
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
  throw new Error(`The setting nsysAi.${key} must be a whole number, 0 or more (it is ${JSON.stringify(n)}).`);
}
