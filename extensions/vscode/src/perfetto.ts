// Opening a loopback URL of the server in the user's browser. asExternalUri forwards the remote port under
// Remote-SSH and returns the local address; it is resolved afresh each time, never cached, because the user can
// close the forwarded port.
import * as vscode from 'vscode';

export async function openLoopbackUrl(url: string): Promise<boolean> {
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(url));
  return vscode.env.openExternal(external);
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
