// "Locate nsys-ai…": a file picker for the server executable that writes nsysAi.serverPath, for when a first run cannot
// find it. The setting's change restarts the server (extension.ts), so the next command starts the one picked.
import * as vscode from 'vscode';
import { isExecutable } from './serverPath';

export const LOCATE_SERVER_COMMAND = 'nsysAi.locateServer';
export const LOCATE_LABEL = 'Locate nsys-ai…';

/** Asks for the executable; writes its path to the user's nsysAi.serverPath. Returns the path written, if any. */
export async function locateServer(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Locate the nsys-ai server executable',
    openLabel: 'Use this nsys-ai',
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
  });
  const file = picked?.[0]?.fsPath;
  if (!file) return undefined;
  if (!isExecutable(file)) {
    void vscode.window.showErrorMessage(`${file} is not an executable file: pick the nsys-ai binary (build/nsys-ai).`);
    return undefined;
  }
  await vscode.workspace.getConfiguration('nsysAi').update('serverPath', file, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`nsys-ai: using ${file} (setting nsysAi.serverPath).`);
  return file;
}
