// The commands. Each one is a request (or two) to the server, its progress as a notification, and its result shown
// as the server gave it.
import * as crypto from 'crypto';
import * as path from 'path';
import * as vscode from 'vscode';
import { errorMessage, isCancelled, Unsupported } from './protocol/client';
import type { Cell, FilterWindow, SkillArg } from './protocol/types';
import { NvtxTreeProvider, revealWindow, TreeElement } from './nvtxTree';
import { openInPerfetto as openInPerfettoUi } from './perfetto';
import { ProfileEditorProvider, VIEW_TYPE } from './profileEditor';
import { ProfileDocument, Services } from './profiles';
import { showServerError, withServerProgress } from './progress';
import { SECRET_KEY } from './settings';
import { escapeHtml, formatBytes, formatNs } from './view/format';
import { renderMarkdown } from './view/markdown';
import { renderDiffHtml } from './view/diff';
import { renderAskHtml, renderKernelHtml, renderSkillTableHtml } from './view/panels';
import { kernelSourcesHtml } from './view/html';
import { EXPLAIN_KERNEL_COMMAND } from './sources';
import { coverageLabel } from './coverage';
import { editSize, toWorkspaceEdit } from './edits';
import { openSource } from './profileEditor';
import type { AnnotationPlanItem, AnnotationPlanResult } from './protocol/types';

export interface CommandContext extends Services {
  editor: ProfileEditorProvider;
  tree?: NvtxTreeProvider;
  secrets: vscode.SecretStorage;
  restartServer(): Promise<void>;
}

const nonce = () => crypto.randomBytes(16).toString('hex');

/** The value typed for a skill argument, as the type the server expects; undefined keeps the default. */
export function parseArgValue(arg: SkillArg, input: string): Cell | undefined {
  const text = input.trim();
  if (text === '') return undefined;
  if (arg.type === 'int' || arg.type === 'double') return Number(text);
  if (arg.type === 'bool') return text === 'true';
  return text;
}

export function validateArgInput(arg: SkillArg, input: string): string | undefined {
  const text = input.trim();
  if (text === '') return arg.required ? `${arg.name} is required.` : undefined;
  if (arg.type === 'int' && !/^-?\d+$/.test(text)) return `${arg.name} takes a whole number.`;
  if (arg.type === 'double' && !Number.isFinite(Number(text))) return `${arg.name} takes a number.`;
  return undefined; // ranges and choices are checked by the server, which names the limit
}

/** Prompts for each argument of a skill; undefined when the user escapes. */
export async function promptArgs(skill: string, args: SkillArg[]): Promise<Record<string, Cell> | undefined> {
  const values: Record<string, Cell> = {};
  for (const arg of args) {
    const title = `${skill}: ${arg.name}`;
    if (arg.choices?.length || arg.type === 'bool') {
      const options = arg.choices?.length ? arg.choices : ['true', 'false'];
      const items = options.map((o) => ({ label: o, description: String(arg.default) === o ? 'default' : '' }));
      const choice = await vscode.window.showQuickPick(items, { title, placeHolder: arg.description });
      if (!choice) return undefined;
      if (String(arg.default) !== choice.label) values[arg.name] = parseArgValue(arg, choice.label) ?? null;
      continue;
    }
    const input = await vscode.window.showInputBox({
      title,
      prompt: arg.description,
      placeHolder: arg.default === null || arg.default === undefined ? '(none)' : `default: ${String(arg.default)}`,
      validateInput: (v) => validateArgInput(arg, v),
    });
    if (input === undefined) return undefined;
    const value = parseArgValue(arg, input);
    if (value !== undefined) values[arg.name] = value;
  }
  return values;
}

// Long: the command table, one short handler each, kept together so the list of commands reads in one place.
export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  const withProfile =
    (fn: (doc: NonNullable<Awaited<ReturnType<typeof ctx.registry.pick>>>) => Promise<unknown>) =>
    async (uri?: vscode.Uri) => {
      const doc = await ctx.registry.pick(uri instanceof vscode.Uri ? uri : undefined);
      if (!doc) return;
      try {
        await fn(doc);
      } catch (err) {
        showServerError(err);
      }
    };

  const openProfile = async () => {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'Nsight Systems profiles': ['sqlite', 'nsys-rep', 'qdrep'] },
      title: 'Open an Nsight Systems profile',
    });
    if (picked?.[0]) await vscode.commands.executeCommand('vscode.openWith', picked[0], VIEW_TYPE);
  };

  const openAsProfile = async (uri?: vscode.Uri) => {
    const target = uri instanceof vscode.Uri ? uri : activeTabUri();
    if (target) await vscode.commands.executeCommand('vscode.openWith', target, VIEW_TYPE);
    else await openProfile();
  };

  const runSkill = withProfile(async (doc) => {
    const client = await ctx.client();
    const { skills } = await client.listSkills();
    const pick = await vscode.window.showQuickPick(
      skills.map((s) => ({ label: s.name, description: s.reference, detail: s.description, skill: s })),
      { placeHolder: 'Run which skill?', matchOnDetail: true },
    );
    if (!pick) return;
    const args = await promptArgs(pick.skill.name, pick.skill.args);
    if (!args) return;
    const { profileId } = await doc.current();
    const result = await withServerProgress(`Running ${pick.skill.name}`, (opts) =>
      client.runSkill(profileId, pick.skill.name, args, opts),
    );
    const title = `${pick.skill.name} · ${path.basename(doc.uri.fsPath)}`;
    const panel = vscode.window.createWebviewPanel('nsysAi.skill', title, vscode.ViewColumn.Beside, {});
    panel.webview.html = renderSkillTableHtml(title, result, nonce());
  });

  const exportTrace = withProfile(async (doc) => {
    const stem = path.basename(doc.uri.fsPath).replace(/\.(sqlite|nsys-rep|qdrep)$/, '');
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(path.dirname(doc.uri.fsPath), `${stem}.pftrace`)),
      filters: { 'Perfetto traces': ['pftrace'] },
      title: 'Export a Perfetto trace',
    });
    if (!target) return;
    const client = await ctx.client();
    const { profileId } = await doc.current();
    const result = await withServerProgress('Exporting the trace', (opts) =>
      client.exportTrace(profileId, target.fsPath, opts),
    );
    void vscode.window.showInformationMessage(
      `Wrote ${formatBytes(result.bytes)} (${result.slices.kernels ?? 0} kernels) to ${result.path ?? target.fsPath}.`,
    );
  });

  // The server writes and serves the trace; the page opens through asExternalUri + openExternal, resolved afresh
  // (perfetto.ts: the same path as a job's timeline).
  const openPerfetto = async (doc: ProfileDocument, window?: FilterWindow) => {
    const client = await ctx.client();
    const { profileId } = await doc.current();
    await openInPerfettoUi(client, window ? { profileId, window } : { profileId });
  };

  const openInPerfetto = withProfile((doc) => openPerfetto(doc));

  /** "Reveal in Perfetto" on an NVTX tree node: Perfetto on a window around the node's longest instance. */
  const revealInPerfetto = async (element?: TreeElement) => {
    if (element?.type !== 'node') return;
    try {
      const { info } = await element.doc.current();
      await openPerfetto(element.doc, revealWindow(element.node, info));
    } catch (err) {
      showServerError(err);
    }
  };

  // Two profiles, each an open one or a file (opened on the server for the diff only), compared by nsys/diff. From
  // the explorer with two files selected, the arguments are the clicked file and the selection.
  const diffProfiles = async (_clicked?: unknown, selected?: unknown) => {
    const given = Array.isArray(selected) && selected.length === 2 && selected.every((u) => u instanceof vscode.Uri)
      ? (selected as vscode.Uri[])
      : undefined;
    const temporary: ProfileDocument[] = [];
    const resolve = async (uri: vscode.Uri) => {
      const open = ctx.registry.get(uri);
      if (open) return open;
      const doc = new ProfileDocument(uri, ctx);
      temporary.push(doc);
      return doc;
    };
    try {
      const baseDoc = given ? await resolve(given[0]) : await pickProfileForDiff('Base profile (before)', undefined, resolve);
      if (!baseDoc) return;
      const newDoc = given ? await resolve(given[1]) : await pickProfileForDiff('New profile (after)', baseDoc, resolve);
      if (!newDoc) return;
      const client = await ctx.client();
      const [base, next] = [await baseDoc.current(), await newDoc.current()];
      const result = await withServerProgress('Comparing the profiles', (opts) =>
        client.diff(base.profileId, next.profileId, opts),
      );
      const title = `Diff · ${path.basename(baseDoc.uri.fsPath)} → ${path.basename(newDoc.uri.fsPath)}`;
      const panel = vscode.window.createWebviewPanel('nsysAi.diff', title, vscode.ViewColumn.Beside, {});
      panel.webview.html = renderDiffHtml(result, nonce());
    } catch (err) {
      showServerError(err);
    } finally {
      await Promise.all(temporary.map((doc) => doc.close()));
    }
  };

  const pickProfileForDiff = async (
    title: string,
    other: ProfileDocument | undefined,
    resolve: (uri: vscode.Uri) => Promise<ProfileDocument>,
  ): Promise<ProfileDocument | undefined> => {
    const open = ctx.registry.all().filter((d) => d !== other);
    const CHOOSE = 'Choose a file…';
    const items = [
      ...open.map((d) => ({ label: path.basename(d.uri.fsPath), description: d.uri.fsPath, doc: d as ProfileDocument | undefined })),
      { label: CHOOSE, description: 'an .sqlite export or a .nsys-rep / .qdrep report', doc: undefined },
    ];
    const choice = await vscode.window.showQuickPick(items, { title, placeHolder: title });
    if (!choice) return undefined;
    if (choice.doc) return choice.doc;
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'Nsight Systems profiles': ['sqlite', 'nsys-rep', 'qdrep'] },
      title,
    });
    return picked?.[0] ? resolve(picked[0]) : undefined;
  };

  const analyze = withProfile(async (doc) => {
    const findings = await withServerProgress('Analyzing the profile', (opts) => ctx.editor.refreshFindings(doc, opts));
    if (!findings) {
      void vscode.window.showInformationMessage('This nsys-ai server has no nsys/analyze; update nsys-ai to get findings.');
      return;
    }
    if (findings.error) throw new Error(findings.error);
    void vscode.window.showInformationMessage(`nsys-ai: ${findings.rows.length} findings (see the Problems panel).`);
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  });

  // One panel per conversation: the first question comes from an input box, follow-ups from the panel's own box,
  // each sent with the conversationId the server returned.
  const ask = withProfile(async (doc) => {
    const question = await vscode.window.showInputBox({ title: 'Ask about this profile', prompt: 'Your question' });
    if (!question?.trim()) return;
    const name = path.basename(doc.uri.fsPath);
    const panel = vscode.window.createWebviewPanel('nsysAi.ask', `Ask · ${name}`, vscode.ViewColumn.Beside, {
      enableScripts: true,
    });
    panel.webview.html = renderAskHtml(`Questions about ${name}`, nonce());
    let conversationId: string | undefined;
    let asked = 0;
    const askOne = async (q: string) => {
      const id = ++asked;
      void panel.webview.postMessage({ type: 'question', id, question: q });
      const client = await ctx.client();
      const { profileId } = await doc.current();
      let text = '';
      const onText = (chunk: string) => {
        text += chunk;
        void panel.webview.postMessage({ type: 'answer', id, html: renderMarkdown(text), done: false });
      };
      try {
        const result = await withServerProgress('Asking', (opts) => client.ask(profileId, q, onText, opts, conversationId));
        if (result instanceof Unsupported) {
          panel.dispose();
          void vscode.window.showInformationMessage('This nsys-ai server has no nsys/ask; update nsys-ai to ask questions.');
          return;
        }
        conversationId = result.conversationId ?? conversationId;
        void panel.webview.postMessage({ type: 'answer', id, html: renderMarkdown(result.answer.markdown), done: true });
      } catch (err) {
        const html = isCancelled(err) ? '<p>Cancelled.</p>' : `<p class="error">${escapeHtml(errorMessage(err))}</p>`;
        void panel.webview.postMessage({ type: 'answer', id, html, done: true });
        showServerError(err);
      }
    };
    panel.webview.onDidReceiveMessage((m: { type?: string; question?: unknown }) => {
      if (m?.type === 'ask' && typeof m.question === 'string' && m.question.trim()) return askOne(m.question.trim());
    });
    await askOne(question.trim());
  });

  // nsys/annotationPlan: what to annotate next, most GPU time first. Choosing an item applies the server's edit
  // (nested NVTX ranges in the user's source) and offers the command that captures the next profile.
  const suggestRefinements = withProfile(async (doc) => {
    const client = await ctx.client();
    const { profileId } = await doc.current();
    const plan = await withServerProgress('Planning NVTX refinements', (opts) =>
      client.annotationPlan(profileId, undefined, opts),
    );
    if (plan instanceof Unsupported) {
      void vscode.window.showInformationMessage(
        'This nsys-ai server has no nsys/annotationPlan; update nsys-ai to get NVTX refinements.',
      );
      return;
    }
    if (!plan.items.length) {
      void vscode.window.showInformationMessage(
        `nsys-ai: nothing to refine in ${path.basename(doc.uri.fsPath)} (${coverageLabel(plan.coverage)}).`,
      );
      return;
    }
    const choice = await vscode.window.showQuickPick(planPickItems(plan), {
      title: `${coverageLabel(plan.coverage)} · ${path.basename(doc.uri.fsPath)}`,
      placeHolder: 'Refine which NVTX range? (most GPU time first)',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!choice) return;
    await applyPlanItem(choice.item, plan);
  });

  // A kernel link of a source hover (`command:nsysAi.explainKernel?[profileId, kernel]`): its explanation and the
  // source lines that launch it, in a panel.
  const explainKernel = async (profileId?: unknown, kernel?: unknown) => {
    if (typeof profileId !== 'string' || typeof kernel !== 'string' || !kernel) return;
    try {
      const client = await ctx.client();
      const [result, sources] = await Promise.all([
        client.explainKernel(profileId, kernel),
        client.kernelSources(profileId, kernel).catch(() => new Unsupported('nsys/kernelSources')),
      ]);
      if (result instanceof Unsupported) {
        void vscode.window.showInformationMessage('This nsys-ai server has no nsys/explainKernel; update nsys-ai.');
        return;
      }
      // The server's Markdown lists the sources when the session has a source set; the list is added otherwise.
      const links = sources instanceof Unsupported || /file:\/\//.test(result.markdown) ? '' : kernelSourcesHtml(sources);
      const title = `Kernel · ${result.kernel}`;
      const panel = vscode.window.createWebviewPanel('nsysAi.kernel', title.slice(0, 80), vscode.ViewColumn.Beside, {
        enableScripts: true,
      });
      panel.webview.html = renderKernelHtml(title, renderMarkdown(result.markdown) + links, nonce());
      panel.webview.onDidReceiveMessage((m: { type?: string }) => {
        if (m?.type === 'openSource') return openSource(m as never);
      });
    } catch (err) {
      showServerError(err);
    }
  };

  const setApiKey = async () => {
    const key = await vscode.window.showInputBox({
      title: 'LLM API key for nsys-ai',
      prompt: 'Kept in VS Code secret storage and handed to the server in its environment. Leave empty to remove it.',
      password: true,
    });
    if (key === undefined) return;
    if (key.trim()) await ctx.secrets.store(SECRET_KEY, key.trim());
    else await ctx.secrets.delete(SECRET_KEY);
    await ctx.restartServer();
  };

  return [
    vscode.commands.registerCommand('nsysAi.openProfile', openProfile),
    vscode.commands.registerCommand('nsysAi.openAsProfile', openAsProfile),
    vscode.commands.registerCommand('nsysAi.runSkill', runSkill),
    vscode.commands.registerCommand('nsysAi.exportTrace', exportTrace),
    vscode.commands.registerCommand('nsysAi.openInPerfetto', openInPerfetto),
    vscode.commands.registerCommand('nsysAi.revealInPerfetto', revealInPerfetto),
    vscode.commands.registerCommand('nsysAi.diffProfiles', diffProfiles),
    vscode.commands.registerCommand('nsysAi.refreshNvtxTree', () => ctx.tree?.refresh()),
    vscode.commands.registerCommand('nsysAi.analyze', analyze),
    vscode.commands.registerCommand('nsysAi.ask', ask),
    vscode.commands.registerCommand('nsysAi.suggestRefinements', suggestRefinements),
    vscode.commands.registerCommand(EXPLAIN_KERNEL_COMMAND, explainKernel),
    vscode.commands.registerCommand('nsysAi.setApiKey', setApiKey),
    vscode.commands.registerCommand('nsysAi.restartServer', ctx.restartServer),
  ];
}

const kernelsPerCall = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The quick pick's rows: the range, its GPU time and kernels per call, and the server's reason. */
export function planPickItems(plan: AnnotationPlanResult): (vscode.QuickPickItem & { item: AnnotationPlanItem })[] {
  return plan.items.map((item) => {
    const where = item.location
      ? `${path.basename(vscode.Uri.parse(item.location.uri).fsPath)}:${item.location.range.start.line + 1}`
      : 'not found in the sources';
    const size = item.edit ? editSize(item.edit) : undefined;
    const action = size ? ` · edit: ${size.edits} change${size.edits === 1 ? '' : 's'}` : '';
    return {
      label: item.name,
      description: `${formatNs(item.gpuNs)} GPU · ${kernelsPerCall(item.kernelsPerCall)} kernels/call of ${item.distinctKernels} kinds · ${where}${action}`,
      detail: item.reason,
      item,
    };
  });
}

/**
 * Applies a plan item's edit (or, without one, shows its source line) and offers the command that captures the
 * next profile, to be opened afterwards: the loop the coverage figure follows.
 */
export async function applyPlanItem(item: AnnotationPlanItem, plan: AnnotationPlanResult): Promise<boolean> {
  const show = async () => {
    if (item.location) {
      await openSource({ uri: item.location.uri, line: item.location.range.start.line, character: item.location.range.start.character });
    }
  };
  if (!item.edit) {
    await show();
    void vscode.window.showInformationMessage(`nsys-ai: '${item.name}': ${item.reason}`);
    return false;
  }
  const applied = await vscode.workspace.applyEdit(toWorkspaceEdit(item.edit));
  if (!applied) {
    void vscode.window.showErrorMessage(
      `nsys-ai could not apply the edit for '${item.name}' (the file changed or is read-only); run the command again.`,
    );
    return false;
  }
  await show();
  const COPY = 'Copy Command';
  const next = plan.nextCommand ? ` Then capture again: ${plan.nextCommand}` : '';
  const answer = await vscode.window.showInformationMessage(
    `nsys-ai added NVTX ranges inside '${item.name}'.${next}`,
    ...(plan.nextCommand ? [COPY] : []),
  );
  if (answer === COPY) await vscode.env.clipboard.writeText(plan.nextCommand);
  return true;
}

function activeTabUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  return undefined;
}
