// The LLM settings as initializationOptions.llm, and where a key from SecretStorage goes: into the server's
// environment under KEY_ENV, named by apiKeyEnv, so no key is ever in the settings or in a protocol message.
import type * as vscode from 'vscode';
import type { LlmOptions } from './protocol/types';

export const SECRET_KEY = 'nsysAi.llm.apiKey';
export const KEY_ENV = 'NSYS_AI_VSCODE_LLM_API_KEY';

export function llmSettings(config: vscode.WorkspaceConfiguration, hasSecret: boolean): LlmOptions {
  const llm: LlmOptions = {
    provider: config.get<string>('llm.provider', ''),
    model: config.get<string>('llm.model', ''),
    baseUrl: config.get<string>('llm.baseUrl', ''),
    apiKeyEnv: config.get<string>('llm.apiKeyEnv', ''),
  };
  if (!llm.apiKeyEnv?.trim() && hasSecret) llm.apiKeyEnv = KEY_ENV;
  return llm;
}

/** More folders of source code to map the profile onto, beyond the workspace folders (initializationOptions). */
export function sourceRoots(config: vscode.WorkspaceConfiguration): string[] {
  const roots = config.get<unknown>('sourceRoots', []);
  return Array.isArray(roots) ? roots.filter((r): r is string => typeof r === 'string' && r.trim() !== '') : [];
}

/**
 * nsysAi.run.ranksPerNode: how many consecutive ranks of a run share a node (one clock); 0 = each rank its own node.
 * A value the schema's minimum did not stop (settings.json takes any number) is refused, never sent or dropped.
 */
export function ranksPerNodeSetting(config: vscode.WorkspaceConfiguration): number {
  const n = config.get<unknown>('run.ranksPerNode', 0);
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
  throw new Error(`The setting nsysAi.run.ranksPerNode must be a whole number, 0 or more (it is ${JSON.stringify(n)}).`);
}
