// Opening a trace in Perfetto: the server writes and serves it (nsys/openInPerfetto), the browser opens the loopback
// opener page. One path for a profile (Open in Perfetto, Reveal in Perfetto, the lenses) and a run (Open Run
// Timeline in Perfetto). asExternalUri forwards the remote port under Remote-SSH and returns the local address; it is
// resolved afresh each time, never cached, because the user can close the forwarded port.
import * as vscode from 'vscode';
import { withServerProgress } from './progress';
import type { NsysClient } from './protocol/client';
import type { OpenInPerfettoParams, OpenInPerfettoResult } from './protocol/types';

export async function openLoopbackUrl(url: string): Promise<boolean> {
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(url));
  return vscode.env.openExternal(external);
}

/**
 * nsys/openInPerfetto on a profile or a run, with its progress under `title`; then the opener page in the browser,
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
