// The job view: a webview panel per open job, rendered from nsys/jobReport and job_step_heatmap. Closing it closes
// the job on the server. Its toolbar runs the job commands (Analyze job, Open in Perfetto, Ranks per node) on this
// job; its header says the ranks per node they use.
import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { errorMessage, NsysClient } from './protocol/client';
import { messageHtml } from './profileEditor';
import { withServerProgress } from './progress';
import { JobDocument, JobRegistry } from './jobs';
import { renderJobHtml, JOB_COMMANDS } from './view/job';
import { loadJobView } from './view/jobModel';

export const JOB_VIEW_TYPE = 'nsysAi.job';

export interface JobServices {
  client(): Promise<NsysClient>;
  jobs: JobRegistry;
}

function onMessage(job: JobDocument, message: unknown): Thenable<unknown> | undefined {
  const m = message as { type?: string; command?: unknown };
  if (m?.type === 'command' && JOB_COMMANDS.some((c) => c.id === m.command)) {
    return vscode.commands.executeCommand(`nsysAi.${m.command as string}`, job.uri);
  }
  return undefined;
}

function createPanel(job: JobDocument, services: JobServices): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(JOB_VIEW_TYPE, `Job · ${job.name}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    retainContextWhenHidden: true,
    localResourceRoots: [], // the view loads no files
  });
  job.panel = panel;
  panel.onDidDispose(() => {
    job.panel = undefined;
    services.jobs.remove(job);
    void job.close();
  });
  panel.onDidChangeViewState((e) => e.webviewPanel.active && services.jobs.setActive(job));
  panel.webview.onDidReceiveMessage((m) => onMessage(job, m));
  return panel;
}

/** Shows the job's view (revealing it when it is open), then fills it from the server. */
export async function showJobView(job: JobDocument, services: JobServices): Promise<void> {
  if (job.panel) return job.panel.reveal();
  const panel = createPanel(job, services);
  const nonce = crypto.randomBytes(16).toString('hex');
  const shown = () => job.panel === panel; // not closed while the server worked
  panel.webview.html = messageHtml('Opening job…', job.uri.fsPath, nonce);
  try {
    const ranksPerNode = job.ranksPerNode();
    const { jobId } = await job.current();
    const client = await services.client();
    const model = await withServerProgress(`Reading the ranks of ${job.name}`, (opts) =>
      loadJobView(client, jobId, job.uri.fsPath, opts),
    );
    const html = renderJobHtml({ ...model, ranksPerNode }, { nonce, cspSource: panel.webview.cspSource });
    if (shown()) panel.webview.html = html;
  } catch (err) {
    if (shown()) panel.webview.html = messageHtml('Could not open the job', errorMessage(err), nonce);
  }
}
