// When a .sqlite that is an Nsight export opens in another editor (a generic SQLite viewer, the binary-file
// notice), offer "Open as Nsight profile", once per file and window; "Don't ask again" turns the offer off.
import * as vscode from 'vscode';
import { VIEW_TYPE } from './profileEditor';
import { looksLikeNsightExport } from './sniff';

export const OPEN = 'Open as Nsight profile';
export const NEVER = "Don't ask again";

export class ProfileOffer {
  private readonly offered = new Set<string>();

  /** Checks the tabs just opened; resolves when any offer has been answered. */
  async onTabsOpened(tabs: readonly vscode.Tab[]): Promise<void> {
    for (const tab of tabs) {
      const input = tab.input;
      let uri: vscode.Uri | undefined;
      if (input instanceof vscode.TabInputText) uri = input.uri;
      else if (input instanceof vscode.TabInputCustom && input.viewType !== VIEW_TYPE) uri = input.uri;
      if (uri) await this.consider(uri);
    }
  }

  async consider(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file' || !uri.fsPath.endsWith('.sqlite')) return;
    const config = vscode.workspace.getConfiguration('nsysAi');
    if (!config.get<boolean>('offerToOpenProfiles', true)) return;
    const key = uri.toString();
    if (this.offered.has(key)) return;
    this.offered.add(key);
    if (!(await looksLikeNsightExport(uri.fsPath))) return;
    const name = uri.fsPath.split(/[\\/]/).pop();
    const choice = await vscode.window.showInformationMessage(`${name} is an Nsight Systems export.`, OPEN, NEVER);
    if (choice === OPEN) await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    if (choice === NEVER) await config.update('offerToOpenProfiles', false, vscode.ConfigurationTarget.Global);
  }
}
