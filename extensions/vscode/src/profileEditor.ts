// The read-only custom editor of *.sqlite / *.nsys-rep: a webview rendered from the server's answers.
import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { errorMessage, Unsupported } from './protocol/client';
import { ProfileDocument, Services } from './profiles';
import { RequestOptions } from './protocol/client';
import { COMMANDS, findingsHtml, renderProfileHtml } from './view/html';
import { escapeHtml } from './view/format';
import type { Finding } from './protocol/types';
import { renderMarkdown } from './view/markdown';
import { loadFindings, loadProfileView } from './view/model';

export const VIEW_TYPE = 'nsysAi.profile';

export function messageHtml(title: string, message: string, nonce: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'">
<style nonce="${nonce}">body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:16px 24px}
.error{color:var(--vscode-errorForeground)}</style></head>
<body><h2>${escapeHtml(title)}</h2><p class="${title.startsWith('Could not') ? 'error' : ''}" role="status">${escapeHtml(message)}</p></body></html>`;
}

export class ProfileEditorProvider implements vscode.CustomReadonlyEditorProvider<ProfileDocument> {
  constructor(private readonly services: Services) {}

  openCustomDocument(uri: vscode.Uri): ProfileDocument {
    const doc = new ProfileDocument(uri, this.services);
    this.services.registry.add(doc);
    return doc;
  }

  async resolveCustomEditor(doc: ProfileDocument, panel: vscode.WebviewPanel): Promise<void> {
    const nonce = crypto.randomBytes(16).toString('hex');
    let disposed = false;
    doc.panels.add(panel);
    panel.onDidDispose(() => {
      disposed = true;
      doc.panels.delete(panel);
    });
    panel.onDidChangeViewState((e) => e.webviewPanel.active && this.services.registry.setActive(doc));
    panel.webview.options = { enableScripts: true, localResourceRoots: [] }; // the view loads no files
    panel.webview.onDidReceiveMessage((m) => this.onMessage(doc, panel, m));
    panel.webview.html = messageHtml('Opening profile…', doc.uri.fsPath, nonce);
    try {
      const opened = await doc.current();
      const client = await this.services.client();
      const model = await loadProfileView(client, opened, { findings: false });
      if (client.supports('nsys/analyze')) model.findings = { rows: [], notes: [], declined: false, loading: true };
      if (disposed) return;
      panel.webview.html = renderProfileHtml(model, { nonce, cspSource: panel.webview.cspSource });
      if (model.findings) {
        this.refreshFindings(doc).catch(() =>
          doc.post({ type: 'findings', html: '<p class="muted">Cancelled. Run Analyze to compute the findings.</p>' }),
        );
      }
    } catch (err) {
      if (!disposed) panel.webview.html = messageHtml('Could not open the profile', errorMessage(err), nonce);
    }
  }

  /**
   * Asks nsys/analyze again and updates the view; undefined when the server lacks it. The Problems panel is the
   * server's: it publishes the findings as diagnostics on the profile's file (the language client shows them).
   */
  async refreshFindings(doc: ProfileDocument, opts?: RequestOptions) {
    const { profileId } = await doc.current();
    const streamed: Finding[] = [];
    const onFinding = (finding: Finding) => {
      streamed.push(finding);
      doc.post({ type: 'findings', html: findingsHtml({ rows: streamed, notes: [], declined: false }) });
    };
    const findings = await loadFindings(await this.services.client(), profileId, opts, onFinding);
    doc.post(findings ? { type: 'findings', html: findingsHtml(findings) } : { type: 'findings', hidden: true });
    return findings;
  }

  private async onMessage(doc: ProfileDocument, panel: vscode.WebviewPanel, message: unknown): Promise<void> {
    const m = message as { type?: string; kernel?: unknown; command?: unknown };
    if (m.type === 'explainKernel' && typeof m.kernel === 'string') {
      void panel.webview.postMessage(await this.explain(doc, m.kernel));
    } else if (m.type === 'command' && COMMANDS.some((c) => c.id === m.command)) {
      await vscode.commands.executeCommand(`nsysAi.${m.command as string}`, doc.uri);
    }
  }

  async explain(doc: ProfileDocument, kernel: string): Promise<object> {
    try {
      const { profileId } = await doc.current();
      const result = await (await this.services.client()).explainKernel(profileId, kernel);
      if (result instanceof Unsupported) return { type: 'kernelExplanation', kernel, unsupported: true };
      return { type: 'kernelExplanation', kernel, html: renderMarkdown(result.markdown) };
    } catch (err) {
      return { type: 'kernelExplanation', kernel, html: `<p class="error">${escapeHtml(errorMessage(err))}</p>` };
    }
  }
}
