// The server process: `nsys-ai serve --stdio` started by vscode-languageclient on the workspace side. The LLM
// settings go in initializationOptions.llm; a key (SecretStorage's, or the variable nsysAi.llm.apiKeyEnv names) goes
// into the server's environment under KEY_ENV (and apiKeyEnv names it), so no key is ever in the settings or in a
// protocol message. In an untrusted workspace neither goes: the server keeps its own LLM configuration.
// The user's source files (Python, C/C++/CUDA, Julia) are synced to the server, which indexes the workspace folders
// (sent by the language client at initialize) and puts the profile's numbers on them: code lenses, hovers,
// diagnostics and code actions all arrive through the language client's standard features; the lens command
// (nsys-ai.revealRange) is registered by the language client from the server's executeCommandProvider.
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State, TransportKind } from 'vscode-languageclient/node';
import { buildInitializationOptions, NsysClient } from './protocol/client';
import { handleShowDocument } from './perfetto';
import { LOCATE_LABEL, LOCATE_SERVER_COMMAND } from './locateServer';
import { resolveServerPath, standardServerDirs } from './serverPath';
import { KEY_ENV, llmKey, llmSettings, SECRET_KEY, sourceRoots } from './settings';
import { EXPLAIN_KERNEL_COMMAND, rewriteExplainLinks, SOURCE_GLOB, sourceDocumentSelector } from './sources';

export class ServerSession implements vscode.Disposable {
  private starting: Promise<{ lc: LanguageClient; client: NsysClient }> | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly output: vscode.OutputChannel,
  ) {}

  client(): Promise<NsysClient> {
    this.starting ??= this.start();
    const started = this.starting;
    started.catch(() => {
      if (this.starting === started) this.starting = undefined; // the next command tries again
    });
    return started.then((s) => s.client);
  }

  private async start(): Promise<{ lc: LanguageClient; client: NsysClient }> {
    const config = vscode.workspace.getConfiguration('nsysAi');
    const trusted = vscode.workspace.isTrusted;
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const found = resolveServerPath(
      config.get<string>('serverPath', 'nsys-ai'),
      process.env.PATH,
      standardServerDirs(folders, trusted),
    );
    if (!found.ok) {
      void vscode.window.showErrorMessage(found.message, LOCATE_LABEL, 'Open Settings').then((choice) => {
        if (choice === LOCATE_LABEL) void vscode.commands.executeCommand(LOCATE_SERVER_COMMAND);
        else if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'nsysAi.serverPath');
      });
      throw new Error(found.message);
    }
    const key = trusted ? llmKey(config, await this.secrets.get(SECRET_KEY), process.env) : undefined;
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env[KEY_ENV];
    if (key) env[KEY_ENV] = key;
    const serverOptions: ServerOptions = {
      command: found.path,
      args: ['serve', '--stdio', ...config.get<string[]>('serverArgs', [])],
      transport: TransportKind.stdio,
      options: { env },
    };
    const clientOptions: LanguageClientOptions = {
      // The source files on disk. Pushed diagnostics are not filtered by the selector: the findings the server
      // publishes on a profile's file:// URI (after nsys/analyze) land in this collection too (the Problems panel).
      documentSelector: sourceDocumentSelector(),
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher(SOURCE_GLOB) },
      diagnosticCollectionName: 'nsys-ai',
      outputChannel: this.output,
      initializationOptions: buildInitializationOptions(llmSettings(config, Boolean(key), trusted), sourceRoots(config)),
      middleware: {
        // A source hover's kernel links (nsys-ai://explain/...) open the kernel's explanation in a panel.
        provideHover: async (document, position, token, next) => {
          const hover = await next(document, position, token);
          if (!hover) return hover;
          let changed = false;
          const contents = hover.contents.map((c) => {
            const text = typeof c === 'string' ? c : c.value;
            const rewritten = rewriteExplainLinks(text);
            if (!rewritten.changed) return c;
            changed = true;
            const md = new vscode.MarkdownString(rewritten.value);
            md.isTrusted = { enabledCommands: [EXPLAIN_KERNEL_COMMAND] };
            return md;
          });
          return changed ? new vscode.Hover(contents, hover.range) : hover;
        },
        window: {
          // The server's window/showDocument for the Perfetto opener page: forwarded the same way as the command's.
          showDocument: async (params, next) => {
            const result = await handleShowDocument(params, (p) =>
              Promise.resolve(next(p, new vscode.CancellationTokenSource().token)),
            );
            return 'success' in result ? result : { success: false };
          },
        },
      },
    };
    const lc = new LanguageClient('nsysAi', 'nsys-ai', serverOptions, clientOptions);
    await lc.start();
    const fresh = () => {
      const client = new NsysClient(lc);
      client.setServerCapabilities({ capabilities: lc.initializeResult?.capabilities });
      return { lc, client };
    };
    const started = fresh();
    // After a crash the language client starts a new server process, which has none of the old profile ids: a new
    // NsysClient tells the open profiles to open their files again (ProfileDocument.current).
    lc.onDidChangeState((e) => {
      if (e.newState === State.Running && this.starting && e.oldState !== State.Running) {
        const current = this.starting;
        void current.then((s) => {
          if (s.lc === lc && this.starting === current) this.starting = Promise.resolve(fresh());
        });
      }
    });
    return started;
  }

  async restart(): Promise<void> {
    const old = this.starting;
    this.starting = undefined;
    if (old) await old.then((s) => s.lc.stop(), () => undefined);
  }

  dispose(): void {
    void this.restart();
  }
}
