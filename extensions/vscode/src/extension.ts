// Entry point: the server session, the profile editor, the NVTX tree, the NVTX coverage in the status bar, the
// commands (with the run commands: a directory of rank exports opened as one) and the "Open as Nsight profile"
// offer. The findings' diagnostics are the server's (textDocument/publishDiagnostics), shown by the language
// client, as are the code lenses, hovers, diagnostics and code actions on the user's source files (issue 12). The
// lens command nsys-ai.revealRange is the server's: the language client registers it from executeCommandProvider,
// so the extension registers no command of that id.
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { locateServer, LOCATE_SERVER_COMMAND } from './locateServer';
import { CoverageStatus } from './coverage';
import { NvtxTreeProvider, TREE_VIEW_ID } from './nvtxTree';
import { ProfileOffer } from './offer';
import { ProfileEditorProvider, VIEW_TYPE } from './profileEditor';
import { ProfileRegistry, Services } from './profiles';
import { registerRunCommands } from './runCommands';
import { RunRegistry } from './runs';
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
  const coverage = new CoverageStatus(services);
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
    coverage,
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, editor, {
      webviewOptions: { retainContextWhenHidden: true },
      supportsMultipleEditorsPerDocument: true,
    }),
    ...registerCommands({ ...services, editor, tree, secrets: context.secrets, restartServer }),
    ...registerRunCommands({ client: services.client, runs: new RunRegistry() }),
    vscode.commands.registerCommand(LOCATE_SERVER_COMMAND, locateServer),
    vscode.window.tabGroups.onDidChangeTabs((e) => void offer.onTabsOpened(e.opened)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (['nsysAi.serverPath', 'nsysAi.llm', 'nsysAi.sourceRoots'].some((k) => e.affectsConfiguration(k))) {
        void restartServer();
      }
    }),
  );
}

export function deactivate(): void {}
