// Shapes of the nsys-ai protocol (docs/protocol.md) that this client reads. Only the members the extension uses are
// typed; the server may send more.

// Shapes the server writes from their field lists come generated (generated.ts, from the server's own types):
// re-exported here, never written twice.
import type {
  DiffCounts,
  JobMemoryInfo,
  JobRankInfo,
  JobTraceRankInfo,
  MappingCoverage,
  OpenJobResult,
} from './generated';
export type { DiffCounts, JobMemoryInfo, JobRankInfo, JobTraceRankInfo, MappingCoverage, OpenJobResult };

export interface Device {
  id: number;
  name: string;
  chip?: string;
  totalMemory?: number;
  smCount?: number;
}

export interface ProfileInfo {
  sourcePath: string;
  fileSize: number;
  nsysVersion: string;
  schemaVersion?: string;
  startNs: number;
  endNs: number;
  durationNs: number;
  fromCache?: boolean;
  capabilities: Record<string, boolean>;
  devices: Device[];
  processCount?: number;
  threadCount?: number;
  streamCount?: number;
}

export interface OpenProfileResult {
  profileId: string;
  path: string;
  info: ProfileInfo;
  /** The mapping coverage; null when not computed, absent from servers that do not report it. */
  mappingCoverage?: MappingCoverage | null;
}


export type CellType = 'int' | 'double' | 'string' | 'bool';

export interface Column {
  name: string;
  type: CellType;
  description?: string;
}

export type Cell = number | string | boolean | null;

export interface SkillResult {
  columns: Column[];
  rows: Cell[][];
  notes: string[];
  declined: boolean;
  streamedRows?: number;
}

export interface SkillArg {
  name: string;
  type: CellType;
  default?: Cell;
  required?: boolean;
  description?: string;
  choices?: string[];
  min?: number;
  max?: number;
}

export interface SkillDescription {
  name: string;
  reference: string;
  description: string;
  args: SkillArg[];
}

export interface ListSkillsResult {
  skills: SkillDescription[];
  commonArgs: SkillArg[];
}

// The agent's one answer shape (protocol/include/nsys/protocol/answer.h): severity and confidence are
// "high" | "medium" | "low" (| "info").
export interface Evidence {
  call?: { skill: string; args?: Record<string, Cell>; filter?: unknown };
  caption?: string;
  columns?: string[];
  rows?: Cell[][];
}

export interface Answer {
  summary?: string;
  evidence?: Evidence[];
  confidence?: string;
  confidenceReason?: string;
  hypotheses?: string[];
  recommendations?: string[];
  verify?: string;
  refusal?: { reason: string; missing?: string[]; alternatives?: string[] } | null;
  markdown: string;
}

export interface Finding {
  rootCause?: string;
  title: string;
  severity?: string;
  atStakeNs?: number;
  skill?: string;
  coverage?: string;
  answer: Answer;
}

export interface AnalyzeResult {
  findings: Finding[];
  /** The headline: the time budget's dominant part, what did the work, and the largest finding. */
  summary?: string;
}

export interface ExplainKernelResult {
  kernel: string;
  markdown: string;
  [key: string]: unknown;
}

export interface AskResult {
  answer: Answer;
  /** Pass it back with the next question so follow-ups ("and on device 1?") work. */
  conversationId?: string;
}

/**
 * nsys/openInPerfetto's params: a profile's trace (with a window, that part of the capture only), or a job's:
 * the trace nsys/exportJobTrace writes for the same job and ranksPerNode, byte for byte.
 */
export type OpenInPerfettoParams =
  | { profileId: string; window?: FilterWindow }
  | { jobId: string; ranksPerNode?: number };

/** The same for a profile and a job. */
export interface OpenInPerfettoResult {
  /** The opener page, http://127.0.0.1:PORT/p/TOKEN/. */
  url: string;
  port: number;
  token: string;
  expiresAt?: string | number;
  /** The trace itself, served beside the opener page. */
  traceUrl: string;
  deepLink?: string;
  sshHint: string;
  bytes: number;
  sha256: string;
  clampedSlices?: number;
  /** What the trace covers, in words ("whole job" for a job). */
  window?: string;
  /** True when the server already asked this client to open `url` (window/showDocument). */
  showDocument: boolean;
}

export interface ExportTraceResult {
  bytes: number;
  sha256: string;
  path?: string;
  notes: string[];
  packets: number;
  tracks: number;
  slices: Record<string, number>;
  seconds: number;
  streamed: boolean;
}

export interface WorkDoneProgressValue {
  kind: 'begin' | 'report' | 'end';
  title?: string;
  message?: string;
  percentage?: number;
  cancellable?: boolean;
}

export interface LlmOptions {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
}

// nsys/nvtxTree (docs/protocol.md): one level of the NVTX hierarchy per request; ids are opaque.
export interface NvtxTreeNode {
  id: string;
  kind: 'thread' | 'range' | 'kernel';
  name: string;
  label: string;
  pid?: number;
  tid?: number;
  instances: number;
  wallNs: number;
  gpuNs: number;
  kernelCount: number;
  /** The longest instance's interval on the capture clock. */
  startNs: number;
  endNs: number;
  hasChildren: boolean;
}

export interface NvtxTreeResult {
  nodes: NvtxTreeNode[];
  truncated: boolean;
}

/** A window in the one filter shape (nsys/runSkill's Filter.window, nsys/openInPerfetto's window). */
export interface FilterWindow {
  start?: number;
  end?: number;
  clock?: 'relative_s' | 'capture_ns';
}

// nsys/diff: only the members the panel shows.
export interface DiffHeadline {
  metric: string;
  baseNs: number;
  newNs: number;
  /** Absent when the base measured no time (no finite change). */
  changePct?: number;
  noiseFloorPct: number;
  noiseFloorReason?: string;
}

export interface DiffRow {
  name: string;
  shortName?: string;
  presence: 'both' | 'appeared' | 'disappeared';
  baseCalls: number;
  newCalls: number;
  baseTotalNs: number;
  newTotalNs: number;
  baseAvgNs?: number;
  newAvgNs?: number;
  perCallPct?: number;
  impactNs: number;
  noisePct?: number;
  beyondNoise: boolean;
}


export interface DiffResult {
  verdict: 'improved' | 'regressed' | 'neutral';
  headline?: DiffHeadline;
  comparability: { score: number; label: string; reasons: string[] };
  kernels: DiffRow[];
  ranges: DiffRow[];
  kernelCounts?: DiffCounts;
  rangeCounts?: DiffCounts;
  notes: string[];
  basePath: string;
  newPath: string;
  answer: Answer;
  markdown: string;
}

// The profile's numbers on the user's source lines. LSP shapes (0-based lines, UTF-16 columns).
export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export interface LspTextEdit {
  range: LspRange;
  newText: string;
}

/** An LSP WorkspaceEdit: `changes` by uri, or `documentChanges` of text document edits. */
export interface LspWorkspaceEdit {
  changes?: Record<string, LspTextEdit[]>;
  documentChanges?: { textDocument: { uri: string; version?: number | null }; edits: LspTextEdit[] }[];
}

/** nsys/kernelSources: where a kernel is launched from, as the innermost annotated ranges that launch it. */
export interface KernelSourceLocation {
  uri: string;
  range: LspRange;
  /** The range name. */
  name: string;
  /** This location's share (0..1) of the kernel's total GPU time. */
  share: number;
  gpuNs: number;
  calls: number;
}

export interface KernelSourcesResult {
  kernel: string;
  locations: KernelSourceLocation[];
}

/** nsys/annotationPlan: what to refine, most GPU time first, with the edits and the command to run next. */
export interface AnnotationPlanItem {
  name: string;
  gpuNs: number;
  kernelsPerCall: number;
  distinctKernels: number;
  location?: { uri: string; range: LspRange };
  edit?: LspWorkspaceEdit;
  reason: string;
}

export interface AnnotationPlanResult {
  coverage: MappingCoverage | null;
  items: AnnotationPlanItem[];
  nextCommand: string;
}



/** One line of nsys/jobReport: the rank's own tables summed; `error` when the rank could not be read. */
export interface RankSummary {
  rank: string;
  path: string;
  kernels: number;
  gpuTimeNs: number;
  ncclKernels: number;
  ncclTimeNs: number;
  stepTimeNs?: number;
  steps: number;
  error?: string;
}


export interface JobReportResult {
  jobId: string;
  ranks: RankSummary[];
  analyses: { skill: string; result: SkillResult }[];
  notes: string[];
  memory: JobMemoryInfo;
}


export interface ExportJobTraceResult {
  path: string;
  bytes: number;
  sha256: string;
  tracks: number;
  slices: Record<string, number>;
  flows: number;
  ranks: JobTraceRankInfo[];
  notes: string[];
}

/** nsys/analyzeJob: nsys/analyze's shape for the causes that only show across ranks. */
export interface JobAnalysisResult extends AnalyzeResult {
  summary?: string;
  ranking?: string[];
  unchecked?: { rootCause: string; missing: string }[];
  markdown?: string;
}
