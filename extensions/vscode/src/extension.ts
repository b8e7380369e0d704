// Entry point: the server session, the profile editor, the commands and the "Open as Nsight profile" offer.
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { ProfileOffer } from './offer';
import { ProfileEditorProvider, VIEW_TYPE } from './profileEditor';
import { ProfileRegistry, Services } from './profiles';
import { ServerSession } from './session';

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('nsys-ai');
  const session = new ServerSession(context.secrets, output);
  const diagnostics = vscode.languages.createDiagnosticCollection('nsys-ai');
  const services: Services = { client: () => session.client(), diagnostics, registry: new ProfileRegistry() };
  const editor = new ProfileEditorProvider(services);
  const offer = new ProfileOffer();
  const restartServer = async () => {
    await session.restart();
    if (services.registry.all().length) {
      void vscode.window.showInformationMessage('nsys-ai restarted: reopen the profile views to use the new server.');
    }
  };
  context.subscriptions.push(
    output,
    session,
    diagnostics,
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, editor, {
      webviewOptions: { retainContextWhenHidden: true },
      supportsMultipleEditorsPerDocument: true,
    }),
    ...registerCommands({ ...services, editor, secrets: context.secrets, restartServer }),
    vscode.window.tabGroups.onDidChangeTabs((e) => void offer.onTabsOpened(e.opened)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('nsysAi.serverPath') || e.affectsConfiguration('nsysAi.llm')) void restartServer();
    }),
  );
}

export function deactivate(): void {}
