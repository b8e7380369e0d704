// The jobs open in this window (each a directory of rank exports opened as one): one server job id per job
// view, closed with the view. Like a profile, a job is opened again on a restarted server. Its ranks per node (how
// many consecutive ranks share a node's clock, for nsys/analyzeJob and the job's trace) are its own once the user set
// them (nsys-ai: Set Ranks per Node for Job), else the setting nsysAi.job.ranksPerNode.
import * as path from 'path';
import * as vscode from 'vscode';
import { NsysClient } from './protocol/client';
import type { OpenJobResult } from './protocol/types';
import { withServerProgress } from './progress';
import { ranksPerNodeSetting } from './settings';
import { nodesText } from './view/job';

export class JobDocument {
  panel: vscode.WebviewPanel | undefined;
  /** The ranks per node the user set for this job; undefined: the setting's. */
  ownRanksPerNode: number | undefined;
  private openedOn: NsysClient | undefined;
  private opening: Promise<OpenJobResult> | undefined;
  private closed = false;

  constructor(
    readonly uri: vscode.Uri,
    private readonly client: () => Promise<NsysClient>,
  ) {}

  get name(): string {
    return path.basename(this.uri.fsPath);
  }

  /** The job as the current server knows it (opened again after a restart: the new server has none of the ids). */
  async current(): Promise<OpenJobResult> {
    if (this.closed) throw new Error(`The job ${this.name} was closed; open it again to use it.`);
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

  private async openOn(client: NsysClient): Promise<OpenJobResult> {
    return withServerProgress(`Opening the job ${this.name}`, (opts) => client.openJob(this.uri.fsPath, opts));
  }

  /** The ranks per node the job's requests use, shown in its view's header; throws when the setting is not valid. */
  ranksPerNode(): number {
    const n = this.ownRanksPerNode ?? ranksPerNodeSetting(vscode.workspace.getConfiguration('nsysAi'));
    this.post({ type: 'nodes', text: nodesText(n) });
    return n;
  }

  post(message: unknown): void {
    void this.panel?.webview.postMessage(message);
  }

  /** Closes the job on the server; resolves once it has answered. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.openedOn;
    const opening = this.opening;
    this.opening = undefined;
    await opening?.then(({ jobId }) => client?.closeJob(jobId)).catch(() => undefined);
  }
}

export class JobRegistry {
  private readonly jobs = new Map<string, JobDocument>();
  private active: JobDocument | undefined;

  add(job: JobDocument): void {
    this.jobs.set(job.uri.toString(), job);
    this.active = job;
  }

  remove(job: JobDocument): void {
    if (this.jobs.get(job.uri.toString()) === job) this.jobs.delete(job.uri.toString());
    if (this.active === job) this.active = undefined;
  }

  setActive(job: JobDocument): void {
    this.active = job;
  }

  get(uri: vscode.Uri): JobDocument | undefined {
    return this.jobs.get(uri.toString());
  }

  all(): JobDocument[] {
    return [...this.jobs.values()];
  }

  /** The job a command applies to: the one named, else the active view's, else the only one, else a pick. */
  async pick(uri?: vscode.Uri): Promise<JobDocument | undefined> {
    const named = uri ? this.get(uri) : undefined;
    if (named) return named;
    if (this.active) return this.active;
    const all = this.all();
    if (all.length <= 1) {
      if (!all.length) void vscode.window.showInformationMessage('Open a job first (nsys-ai: Open Job).');
      return all[0];
    }
    const choice = await vscode.window.showQuickPick(
      all.map((r) => ({ label: r.name, description: r.uri.fsPath, job: r })),
      { placeHolder: 'Which job?' },
    );
    return choice?.job;
  }
}
