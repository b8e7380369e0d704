// A small stand-in for the `vscode` module: just the API the extension calls, recording what it was asked to show
// and answering prompts from queues the tests fill. Importing this file makes `require('vscode')` resolve to it.
import Module from 'module';
import { CancellationTokenSource } from 'vscode-jsonrpc';

type Answer = unknown | ((items: unknown) => unknown);

export const record = {
  messages: [] as { level: 'info' | 'warning' | 'error'; text: string; items: string[] }[],
  executed: [] as { command: string; args: unknown[] }[],
  asExternalUri: [] as string[],
  openExternal: [] as string[],
  progress: [] as { title: string; reports: { increment?: number; message?: string }[] }[],
  panels: [] as FakePanel[],
  inputs: [] as { title?: string; validation: (string | undefined)[] }[],
  configUpdates: [] as { key: string; value: unknown }[],
  customEditors: [] as string[],
  treeViews: [] as string[],
  shownDocuments: [] as { uri: string; selection?: { line: number; character: number } }[],
  appliedEdits: [] as WorkspaceEdit[],
  clipboard: [] as string[],
};
/** Whether workspace.applyEdit succeeds (VS Code answers false when a file changed under the edit). */
export const editControl = { apply: true };

/** The commands registered now. */
export function registeredCommands(): string[] {
  return [...commandTable.keys()];
}
export const answers = {
  quickPick: [] as Answer[],
  input: [] as Answer[],
  message: [] as Answer[],
  save: [] as Answer[],
  open: [] as Answer[],
};
export const settings = new Map<string, unknown>();
/** The tests' hook into the next notification's cancel button. */
export const progressControl = { cancelNext: false };
/** The local port that asExternalUri "forwards" to. */
export let forwardedPort = 51000;
/** Set webProxy to an origin (http://host:port) for asExternalUri to answer as VS Code for the web's port proxy does. */
export const forwarding = { webProxy: '' };

export function reset(): void {
  for (const list of Object.values(record)) list.length = 0;
  for (const list of Object.values(answers)) list.length = 0;
  settings.clear();
  progressControl.cancelNext = false;
  editControl.apply = true;
  forwarding.webProxy = '';
}

function take(queue: Answer[], items?: unknown): unknown {
  const next = queue.shift();
  return typeof next === 'function' ? (next as (i: unknown) => unknown)(items) : next;
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
  ) {}
  static file(p: string): Uri {
    return new Uri('file', '', p);
  }
  static parse(text: string): Uri {
    const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(text);
    if (!m) throw new Error(`stand-in Uri.parse cannot read ${text}`);
    return new Uri(m[1], m[2], m[3] || '/', m[4] ?? '');
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { authority?: string }): Uri {
    return new Uri(this.scheme, change.authority ?? this.authority, this.path, this.query);
  }
  toString(): string {
    return this.scheme === 'file' ? `file://${this.path}` : `${this.scheme}://${this.authority}${this.path}${this.query}`;
  }
}

export class Disposable {
  constructor(private readonly fn: () => void = () => {}) {}
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => unknown)[] = [];
  event = (listener: (e: T) => unknown) => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export { CancellationTokenSource };

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}
export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number, b: number, c: number, d: number) {
    this.start = new Position(a, b);
    this.end = new Position(c, d);
  }
}
export class WorkspaceEdit {
  readonly edits: { uri: Uri; range: Range; newText: string }[] = [];
  replace(uri: Uri, range: Range, newText: string): void {
    this.edits.push({ uri, range, newText });
  }
  insert(uri: Uri, position: Position, newText: string): void {
    this.edits.push({ uri, range: new Range(position.line, position.character, position.line, position.character), newText });
  }
}
export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}
export class FakeStatusBarItem {
  text = '';
  tooltip: string | undefined;
  command: string | undefined;
  name: string | undefined;
  visible = false;
  disposed = false;
  constructor(
    readonly id: string,
    readonly alignment: StatusBarAlignment,
    readonly priority: number,
  ) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
    this.visible = false;
  }
}
export const statusBarItems: FakeStatusBarItem[] = [];
export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}
export class Diagnostic {
  source?: string;
  code?: string | number;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity,
  ) {}
}
export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}
export class ThemeIcon {
  constructor(readonly id: string) {}
}
export class TreeItem {
  description?: string;
  tooltip?: string;
  iconPath?: ThemeIcon;
  contextValue?: string;
  id?: string;
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}
export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}
export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}
export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
}
export class TabInputText {
  constructor(readonly uri: Uri) {}
}
export class TabInputCustom {
  constructor(
    readonly uri: Uri,
    readonly viewType: string,
  ) {}
}

/** Where the <div> whose content starts at `from` ends (the index of its closing tag). */
function closingDiv(html: string, from: number): number {
  let depth = 1;
  for (let i = from; i < html.length; i++) {
    if (html.startsWith('<div', i)) depth += 1;
    else if (html.startsWith('</div>', i) && --depth === 0) return i;
  }
  return html.length;
}

export class FakePanel {
  readonly posted: unknown[] = [];
  private readonly receivers: ((m: unknown) => unknown)[] = [];
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly viewState = new EventEmitter<{ webviewPanel: FakePanel }>();
  active = true;
  /** Every page the webview was given, in order; webview.html is the last. */
  readonly pages: string[] = [];
  readonly webview = {
    pages: this.pages,
    get html(): string {
      return this.pages.at(-1) ?? '';
    },
    set html(page: string) {
      this.pages.push(page);
    },
    options: {} as object,
    cspSource: 'vscode-resource:',
    postMessage: async (m: unknown) => {
      this.posted.push(m);
      if ((m as { type?: string }).type === 'section') {
        this.sections.push({ message: m as { id: string; html: string }, page: this.pages.length });
      }
      return true;
    },
    onDidReceiveMessage: (handler: (m: unknown) => unknown) => {
      this.receivers.push(handler);
      return new Disposable();
    },
  };
  constructor(
    readonly viewType: string,
    readonly title: string,
  ) {
    record.panels.push(this);
  }
  onDidDispose = this.disposeEmitter.event;
  onDidChangeViewState = this.viewState.event;
  reveals = 0;
  reveal(): void {
    this.reveals += 1;
  }
  /**
   * What the webview shows, as its script paints it: the last page with the tables posted into it since it was set
   * ('section' messages replace the inner HTML of the element `${id}-body`).
   */
  shown(): string {
    let page = this.webview.html;
    for (const { message, page: at } of this.sections) {
      if (at !== this.pages.length) continue;
      const open = `<div id="${message.id}-body">`;
      const start = page.indexOf(open);
      if (start < 0) continue;
      const end = closingDiv(page, start + open.length);
      page = page.slice(0, start + open.length) + message.html + page.slice(end);
    }
    return page;
  }
  private readonly sections: { message: { id: string; html: string }; page: number }[] = [];
  /** What the webview's script would post. */
  async receive(message: unknown): Promise<void> {
    for (const r of this.receivers) await r(message);
  }
  dispose(): void {
    this.disposeEmitter.fire();
  }
}

function message(level: 'info' | 'warning' | 'error') {
  return async (text: string, ...items: string[]) => {
    record.messages.push({ level, text, items });
    return take(answers.message, items);
  };
}

const commandTable = new Map<string, (...args: unknown[]) => unknown>();
const tabsEmitter = new EventEmitter<{ opened: unknown[] }>();

export const window = {
  showInformationMessage: message('info'),
  showWarningMessage: message('warning'),
  showErrorMessage: message('error'),
  async withProgress<T>(
    options: { title: string },
    task: (p: { report(v: { increment?: number; message?: string }): void }, t: unknown) => Promise<T>,
  ): Promise<T> {
    const entry = { title: options.title, reports: [] as { increment?: number; message?: string }[] };
    record.progress.push(entry);
    const source = new CancellationTokenSource();
    if (progressControl.cancelNext) {
      progressControl.cancelNext = false;
      setTimeout(() => source.cancel(), 5);
    }
    return task({ report: (v) => entry.reports.push(v) }, source.token);
  },
  async showQuickPick(items: unknown[]) {
    return take(answers.quickPick, await items);
  },
  async showInputBox(options: { title?: string; validateInput?: (v: string) => string | undefined }) {
    const value = take(answers.input) as string | undefined;
    const validation = value === undefined ? [] : [options.validateInput?.(value)];
    record.inputs.push({ title: options.title, validation });
    return validation[0] ? undefined : value;
  },
  async showOpenDialog() {
    return take(answers.open);
  },
  async showSaveDialog() {
    return take(answers.save);
  },
  createWebviewPanel(viewType: string, title: string) {
    return new FakePanel(viewType, title);
  },
  createOutputChannel() {
    return { appendLine() {}, dispose() {} };
  },
  registerCustomEditorProvider(viewType: string) {
    record.customEditors.push(viewType);
    return new Disposable();
  },
  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority: number) {
    const item = new FakeStatusBarItem(id, alignment, priority);
    statusBarItems.push(item);
    return item;
  },
  async showTextDocument(uri: Uri, options?: { selection?: Range }) {
    record.shownDocuments.push({ uri: uri.toString(), selection: options?.selection?.start });
    return {};
  },
  createTreeView(viewId: string) {
    record.treeViews.push(viewId);
    return { description: '', dispose() {} };
  },
  tabGroups: { activeTabGroup: { activeTab: undefined as unknown }, onDidChangeTabs: tabsEmitter.event },
};

export const commands = {
  registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
    commandTable.set(id, fn);
    return new Disposable(() => commandTable.delete(id));
  },
  async executeCommand(command: string, ...args: unknown[]) {
    record.executed.push({ command, args });
    const fn = commandTable.get(command);
    return fn ? fn(...args) : undefined;
  },
};

/** Fire to play a settings change: the listeners of workspace.onDidChangeConfiguration get it. */
export const configChanges = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();

export const workspace = {
  /** vscode.workspace.isTrusted: set false to play an untrusted (restricted mode) workspace. */
  isTrusted: true,
  getConfiguration(section: string) {
    return {
      get<T>(key: string, fallback: T): T {
        const k = `${section}.${key}`;
        return settings.has(k) ? (settings.get(k) as T) : fallback;
      },
      /** Only the user's value (as globalValue): a setting in `settings` is one the user set. */
      inspect<T>(key: string): { key: string; globalValue?: T } {
        const k = `${section}.${key}`;
        return settings.has(k) ? { key: k, globalValue: settings.get(k) as T } : { key: k };
      },
      async update(key: string, value: unknown) {
        record.configUpdates.push({ key: `${section}.${key}`, value });
        settings.set(`${section}.${key}`, value);
      },
    };
  },
  onDidChangeConfiguration: configChanges.event,
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    record.appliedEdits.push(edit);
    return editControl.apply;
  },
};

export const env = {
  async asExternalUri(uri: Uri): Promise<Uri> {
    record.asExternalUri.push(uri.toString());
    if (forwarding.webProxy) {
      // VS Code for the web (code-server 4.100): a loopback URI becomes the port proxy's root, its path and query dropped.
      return Uri.parse(`${forwarding.webProxy}/proxy/${/:(\d+)$/.exec(uri.authority)![1]}/`);
    }
    forwardedPort += 1; // a fresh forward each time, as when the user closed the previous one
    return uri.with({ authority: `localhost:${forwardedPort}` });
  },
  async openExternal(uri: Uri): Promise<boolean> {
    record.openExternal.push(uri.toString());
    return true;
  },
  clipboard: {
    async writeText(text: string): Promise<void> {
      record.clipboard.push(text);
    },
  },
};

/** How many diagnostic collections the extension made (the language client's own is not made through here). */
export const diagnosticCollections = { count: 0 };

export const languages = {
  createDiagnosticCollection() {
    diagnosticCollections.count += 1;
    return { set() {}, get() {}, delete() {}, clear() {}, dispose() {} };
  },
};

// `require('vscode')` anywhere in the extension's modules gets this module.
const resolve = (Module as unknown as { _resolveFilename: (...a: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: (...a: unknown[]) => string })._resolveFilename = function (
  request: unknown,
  ...rest: unknown[]
) {
  return request === 'vscode' ? __filename : resolve.call(this, request, ...rest);
};

// vscode-languageclient, bundled into dist/extension.js, subclasses many vscode classes when it loads
// (`class ProtocolCompletionItem extends vscode.CompletionItem`). The bundle test loads it, so any class this
// stand-in does not define is an empty one; the logic under test only uses what is defined above.
module.exports = new Proxy(module.exports, {
  get(target, name) {
    if (name in target || typeof name === 'symbol') return target[name];
    return (target[name] = class {});
  },
});
