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
