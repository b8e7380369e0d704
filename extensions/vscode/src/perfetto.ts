// Opening a trace in Perfetto: the server writes and serves it (nsys/openInPerfetto), the browser opens the loopback
// opener page. One path for a profile (Open in Perfetto, Reveal in Perfetto, the lenses) and a job (Open Job
// Timeline in Perfetto). asExternalUri forwards the remote port under Remote-SSH and returns the local address; it is
// resolved afresh each time, never cached, because the user can close the forwarded port.
// Only the page's origin goes through asExternalUri, and the page's path and query are put back on its answer (VS
// Code's guidance): VS Code for the web (code-server, the browser VS Code of HPC portals) maps a loopback URI to its
// port proxy, http://HOST/proxy/PORT/, and drops the path and query, which left the browser on a "Not found" page.
import * as vscode from 'vscode';
import { withServerProgress } from './progress';
import type { NsysClient } from './protocol/client';
import type { OpenInPerfettoParams, OpenInPerfettoResult } from './protocol/types';

/**
 * The page `page` (an absolute http(s) URL) behind `external`, what asExternalUri made of the page's origin: its
 * path appended to external's path, the queries of both kept (external's first, e.g. a proxy's token), page's fragment.
 */
export function pageBehind(external: string, page: string): string {
  const out = new URL(external);
  const inner = new URL(page);
  out.pathname = out.pathname.replace(/\/+$/, '') + inner.pathname;
  out.search = [out.search.slice(1), inner.search.slice(1)].filter(Boolean).join('&');
  out.hash = inner.hash;
  return out.toString();
}

export async function openLoopbackUrl(url: string): Promise<boolean> {
  const origin = await vscode.env.asExternalUri(vscode.Uri.parse(`${new URL(url).origin}/`));
  return vscode.env.openExternal(vscode.Uri.parse(pageBehind(origin.toString(true), url)));
}

/**
 * nsys/openInPerfetto on a profile or a job, with its progress under `title`; then the opener page in the browser,
 * unless the server already asked this client to show it (`showDocument`: the session's middleware opened it).
 */
export async function openInPerfetto(
  client: NsysClient,
  params: OpenInPerfettoParams,
  title = 'Preparing the trace for Perfetto',
): Promise<OpenInPerfettoResult> {
  const result = await withServerProgress(title, (opts) => client.publishForPerfetto(params, opts));
  if (!result.showDocument && !(await openLoopbackUrl(result.url))) {
    void vscode.window.showWarningMessage(`Could not open a browser. ${result.sshHint}`);
  }
  return result;
}

/**
 * The server's `window/showDocument` (sent by nsys/openInPerfetto to clients that support it): an external http(s)
 * page goes the same way as the command's link; anything else to the default handler.
 */
export async function handleShowDocument<R>(
  params: { uri: string; external?: boolean },
  next: (params: { uri: string; external?: boolean }) => Promise<R>,
): Promise<{ success: boolean } | R> {
  if (params.external && /^https?:/.test(params.uri)) return { success: await openLoopbackUrl(params.uri) };
  return next(params);
}
