// The run view: a webview panel per open run, rendered from nsys/runReport and run_step_heatmap. Closing it closes
// the run on the server. Its toolbar runs the run commands (Analyze run, Open in Perfetto, Ranks per node) on this
// run; its header says the ranks per node they use.
import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { errorMessage, NsysClient } from './protocol/client';
import { messageHtml } from './profileEditor';
import { withServerProgress } from './progress';
import { RunDocument, RunRegistry } from './runs';
import { renderRunHtml, RUN_COMMANDS } from './view/run';
import { loadRunView } from './view/runModel';

export const RUN_VIEW_TYPE = 'nsysAi.run';

export interface RunServices {
  client(): Promise<NsysClient>;
  runs: RunRegistry;
}

function onMessage(run: RunDocument, message: unknown): Thenable<unknown> | undefined {
  const m = message as { type?: string; command?: unknown };
  if (m?.type === 'command' && RUN_COMMANDS.some((c) => c.id === m.command)) {
    return vscode.commands.executeCommand(`nsysAi.${m.command as string}`, run.uri);
  }
  return undefined;
}

function createPanel(run: RunDocument, services: RunServices): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(RUN_VIEW_TYPE, `Run · ${run.name}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    retainContextWhenHidden: true,
    localResourceRoots: [], // the view loads no files
  });
  run.panel = panel;
  panel.onDidDispose(() => {
    run.panel = undefined;
    services.runs.remove(run);
    void run.close();
  });
  panel.onDidChangeViewState((e) => e.webviewPanel.active && services.runs.setActive(run));
  panel.webview.onDidReceiveMessage((m) => onMessage(run, m));
  return panel;
}

/** Shows the run's view (revealing it when it is open), then fills it from the server. */
export async function showRunView(run: RunDocument, services: RunServices): Promise<void> {
  if (run.panel) return run.panel.reveal();
  const panel = createPanel(run, services);
  const nonce = crypto.randomBytes(16).toString('hex');
  const shown = () => run.panel === panel; // not closed while the server worked
  panel.webview.html = messageHtml('Opening run…', run.uri.fsPath, nonce);
  try {
    const ranksPerNode = run.ranksPerNode();
    const { runId } = await run.current();
    const client = await services.client();
    const model = await withServerProgress(`Reading the ranks of ${run.name}`, (opts) =>
      loadRunView(client, runId, run.uri.fsPath, opts),
    );
    const html = renderRunHtml({ ...model, ranksPerNode }, { nonce, cspSource: panel.webview.cspSource });
    if (shown()) panel.webview.html = html;
  } catch (err) {
    if (shown()) panel.webview.html = messageHtml('Could not open the run', errorMessage(err), nonce);
  }
}
