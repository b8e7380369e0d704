// Entry point: the server session, the profile editor, the NVTX tree, the commands and the "Open as Nsight profile"
// offer. The findings' diagnostics are the server's (textDocument/publishDiagnostics), shown by the language client.
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { NvtxTreeProvider, TREE_VIEW_ID } from './nvtxTree';
import { ProfileOffer } from './offer';
import { ProfileEditorProvider, VIEW_TYPE } from './profileEditor';
import { ProfileRegistry, Services } from './profiles';
import { ServerSession } from './session';

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('nsys-ai');
  const session = new ServerSession(context.secrets, output);
  const services: Services = { client: () => session.client(), registry: new ProfileRegistry() };
  const editor = new ProfileEditorProvider(services);
  const tree = new NvtxTreeProvider(services);
  const treeView = vscode.window.createTreeView(TREE_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  tree.onProfile = (name) => (treeView.description = name ?? '');
  const offer = new ProfileOffer();
  const restartServer = async () => {
    await session.restart();
    if (services.registry.all().length) {
      void vscode.window.showInformationMessage('nsys-ai restarted: reopen the profile views to use the new server.');
    }
    tree.refresh();
  };
  context.subscriptions.push(
    output,
    session,
    tree,
    treeView,
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, editor, {
      webviewOptions: { retainContextWhenHidden: true },
      supportsMultipleEditorsPerDocument: true,
    }),
    ...registerCommands({ ...services, editor, tree, secrets: context.secrets, restartServer }),
    vscode.window.tabGroups.onDidChangeTabs((e) => void offer.onTabsOpened(e.opened)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('nsysAi.serverPath') || e.affectsConfiguration('nsysAi.llm')) void restartServer();
    }),
  );
}

export function deactivate(): void {}
