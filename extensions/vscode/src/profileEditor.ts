// The read-only custom editor of *.sqlite / *.nsys-rep / *.qdrep: a webview rendered from the server's answers.
import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { errorMessage, Unsupported } from './protocol/client';
import { ProfileDocument, Services } from './profiles';
import { RequestOptions } from './protocol/client';
import {
  COMMANDS,
  coverageHtml,
  findingsHtml,
  kernelSourcesHtml,
  renderProfileHtml,
  sectionBodyHtml,
  VIEW_SECTIONS,
} from './view/html';
import { escapeHtml } from './view/format';
import type { Finding } from './protocol/types';
import { parseFileLink, renderMarkdown } from './view/markdown';
import { watchCoverage } from './coverage';
import { loadFindings, loadProfileView, ProfileViewModel } from './view/model';

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
    // "Opening profile…" only when the open is slow (a first load, a report's conversion): a page set and at once
    // replaced by the view is one more page load before the view shows.
    const slow = setTimeout(() => (panel.webview.html = messageHtml('Opening profile…', doc.uri.fsPath, nonce)), 150);
    try {
      const opened = await doc.current().finally(() => clearTimeout(slow));
      const client = await this.services.client();
      const analyze = client.supports('nsys/analyze');
      const findings = { rows: [], notes: [], declined: false, loading: true };
      // The page is set once, as soon as the open has answered (the summary, every table "Computing …"); each table
      // is then posted into it as its answer arrives. Setting webview.html again per table would reload the page each
      // time: a page load per table, and the scroll, an open hover or a half-read table lost to each.
      let painted: ProfileViewModel | undefined;
      const paint = (partial: ProfileViewModel) => {
        if (disposed) return;
        if (analyze) partial.findings = findings;
        if (!painted) {
          panel.webview.html = renderProfileHtml(partial, { nonce, cspSource: panel.webview.cspSource });
        } else {
          for (const id of VIEW_SECTIONS) {
            if (partial[id] === painted[id]) continue;
            void panel.webview.postMessage({ type: 'section', id, html: sectionBodyHtml(partial, id) });
          }
        }
        painted = partial;
      };
      const model = await loadProfileView(client, opened, { findings: false, onSection: paint });
      if (analyze) model.findings = findings;
      if (disposed) return;
      if (model.coverage === null) {
        // Computed by the server in the background after the load: the card fills in when it is known.
        void watchCoverage(
          client,
          opened.profileId,
          (coverage) => coverage && void panel.webview.postMessage({ type: 'coverage', html: coverageHtml(coverage) }),
          () => !disposed,
        ).catch(() => undefined);
      }
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
    } else if (m.type === 'openSource') {
      await openSource(message as { uri?: unknown; line?: unknown; character?: unknown });
    }
  }

  /** The kernel's explanation, and below it the source lines that launch it (nsys/kernelSources) as links. */
  async explain(doc: ProfileDocument, kernel: string): Promise<object> {
    try {
      const { profileId } = await doc.current();
      const client = await this.services.client();
      const [result, sources] = await Promise.all([
        client.explainKernel(profileId, kernel),
        client.kernelSources(profileId, kernel).catch(() => new Unsupported('nsys/kernelSources')),
      ]);
      if (result instanceof Unsupported) return { type: 'kernelExplanation', kernel, unsupported: true };
      // The server's Markdown lists the sources (file: links) when the session has a source set; else they go below.
      const links = sources instanceof Unsupported || /file:\/\//.test(result.markdown) ? '' : kernelSourcesHtml(sources);
      return { type: 'kernelExplanation', kernel, html: renderMarkdown(result.markdown) + links };
    } catch (err) {
      return { type: 'kernelExplanation', kernel, html: `<p class="error">${escapeHtml(errorMessage(err))}</p>` };
    }
  }
}

/**
 * Opens a source location the view links to (a kernel's sources, a file: link in the server's Markdown) in an
 * editor, with the cursor on it. Only file: URIs; a line below 0 means "read it from the link's #L fragment".
 */
export async function openSource(m: { uri?: unknown; line?: unknown; character?: unknown }): Promise<void> {
  if (typeof m.uri !== 'string') return;
  let target: { uri: string; line: number; character: number } | undefined;
  if (typeof m.line === 'number' && m.line >= 0) {
    target = { uri: m.uri, line: m.line, character: typeof m.character === 'number' ? Math.max(m.character, 0) : 0 };
  } else {
    target = parseFileLink(m.uri);
  }
  if (!target || !/^file:\/\//i.test(target.uri)) return;
  try {
    const position = new vscode.Position(target.line, target.character);
    await vscode.window.showTextDocument(vscode.Uri.parse(target.uri), {
      selection: new vscode.Range(position.line, position.character, position.line, position.character),
      viewColumn: vscode.ViewColumn.One,
    });
  } catch (err) {
    void vscode.window.showErrorMessage(errorMessage(err));
  }
}
