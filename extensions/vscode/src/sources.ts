// The user's source files the server maps the profile onto: the languages whose documents the language
// client syncs, so code lenses, hovers, diagnostics and code actions on them come through the standard LSP features,
// and the files whose changes on disk it reports (workspace/didChangeWatchedFiles). Free of `vscode`.

/** VS Code language ids of the languages the server's annotation index reads (Python, C/C++/CUDA, Julia). */
export const SOURCE_LANGUAGES = ['python', 'c', 'cpp', 'cuda-cpp', 'julia'] as const;

/** The files of those languages, for the file watcher (created, changed, deleted on disk). */
export const SOURCE_GLOB = '**/*.{py,pyi,c,cc,cpp,cxx,c++,h,hh,hpp,hxx,cu,cuh,jl}';

/** The language server protocol command of a code lens; the language client registers it from the server's
 * executeCommandProvider, so the extension must never register it itself. */
export const REVEAL_RANGE_COMMAND = 'nsys-ai.revealRange';

/**
 * The language client's documentSelector: the source files on disk (`file` scheme). Profiles are not text documents
 * (the custom editor opens them) and are never synced; the findings the server publishes on a profile's URI reach
 * the Problems panel anyway, since pushed diagnostics are not filtered by the selector.
 */
export function sourceDocumentSelector(): { scheme: 'file'; language: string }[] {
  return SOURCE_LANGUAGES.map((language) => ({ scheme: 'file' as const, language }));
}

/** The command a source hover's kernel links run: the kernel's explanation (nsys/explainKernel) in a panel. */
export const EXPLAIN_KERNEL_COMMAND = 'nsysAi.explainKernel';

/**
 * A source hover links each kernel as `nsys-ai://explain/<profileId>/<percent-encoded short name>`; VS Code opens
 * links through commands, so each becomes `command:nsysAi.explainKernel?[profileId, kernel]` (a trusted hover may
 * run that one command only). Other links stay as they are.
 */
export function rewriteExplainLinks(markdown: string): { value: string; changed: boolean } {
  let changed = false;
  const value = markdown.replace(/\]\(nsys-ai:\/\/explain\/([^/)\s]+)\/([^)\s]+)\)/g, (whole, id: string, name: string) => {
    let kernel: string;
    let profileId: string;
    try {
      profileId = decodeURIComponent(id);
      kernel = decodeURIComponent(name);
    } catch {
      return whole;
    }
    changed = true;
    return `](command:${EXPLAIN_KERNEL_COMMAND}?${encodeURIComponent(JSON.stringify([profileId, kernel]))})`;
  });
  return { value, changed };
}
