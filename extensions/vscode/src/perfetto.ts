// Opening a loopback URL of the server in the user's browser. asExternalUri forwards the remote port under
// Remote-SSH and returns the local address; it is resolved afresh each time, never cached, because the user can
// close the forwarded port.
import * as vscode from 'vscode';

export async function openLoopbackUrl(url: string): Promise<boolean> {
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(url));
  return vscode.env.openExternal(external);
}
