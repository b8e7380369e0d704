// An LSP WorkspaceEdit from the server (nsys/annotationPlan's items) as a vscode.WorkspaceEdit, applied the way
// the language client applies a code action's edit: the server computes every edit, the client only converts it.
import * as vscode from 'vscode';
import type { LspRange, LspTextEdit, LspWorkspaceEdit } from './protocol/types';

const asRange = (r: LspRange) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

/** The text edits of `changes` and of `documentChanges` (text document edits), in the server's order per file. */
export function toWorkspaceEdit(edit: LspWorkspaceEdit): vscode.WorkspaceEdit {
  const out = new vscode.WorkspaceEdit();
  const add = (uri: string, edits: LspTextEdit[]) => {
    const target = vscode.Uri.parse(uri);
    for (const e of edits) out.replace(target, asRange(e.range), e.newText);
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const change of edit.documentChanges ?? []) {
    if (change?.textDocument?.uri && Array.isArray(change.edits)) add(change.textDocument.uri, change.edits);
  }
  return out;
}

/** How many files and edits an LSP WorkspaceEdit holds (for the pick list's description). */
export function editSize(edit: LspWorkspaceEdit): { files: number; edits: number } {
  const files = new Set<string>();
  let edits = 0;
  for (const [uri, list] of Object.entries(edit.changes ?? {})) {
    files.add(uri);
    edits += list.length;
  }
  for (const change of edit.documentChanges ?? []) {
    if (!change?.textDocument?.uri) continue;
    files.add(change.textDocument.uri);
    edits += change.edits?.length ?? 0;
  }
  return { files: files.size, edits };
}
