// The runs open in this window (each a directory of rank exports opened as one): one server run id per run
// view, closed with the view. Like a profile, a run is opened again on a restarted server. Its ranks per node (how
// many consecutive ranks share a node's clock, for nsys/analyzeRun and the run's trace) are its own once the user set
// them (nsys-ai: Set Ranks per Node for Run), else the setting nsysAi.run.ranksPerNode.
import * as path from 'path';
import * as vscode from 'vscode';
import { NsysClient } from './protocol/client';
import type { OpenRunResult } from './protocol/types';
import { withServerProgress } from './progress';
import { ranksPerNodeSetting } from './settings';
import { nodesText } from './view/run';

export class RunDocument {
  panel: vscode.WebviewPanel | undefined;
  /** The ranks per node the user set for this run; undefined: the setting's. */
  ownRanksPerNode: number | undefined;
  private openedOn: NsysClient | undefined;
  private opening: Promise<OpenRunResult> | undefined;
  private closed = false;

  constructor(
    readonly uri: vscode.Uri,
    private readonly client: () => Promise<NsysClient>,
  ) {}

  get name(): string {
    return path.basename(this.uri.fsPath);
  }

  /** The run as the current server knows it (opened again after a restart: the new server has none of the ids). */
  async current(): Promise<OpenRunResult> {
    if (this.closed) throw new Error(`The run ${this.name} was closed; open it again to use it.`);
    const client = await this.client();
    if (client !== this.openedOn || !this.opening) {
      this.openedOn = client;
      this.opening = this.openOn(client);
      this.opening.catch(() => {
        if (this.openedOn === client) this.opening = undefined; // the next use tries again
      });
    }
    return this.opening;
  }

  private async openOn(client: NsysClient): Promise<OpenRunResult> {
    return withServerProgress(`Opening the run ${this.name}`, (opts) => client.openRun(this.uri.fsPath, opts));
  }

  /** The ranks per node the run's requests use, shown in its view's header; throws when the setting is not valid. */
  ranksPerNode(): number {
    const n = this.ownRanksPerNode ?? ranksPerNodeSetting(vscode.workspace.getConfiguration('nsysAi'));
    this.post({ type: 'nodes', text: nodesText(n) });
    return n;
  }

  post(message: unknown): void {
    void this.panel?.webview.postMessage(message);
  }

  /** Closes the run on the server; resolves once it has answered. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.openedOn;
    const opening = this.opening;
    this.opening = undefined;
    await opening?.then(({ runId }) => client?.closeRun(runId)).catch(() => undefined);
  }
}

export class RunRegistry {
  private readonly runs = new Map<string, RunDocument>();
  private active: RunDocument | undefined;

  add(run: RunDocument): void {
    this.runs.set(run.uri.toString(), run);
    this.active = run;
  }

  remove(run: RunDocument): void {
    if (this.runs.get(run.uri.toString()) === run) this.runs.delete(run.uri.toString());
    if (this.active === run) this.active = undefined;
  }

  setActive(run: RunDocument): void {
    this.active = run;
  }

  get(uri: vscode.Uri): RunDocument | undefined {
    return this.runs.get(uri.toString());
  }

  all(): RunDocument[] {
    return [...this.runs.values()];
  }

  /** The run a command applies to: the one named, else the active view's, else the only one, else a pick. */
  async pick(uri?: vscode.Uri): Promise<RunDocument | undefined> {
    const named = uri ? this.get(uri) : undefined;
    if (named) return named;
    if (this.active) return this.active;
    const all = this.all();
    if (all.length <= 1) {
      if (!all.length) void vscode.window.showInformationMessage('Open a run first (nsys-ai: Open Run).');
      return all[0];
    }
    const choice = await vscode.window.showQuickPick(
      all.map((r) => ({ label: r.name, description: r.uri.fsPath, run: r })),
      { placeHolder: 'Which run?' },
    );
    return choice?.run;
  }
}
