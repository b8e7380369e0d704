// The profiles open in this window: one server profile id per opened document, closed with the document.
import * as path from 'path';
import * as vscode from 'vscode';
import { NsysClient } from './protocol/client';
import type { OpenProfileResult } from './protocol/types';
import { withServerProgress } from './progress';

export interface Services {
  client(): Promise<NsysClient>;
  registry: ProfileRegistry;
}

export class ProfileDocument implements vscode.CustomDocument {
  readonly panels = new Set<vscode.WebviewPanel>();
  private openedOn: NsysClient | undefined;
  private opening: Promise<OpenProfileResult> | undefined;
  private closed = false;

  constructor(
    readonly uri: vscode.Uri,
    private readonly services: Services,
  ) {}

  /**
   * The profile as the current server knows it. A restarted server (new settings, a crash) has a new client and
   * none of the old ids, so the file is opened again there; the view's data stays valid, since the file is the same.
   */
  async current(): Promise<OpenProfileResult> {
    if (this.closed) throw new Error(`${path.basename(this.uri.fsPath)} was closed; open it again to use it.`);
    const client = await this.services.client();
    if (client !== this.openedOn || !this.opening) {
      this.openedOn = client;
      this.opening = this.openOn(client);
      this.opening.catch(() => {
        if (this.openedOn === client) this.opening = undefined; // the next use tries again
      });
    }
    return this.opening;
  }

  private async openOn(client: NsysClient): Promise<OpenProfileResult> {
    if (this.uri.scheme !== 'file') {
      throw new Error(
        `nsys-ai opens profiles on the machine where the workspace is; '${this.uri.toString()}' is not a file there.`,
      );
    }
    const name = path.basename(this.uri.fsPath);
    return withServerProgress(`Opening ${name}`, (opts) => client.openProfile(this.uri.fsPath, opts));
  }

  post(message: unknown): void {
    for (const panel of this.panels) void panel.webview.postMessage(message);
  }

  dispose(): void {
    void this.close();
  }

  /** Forgets the document and closes its profile on the server; resolves once the server has answered. */
  async close(): Promise<void> {
    this.closed = true; // a late tree expansion or command must not open it again behind the user's back
    this.services.registry.remove(this);
    // closeProfile makes the server publish an empty diagnostics list for this file (its findings leave Problems).
    const client = this.openedOn;
    const opening = this.opening;
    this.opening = undefined;
    await opening
      ?.then(({ profileId }) => client?.closeProfile(profileId))
      .catch(() => undefined); // a failed open holds nothing; the server may already be gone
  }
}

export class ProfileRegistry {
  private readonly docs = new Map<string, ProfileDocument>();
  private active: ProfileDocument | undefined;
  private lastShown: ProfileDocument | undefined;
  private readonly changed = new vscode.EventEmitter<ProfileDocument | undefined>();
  /** Fires when the profile that views such as the NVTX tree show (`shown()`) changes. */
  readonly onDidChangeShown = this.changed.event;

  add(doc: ProfileDocument): void {
    this.docs.set(doc.uri.toString(), doc);
    this.active = doc;
    this.notify();
  }

  remove(doc: ProfileDocument): void {
    if (this.docs.get(doc.uri.toString()) === doc) this.docs.delete(doc.uri.toString());
    if (this.active === doc) this.active = undefined;
    this.notify();
  }

  setActive(doc: ProfileDocument): void {
    this.active = doc;
    this.notify();
  }

  /** The profile the views show: the active one, else the last opened that is still open. */
  shown(): ProfileDocument | undefined {
    return this.active ?? this.all().at(-1);
  }

  private notify(): void {
    const now = this.shown();
    if (now !== this.lastShown) {
      this.lastShown = now;
      this.changed.fire(now);
    }
  }

  get(uri: vscode.Uri): ProfileDocument | undefined {
    return this.docs.get(uri.toString());
  }

  all(): ProfileDocument[] {
    return [...this.docs.values()];
  }

  /** The profile a command applies to: the one named, else the active view, else the only one, else a pick. */
  async pick(uri?: vscode.Uri): Promise<ProfileDocument | undefined> {
    if (uri) {
      const doc = this.get(uri);
      if (doc) return doc;
    }
    if (this.active) return this.active;
    const all = this.all();
    if (all.length === 1) return all[0];
    if (all.length === 0) {
      void vscode.window.showInformationMessage('Open an Nsight profile first (nsys-ai: Open Profile).');
      return undefined;
    }
    const choice = await vscode.window.showQuickPick(
      all.map((d) => ({ label: path.basename(d.uri.fsPath), description: d.uri.fsPath, doc: d })),
      { placeHolder: 'Which profile?' },
    );
    return choice?.doc;
  }
}
