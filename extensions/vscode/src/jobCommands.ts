// The job commands: Open Job on a directory of rank exports, Analyze Job (nsys/analyzeJob, into the job
// view's findings) and Open Job Timeline in Perfetto (nsys/openInPerfetto with the jobId: the server publishes the
// trace nsys/exportJobTrace writes, and the browser opens it as a profile's does). Each is a request with its progress.
// Both send the job's ranks per node (its own, from Set Ranks per Node for Job, else the setting) when it is not 0.
// A job was called a run before: the commands' former ids still work (FORMER_COMMANDS), out of the palette.
import * as vscode from 'vscode';
import { openInPerfetto } from './perfetto';
import { jobParams } from './protocol/client';
import { showServerError, withServerProgress } from './progress';
import { JobDocument } from './jobs';
import { JobServices, showJobView } from './jobView';
import { FORMER_RANKS_PER_NODE, RANKS_PER_NODE } from './settings';
import { jobFindingsHtml } from './view/job';

/** Each former id (a job was called a run) and the command it runs: registered, not contributed in package.json. */
export const FORMER_COMMANDS: Readonly<Record<string, string>> = {
  'nsysAi.openRun': 'nsysAi.openJob',
  'nsysAi.analyzeRun': 'nsysAi.analyzeJob',
  'nsysAi.openRunInPerfetto': 'nsysAi.openJobInPerfetto',
  'nsysAi.setRunRanksPerNode': 'nsysAi.setJobRanksPerNode',
};

async function pickFolder(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    title: 'Open a job: the directory of its rank exports (.sqlite, .nsys-rep, .qdrep)',
  });
  return picked?.[0];
}

export function registerJobCommands(ctx: JobServices): vscode.Disposable[] {
  // The command's value is fn's (undefined without a job or on an error, which is shown).
  const withJob = <T>(fn: (job: JobDocument) => Promise<T>) => async (uri?: unknown): Promise<T | undefined> => {
    const job = await ctx.jobs.pick(uri instanceof vscode.Uri ? uri : undefined);
    if (!job) return undefined;
    try {
      return await fn(job);
    } catch (err) {
      showServerError(err);
      return undefined;
    }
  };

  // From the explorer (a folder's context menu), a path argument, or the folder picker.
  const openJob = async (arg?: unknown) => {
    const folder = arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.file(arg) : await pickFolder();
    if (!folder) return;
    const job = ctx.jobs.get(folder) ?? new JobDocument(folder, ctx.client);
    ctx.jobs.add(job);
    await showJobView(job, ctx);
  };

  const analyzeJob = withJob(async (job) => {
    const ranksPerNode = job.ranksPerNode();
    const { jobId } = await job.current();
    const client = await ctx.client();
    const result = await withServerProgress(`Analyzing the job ${job.name}`, (opts) =>
      client.analyzeJob(jobId, opts, ranksPerNode),
    );
    job.post({ type: 'findings', html: jobFindingsHtml(result) });
    void vscode.window.showInformationMessage(`nsys-ai: ${result.findings.length} findings across the ranks of ${job.name}.`);
  });

  // The profile's path (perfetto.ts): the server writes every rank on the job's clock into one trace and serves it;
  // the opener page opens in the browser (or the server's window/showDocument did).
  const openJobInPerfetto = withJob(async (job) => {
    const ranksPerNode = job.ranksPerNode();
    const { jobId } = await job.current();
    const client = await ctx.client();
    return openInPerfetto(client, jobParams(jobId, ranksPerNode), `Preparing the timeline of ${job.name} for Perfetto`);
  });

  // The job's own ranks per node, asked once; empty goes back to the setting. The value now used is the answer.
  const setJobRanksPerNode = withJob(async (job) => {
    const input = await vscode.window.showInputBox({
      title: `Ranks per node for ${job.name}`,
      prompt: 'How many consecutive ranks share a node (one clock). 0: each rank its own node; empty: the setting nsysAi.job.ranksPerNode.',
      value: job.ownRanksPerNode?.toString() ?? '',
      validateInput: (v) => (/^\s*\d{0,6}\s*$/.test(v) ? undefined : 'A whole number, 0 or more (empty: the setting).'),
    });
    if (input === undefined) return undefined;
    job.ownRanksPerNode = input.trim() === '' ? undefined : Number(input);
    return job.ranksPerNode();
  });

  // A new setting shows in the header of every job that has no value of its own; a bad one is shown once.
  const onSettings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (![RANKS_PER_NODE, FORMER_RANKS_PER_NODE].some((k) => e.affectsConfiguration(`nsysAi.${k}`))) return;
    try {
      for (const job of ctx.jobs.all()) if (job.ownRanksPerNode === undefined) job.ranksPerNode();
    } catch (err) {
      showServerError(err);
    }
  });

  const handlers: Record<string, (arg?: unknown) => Promise<unknown>> = {
    'nsysAi.openJob': openJob,
    'nsysAi.analyzeJob': analyzeJob,
    'nsysAi.openJobInPerfetto': openJobInPerfetto,
    'nsysAi.setJobRanksPerNode': setJobRanksPerNode,
  };
  return [
    ...Object.entries(handlers).map(([id, fn]) => vscode.commands.registerCommand(id, fn)),
    ...Object.entries(FORMER_COMMANDS).map(([former, id]) => vscode.commands.registerCommand(former, handlers[id])),
    onSettings,
  ];
}
