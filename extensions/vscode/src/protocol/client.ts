// The protocol client: every request the extension makes to `nsys-ai serve --stdio`, over any connection that can
// send requests and receive `$/progress` (vscode-languageclient's LanguageClient in the editor, a vscode-jsonrpc
// MessageConnection in the tests). It imports nothing from `vscode`, so the tests drive the real server through it.
import { ProgressType } from 'vscode-jsonrpc';
import type {
  AnalyzeResult,
  AnnotationPlanResult,
  AskResult,
  Cell,
  DiffResult,
  ExplainKernelResult,
  ExportJobTraceResult,
  ExportTraceResult,
  FilterWindow,
  Finding,
  KernelSourcesResult,
  ListSkillsResult,
  LlmOptions,
  MappingCoverage,
  NvtxTreeResult,
  OpenInPerfettoParams,
  OpenInPerfettoResult,
  OpenProfileResult,
  OpenJobResult,
  JobAnalysisResult,
  JobReportResult,
  SkillResult,
  WorkDoneProgressValue,
} from './types';
import type { NsysMethods } from './generated';

export interface Disposable {
  dispose(): unknown;
}

/** Cancellation as both vscode and vscode-jsonrpc define it. */
export interface CancellationToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): Disposable;
}

/** What LanguageClient and MessageConnection have in common, and all this client needs. */
export interface RpcConnection {
  sendRequest<R>(method: string, params: unknown, token?: CancellationToken): Promise<R>;
  onProgress<P>(type: ProgressType<P>, token: string | number, handler: (value: P) => void): Disposable;
}

export interface RequestOptions {
  /** Cancelling it sends `$/cancelRequest`; the server then answers -32800. */
  cancel?: CancellationToken;
  /** Work-done progress (`begin`/`report`/`end`) of this request. */
  onProgress?: (value: WorkDoneProgressValue) => void;
}

export const METHOD_NOT_FOUND = -32601;
export const REQUEST_CANCELLED = -32800;

export function errorCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

export function isMethodNotFound(err: unknown): boolean {
  return errorCode(err) === METHOD_NOT_FOUND;
}

export function isCancelled(err: unknown): boolean {
  return errorCode(err) === REQUEST_CANCELLED;
}

/** The server's message, shown to the user as it is (docs/protocol.md: messages are full sentences). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(err);
}

/**
 * initializationOptions for `initialize`: only the LLM settings that are set (never a key), and the source roots
 * the user named beyond the workspace folders (which go in `workspaceFolders`).
 */
export function buildInitializationOptions(
  llm: LlmOptions,
  sourceRoots: readonly string[] = [],
): { llm?: LlmOptions; sourceRoots?: string[] } {
  const picked: LlmOptions = {};
  for (const key of ['provider', 'model', 'baseUrl', 'apiKeyEnv'] as const) {
    const value = llm[key]?.trim();
    if (value) picked[key] = value;
  }
  const roots = sourceRoots.map((r) => r.trim()).filter((r) => r !== '');
  return {
    ...(Object.keys(picked).length ? { llm: picked } : {}),
    ...(roots.length ? { sourceRoots: roots } : {}),
  };
}

/**
 * The mapping coverage of a profileInfo/openProfile result: `null` when the server has not computed it, `undefined`
 * when the server does not report it at all (older builds). The protocol puts it beside `info`, never in it.
 */
export function mappingCoverageOf(result: OpenProfileResult): MappingCoverage | null | undefined {
  const value = result.mappingCoverage;
  if (value === null) return null;
  if (!value || typeof value.share !== 'number') return undefined;
  return value;
}

/** A method the server does not have: the client hides the feature instead of failing. */
export class Unsupported {
  constructor(readonly method: string) {}
}

let tokenCounter = 0;
function freshToken(kind: string): string {
  tokenCounter += 1;
  return `nsys-ai-vscode-${kind}-${process.pid}-${tokenCounter}`;
}

/** A job request's params: `ranksPerNode` only when set and not 0 (absent = each rank its own node). */
export function jobParams(jobId: string, ranksPerNode?: number): { jobId: string; ranksPerNode?: number } {
  return ranksPerNode ? { jobId, ranksPerNode } : { jobId };
}

export class NsysClient {
  private readonly missing = new Set<string>();
  private known: Set<string> | undefined;

  constructor(private readonly conn: RpcConnection) {}

  /** Records `capabilities.experimental.nsysMethods` from the initialize result, when the server sent it. */
  setServerCapabilities(initializeResult: unknown): void {
    const methods = (initializeResult as { capabilities?: { experimental?: { nsysMethods?: unknown } } } | undefined)
      ?.capabilities?.experimental?.nsysMethods;
    this.known = Array.isArray(methods) ? new Set(methods.filter((m): m is string => typeof m === 'string')) : undefined;
  }

  /** False once the server answered -32601 for the method, or did not list it among its nsysMethods. */
  supports(method: string): boolean {
    if (this.missing.has(method)) return false;
    return this.known === undefined || this.known.has(method);
  }

  /**
   * One request with optional work-done progress and partial results. Tokens are fresh per request, and the
   * progress handlers are removed when the request settles, whatever its outcome.
   */
  request<M extends keyof NsysMethods, R>(
    method: M,
    params: NsysMethods[M]['params'],
    opts: RequestOptions = {},
    onPartial?: (value: unknown) => void,
  ): Promise<R> {
    return this.send<R>(method, params as object, opts, onPartial);
  }

  /** `request` for a method name the generated map does not hold (a newer server's, or a test's unknown one). */
  async send<R>(
    method: string,
    params: object,
    opts: RequestOptions = {},
    onPartial?: (value: unknown) => void,
  ): Promise<R> {
    const subscriptions: Disposable[] = [];
    const full: Record<string, unknown> = { ...params };
    if (opts.onProgress) {
      const token = freshToken('progress');
      full.workDoneToken = token;
      const report = opts.onProgress;
      subscriptions.push(this.conn.onProgress(new ProgressType<WorkDoneProgressValue>(), token, (v) => report(v)));
    }
    if (onPartial) {
      const token = freshToken('partial');
      full.partialResultToken = token;
      subscriptions.push(this.conn.onProgress(new ProgressType<unknown>(), token, (v) => onPartial(v)));
    }
    try {
      // vscode-jsonrpc treats a trailing `undefined` as a second positional param, so the token goes only when set.
      return await (opts.cancel
        ? this.conn.sendRequest<R>(method, full, opts.cancel)
        : this.conn.sendRequest<R>(method, full));
    } catch (err) {
      if (isMethodNotFound(err)) this.missing.add(method);
      throw err;
    } finally {
      for (const s of subscriptions) s.dispose();
    }
  }

  /** For the methods other helpers are adding to the server now: Unsupported instead of an error on -32601. */
  private async optional<M extends keyof NsysMethods, R>(
    method: M,
    params: NsysMethods[M]['params'],
    opts?: RequestOptions,
    onPartial?: (value: unknown) => void,
  ): Promise<R | Unsupported> {
    if (!this.supports(method)) return new Unsupported(method);
    try {
      return await this.request<M, R>(method, params, opts, onPartial);
    } catch (err) {
      if (isMethodNotFound(err)) return new Unsupported(method);
      throw err;
    }
  }

  openProfile(path: string, opts?: RequestOptions): Promise<OpenProfileResult> {
    return this.request('nsys/openProfile', { path }, opts);
  }

  profileInfo(profileId: string): Promise<OpenProfileResult> {
    return this.request('nsys/profileInfo', { profileId });
  }

  closeProfile(profileId: string): Promise<null> {
    return this.request('nsys/closeProfile', { profileId });
  }

  listSkills(): Promise<ListSkillsResult> {
    return this.request('nsys/listSkills', {});
  }

  /** Runs a skill; a table the server streams (more than 500 rows) is put back together in order. */
  async runSkill(
    profileId: string,
    skill: string,
    args: Record<string, Cell> = {},
    opts?: RequestOptions,
  ): Promise<SkillResult> {
    let streamed: SkillResult | undefined;
    const onPartial = (value: unknown) => {
      const part = value as Partial<SkillResult>;
      if (!streamed) streamed = { columns: part.columns ?? [], rows: [], notes: [], declined: false };
      if (part.columns && streamed.columns.length === 0) streamed.columns = part.columns;
      if (Array.isArray(part.rows)) streamed.rows.push(...part.rows);
    };
    const result = await this.request<'nsys/runSkill', SkillResult>('nsys/runSkill', { profileId, skill, args }, opts, onPartial);
    if (streamed && result.streamedRows !== undefined) {
      return { ...result, columns: result.columns?.length ? result.columns : streamed.columns, rows: streamed.rows };
    }
    return result;
  }

  /**
   * Findings of the profile. The server may stream them as partial results (`{findings: [...]}` or one finding per
   * value): `onFinding` sees each as it comes. The final result's list wins when it is not empty; otherwise the
   * streamed findings are the answer.
   */
  async analyze(
    profileId: string,
    opts?: RequestOptions,
    onFinding?: (finding: Finding) => void,
  ): Promise<AnalyzeResult | Unsupported> {
    const streamed: Finding[] = [];
    const onPartial = (value: unknown) => {
      const v = value as { findings?: unknown; title?: unknown } | null;
      const found = Array.isArray(v?.findings) ? (v!.findings as Finding[]) : typeof v?.title === 'string' ? [v as Finding] : [];
      for (const f of found) {
        streamed.push(f);
        onFinding?.(f);
      }
    };
    const result = await this.optional<'nsys/analyze', AnalyzeResult>('nsys/analyze', { profileId }, opts, onPartial);
    if (result instanceof Unsupported) return result;
    return { ...result, findings: result.findings?.length ? result.findings : streamed };
  }

  explainKernel(profileId: string, kernel: string, opts?: RequestOptions): Promise<ExplainKernelResult | Unsupported> {
    return this.optional('nsys/explainKernel', { profileId, kernel }, opts);
  }

  /** Asks a question; `onText` receives the answer's text as the server streams it (`{text}` partial results). */
  ask(
    profileId: string,
    question: string,
    onText: (text: string) => void,
    opts?: RequestOptions,
    conversationId?: string,
  ): Promise<AskResult | Unsupported> {
    const onPartial = (value: unknown) => {
      const text = (value as { text?: unknown } | null)?.text;
      if (typeof text === 'string') onText(text);
    };
    const params = conversationId ? { profileId, question, conversationId } : { profileId, question };
    return this.optional('nsys/ask', params, opts, onPartial);
  }

  /** With a window, Perfetto opens on that part of the capture only. */
  openInPerfetto(profileId: string, opts?: RequestOptions, window?: FilterWindow): Promise<OpenInPerfettoResult> {
    return this.publishForPerfetto(window ? { profileId, window } : { profileId }, opts);
  }

  /** A job's trace (every rank on the job's clock, as exportJobTrace writes it) for Perfetto. */
  openJobInPerfetto(jobId: string, opts?: RequestOptions, ranksPerNode?: number): Promise<OpenInPerfettoResult> {
    return this.publishForPerfetto(jobParams(jobId, ranksPerNode), opts);
  }

  /** nsys/openInPerfetto on either target: the server writes the trace and serves it behind a token. */
  publishForPerfetto(params: OpenInPerfettoParams, opts?: RequestOptions): Promise<OpenInPerfettoResult> {
    return this.request('nsys/openInPerfetto', params, opts);
  }

  /** One level of the NVTX tree: the threads without a parent, else the parent node's children. */
  nvtxTree(profileId: string, parent?: string, opts?: RequestOptions): Promise<NvtxTreeResult | Unsupported> {
    return this.optional('nsys/nvtxTree', parent === undefined ? { profileId } : { profileId, parent }, opts);
  }

  /** The source locations (innermost annotated NVTX ranges) that launch a kernel, with their share of its time. */
  kernelSources(profileId: string, kernel: string, opts?: RequestOptions): Promise<KernelSourcesResult | Unsupported> {
    return this.optional('nsys/kernelSources', { profileId, kernel }, opts);
  }

  /** What to annotate next, most GPU time first, with the edits and the capture command to run after them. */
  annotationPlan(profileId: string, limit?: number, opts?: RequestOptions): Promise<AnnotationPlanResult | Unsupported> {
    return this.optional('nsys/annotationPlan', limit === undefined ? { profileId } : { profileId, limit }, opts);
  }

  diff(baseProfileId: string, newProfileId: string, opts?: RequestOptions): Promise<DiffResult> {
    return this.request('nsys/diff', { baseProfileId, newProfileId }, opts);
  }

  exportTrace(profileId: string, output: string | undefined, opts?: RequestOptions): Promise<ExportTraceResult> {
    return this.request('nsys/exportTrace', output ? { profileId, output } : { profileId }, opts);
  }

  // Jobs: a directory of rank exports opened as one; every request below names its jobId.
  openJob(directory: string, opts?: RequestOptions): Promise<OpenJobResult> {
    return this.request('nsys/openJob', { directory }, opts);
  }

  closeJob(jobId: string): Promise<null> {
    return this.request('nsys/closeJob', { jobId });
  }

  /** A skill over every rank (rows lead with `rank`), or a job skill's merged table (job_step_heatmap, ...). */
  runSkillOnJob(jobId: string, skill: string, args: Record<string, Cell> = {}, opts?: RequestOptions): Promise<SkillResult> {
    return this.request('nsys/runSkillOnJob', { jobId, skill, args }, opts);
  }

  jobReport(jobId: string, opts?: RequestOptions): Promise<JobReportResult> {
    return this.request('nsys/jobReport', { jobId }, opts);
  }

  /** Every rank on the job's clock in one trace; without `output` the server writes it into its trace cache. */
  exportJobTrace(jobId: string, output: string | undefined, opts?: RequestOptions): Promise<ExportJobTraceResult> {
    return this.request('nsys/exportJobTrace', output ? { jobId, output } : { jobId }, opts);
  }

  analyzeJob(jobId: string, opts?: RequestOptions, ranksPerNode?: number): Promise<JobAnalysisResult> {
    return this.request('nsys/analyzeJob', jobParams(jobId, ranksPerNode), opts);
  }
}
