// The run commands: Open Run on a directory of rank exports, Analyze Run (nsys/analyzeRun, into the run
// view's findings) and Open Run Timeline in Perfetto (nsys/openInPerfetto with the runId: the server publishes the
// trace nsys/exportRunTrace writes, and the browser opens it as a profile's does). Each is a request with its progress.
// Both send the run's ranks per node (its own, from Set Ranks per Node for Run, else the setting) when it is not 0.
import * as vscode from 'vscode';
import { openInPerfetto } from './perfetto';
import { runParams } from './protocol/client';
import { showServerError, withServerProgress } from './progress';
import { RunDocument } from './runs';
import { RunServices, showRunView } from './runView';
import { runFindingsHtml } from './view/run';

async function pickFolder(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    title: 'Open a run: the directory of its rank exports (.sqlite, .nsys-rep, .qdrep)',
  });
  return picked?.[0];
}

export function registerRunCommands(ctx: RunServices): vscode.Disposable[] {
  // The command's value is fn's (undefined without a run or on an error, which is shown).
  const withRun = <T>(fn: (run: RunDocument) => Promise<T>) => async (uri?: unknown): Promise<T | undefined> => {
    const run = await ctx.runs.pick(uri instanceof vscode.Uri ? uri : undefined);
    if (!run) return undefined;
    try {
      return await fn(run);
    } catch (err) {
      showServerError(err);
      return undefined;
    }
  };

  // From the explorer (a folder's context menu), a path argument, or the folder picker.
  const openRun = async (arg?: unknown) => {
    const folder = arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.file(arg) : await pickFolder();
    if (!folder) return;
    const run = ctx.runs.get(folder) ?? new RunDocument(folder, ctx.client);
    ctx.runs.add(run);
    await showRunView(run, ctx);
  };

  const analyzeRun = withRun(async (run) => {
    const ranksPerNode = run.ranksPerNode();
    const { runId } = await run.current();
    const client = await ctx.client();
    const result = await withServerProgress(`Analyzing the run ${run.name}`, (opts) =>
      client.analyzeRun(runId, opts, ranksPerNode),
    );
    run.post({ type: 'findings', html: runFindingsHtml(result) });
    void vscode.window.showInformationMessage(`nsys-ai: ${result.findings.length} findings across the ranks of ${run.name}.`);
  });

  // The profile's path (perfetto.ts): the server writes every rank on the run's clock into one trace and serves it;
  // the opener page opens in the browser (or the server's window/showDocument did).
  const openRunInPerfetto = withRun(async (run) => {
    const ranksPerNode = run.ranksPerNode();
    const { runId } = await run.current();
    const client = await ctx.client();
    return openInPerfetto(client, runParams(runId, ranksPerNode), `Preparing the timeline of ${run.name} for Perfetto`);
  });

  // The run's own ranks per node, asked once; empty goes back to the setting. The value now used is the answer.
  const setRunRanksPerNode = withRun(async (run) => {
    const input = await vscode.window.showInputBox({
      title: `Ranks per node for ${run.name}`,
      prompt: 'How many consecutive ranks share a node (one clock). 0: each rank its own node; empty: the setting nsysAi.run.ranksPerNode.',
      value: run.ownRanksPerNode?.toString() ?? '',
      validateInput: (v) => (/^\s*\d{0,6}\s*$/.test(v) ? undefined : 'A whole number, 0 or more (empty: the setting).'),
    });
    if (input === undefined) return undefined;
    run.ownRanksPerNode = input.trim() === '' ? undefined : Number(input);
    return run.ranksPerNode();
  });

  // A new setting shows in the header of every run that has no value of its own; a bad one is shown once.
  const onSettings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('nsysAi.run.ranksPerNode')) return;
    try {
      for (const run of ctx.runs.all()) if (run.ownRanksPerNode === undefined) run.ranksPerNode();
    } catch (err) {
      showServerError(err);
    }
  });

  return [
    vscode.commands.registerCommand('nsysAi.openRun', openRun),
    vscode.commands.registerCommand('nsysAi.analyzeRun', analyzeRun),
    vscode.commands.registerCommand('nsysAi.openRunInPerfetto', openRunInPerfetto),
    vscode.commands.registerCommand('nsysAi.setRunRanksPerNode', setRunRanksPerNode),
    onSettings,
  ];
}
