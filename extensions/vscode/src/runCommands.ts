// The run commands (issue 13): Open Run on a directory of rank exports, Analyze Run (nsys/analyzeRun, into the run
// view's findings) and Open Run Timeline in Perfetto (nsys/exportRunTrace). Each is a request with its progress.
import * as vscode from 'vscode';
import { showServerError, withServerProgress } from './progress';
import type { ExportRunTraceResult } from './protocol/types';
import { RunDocument } from './runs';
import { RunServices, showRunView } from './runView';
import { formatBytes, formatCount } from './view/format';
import { runFindingsHtml } from './view/run';

export const PERFETTO_UI = 'https://ui.perfetto.dev';

async function pickFolder(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    title: 'Open a run: the directory of its rank exports (.sqlite, .nsys-rep)',
  });
  return picked?.[0];
}

/** What the trace holds and where it is, as one sentence. */
export function runTraceMessage(result: ExportRunTraceResult): string {
  const written = result.ranks.filter((r) => !r.error).length;
  return `Wrote the timeline of ${written} of ${result.ranks.length} ranks (${formatCount(result.slices.kernels ?? 0)} kernels, ${formatBytes(result.bytes)}) to ${result.path}.`;
}

export function registerRunCommands(ctx: RunServices): vscode.Disposable[] {
  const withRun = (fn: (run: RunDocument) => Promise<unknown>) => async (uri?: unknown) => {
    const run = await ctx.runs.pick(uri instanceof vscode.Uri ? uri : undefined);
    if (!run) return;
    try {
      await fn(run);
    } catch (err) {
      showServerError(err);
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
    const { runId } = await run.current();
    const client = await ctx.client();
    const result = await withServerProgress(`Analyzing the run ${run.name}`, (opts) => client.analyzeRun(runId, opts));
    run.post({ type: 'findings', html: runFindingsHtml(result) });
    void vscode.window.showInformationMessage(`nsys-ai: ${result.findings.length} findings across the ranks of ${run.name}.`);
  });

  // The server writes the run's trace (into its trace cache); its Perfetto side channel serves a profile's trace
  // only, so the file is loaded in Perfetto by the user.
  const openRunInPerfetto = withRun(async (run) => {
    const { runId } = await run.current();
    const client = await ctx.client();
    const result = await withServerProgress(`Writing the timeline of ${run.name}`, (opts) =>
      client.exportRunTrace(runId, undefined, opts),
    );
    const [OPEN, COPY] = ['Open Perfetto', 'Copy Path'];
    const choice = await vscode.window.showInformationMessage(
      `${runTraceMessage(result)} Load it in Perfetto with "Open trace file".`,
      OPEN,
      COPY,
    );
    if (choice === OPEN) await vscode.env.openExternal(vscode.Uri.parse(PERFETTO_UI));
    if (choice === COPY) await vscode.env.clipboard.writeText(result.path);
  });

  return [
    vscode.commands.registerCommand('nsysAi.openRun', openRun),
    vscode.commands.registerCommand('nsysAi.analyzeRun', analyzeRun),
    vscode.commands.registerCommand('nsysAi.openRunInPerfetto', openRunInPerfetto),
  ];
}
