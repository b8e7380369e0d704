// Entry point: the server session, the profile editor, the NVTX tree, the NVTX coverage in the status bar, the
// commands (with the job commands: a directory of rank exports opened as one) and the "Open as Nsight profile"
// offer. The findings' diagnostics are the server's (textDocument/publishDiagnostics), shown by the language
// client, as are the code lenses, hovers, diagnostics and code actions on the user's source files. The
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
import { registerJobCommands } from './jobCommands';
import { JobRegistry } from './jobs';
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
      // A view that could not start (no server: the first run's "Locate nsys-ai…") stays an error page until reopened.
      void vscode.window
        .showInformationMessage('nsys-ai restarted: reopen the profile views to use the new server.', REOPEN)
        .then((choice) => {
          if (choice === REOPEN) void reopenProfileViews();
        });
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
    ...registerJobCommands({ client: services.client, jobs: new JobRegistry() }),
    vscode.commands.registerCommand(LOCATE_SERVER_COMMAND, locateServer),
    vscode.window.tabGroups.onDidChangeTabs((e) => void offer.onTabsOpened(e.opened)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (['nsysAi.serverPath', 'nsysAi.llm', 'nsysAi.sourceRoots'].some((k) => e.affectsConfiguration(k))) {
        void restartServer();
      }
    }),
  );
}

const REOPEN = 'Reopen Profile Views';

/** Closes the open profile views and opens them again, on the server running now. */
async function reopenProfileViews(): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === VIEW_TYPE);
  const uris = new Map(tabs.map((t) => (t.input as vscode.TabInputCustom).uri).map((u) => [u.toString(), u]));
  await vscode.window.tabGroups.close(tabs);
  for (const uri of uris.values()) await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
}

export function deactivate(): void {}
