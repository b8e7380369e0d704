// Generated from protocol/'s field lists and the capability catalogue (protocol/src/capabilities.cpp) by
// tests/protocol/client_declarations_test.cpp; NSYS_AI_WRITE_DOCS=1 there rewrites it. Do not edit by hand.
// A member marked `?` may be absent: the server leaves it out, or (in params) reads its absence as the
// default.

export interface AnalyzeJobParams {
  jobId: string;
  ranksPerNode?: number;
}

export interface AnalyzeParams {
  profileId: string;
  window?: Window;
}

export interface AnalyzeResult {
  summary: string;
  window: string;
  findings: Finding[];
  ranking: string[];
  unchecked: UncheckedCause[];
  rootCausesChecked: number;
  markdown: string;
  streamedFindings?: number;
}

export interface AnnotationPlanItem {
  name: string;
  instances: number;
  gpuNs: number;
  kernels: number;
  kernelsPerCall: number;
  maxKernelsPerCall: number;
  distinctKernels: number;
  share: number;
  topKernel: string;
  location?: Location;
  otherLocations: number;
  editTitle?: string;
  edit?: WorkspaceEdit;
  ranges: PlannedRange[];
  reason: string;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type AnnotationPlanParams = unknown;

export interface AnnotationPlanResult {
  coverage: MappingCoverage;
  unmappedNs: number;
  items: AnnotationPlanItem[];
  totalItems: number;
  filesIndexed: number;
  nextCommand: string;
  notes: string[];
}

export interface Answer {
  summary: string;
  evidence: Evidence[];
  confidence: string;
  confidenceReason: string;
  hypotheses: string[];
  recommendations: string[];
  verify: string;
  refusal?: Refusal;
  markdown: string;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type ArgDescription = unknown;

export interface AskParams {
  profileId: string;
  question: string;
  conversationId?: string;
}

export interface AskResult {
  answer: Answer;
  conversationId: string;
  skillsUsed: string[];
  usedLlm: boolean;
}

export interface CodeAction {
  title: string;
  kind: string;
  edit: WorkspaceEdit;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type CodeActionParams = unknown;

export interface CodeLens {
  range: Range;
  command: LensCommand;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type CodeLensParams = unknown;

export interface DiffComparability {
  score: number;
  label: string;
  reasons: string[];
  sharedKernelTime: number;
  windowRatio: number;
  sameDevices: boolean;
}

export interface DiffCounts {
  both: number;
  appeared: number;
  disappeared: number;
}

export interface DiffDevice {
  deviceId: number;
  inBase: boolean;
  inNew: boolean;
  baseSpanNs: number;
  newSpanNs: number;
  baseIdleNs: number;
  newIdleNs: number;
  baseIdlePct?: number;
  newIdlePct?: number;
  baseLongGaps: number;
  newLongGaps: number;
  baseLongGapNs: number;
  newLongGapNs: number;
  hasComm: boolean;
  baseCommNs: number;
  newCommNs: number;
  baseOverlapPct?: number;
  newOverlapPct?: number;
  baseExposedNs: number;
  newExposedNs: number;
}

export interface DiffHeadline {
  metric: string;
  baseNs: number;
  newNs: number;
  changePct?: number;
  noiseFloorPct: number;
  noiseFloorReason: string;
  measure: string;
  rankP?: number;
  significantChangePct?: number;
  verdict: string;
}

export interface DiffItem {
  name: string;
  shortName: string;
  presence: string;
  baseCalls: number;
  newCalls: number;
  baseTotalNs: number;
  newTotalNs: number;
  baseAvgNs?: number;
  newAvgNs?: number;
  perCallPct?: number;
  basePerIterationNs?: number;
  newPerIterationNs?: number;
  baseCallsPerIteration?: number;
  newCallsPerIteration?: number;
  impactNs: number;
  noisePct?: number;
  rankP?: number;
  beyondNoise: boolean;
}

export interface DiffIterations {
  count: number;
  method: string;
  medianNs?: number;
  robustSdNs?: number;
  medianKernels?: number;
  medianGpuBusyNs?: number;
  medianKernelNs?: number;
  robustSdKernelNs?: number;
}

export interface DiffMemcpy {
  operation: string;
  baseCount: number;
  newCount: number;
  baseBytes: number;
  newBytes: number;
  baseTotalNs: number;
  newTotalNs: number;
  basePerIterationNs?: number;
  newPerIterationNs?: number;
}

export interface DiffParams {
  baseProfileId: string;
  newProfileId: string;
  phaseMap?: string;
  maxRows?: number;
  metric?: string;
}

export interface DiffPhase {
  phase: string;
  baseRanges: number;
  newRanges: number;
  baseWallNs: number;
  newWallNs: number;
  baseGpuNs: number;
  newGpuNs: number;
  baseCoverage?: number;
  newCoverage?: number;
}

export interface DiffResult {
  verdict: string;
  basePath: string;
  newPath: string;
  comparability: DiffComparability;
  headline?: DiffHeadline;
  perCall?: DiffHeadline;
  measures: DiffHeadline[];
  baseIterations: DiffIterations;
  newIterations: DiffIterations;
  kernels: DiffItem[];
  kernelCounts: DiffCounts;
  ranges: DiffItem[];
  rangeCounts: DiffCounts;
  devices: DiffDevice[];
  memcpy: DiffMemcpy[];
  phases: DiffPhase[];
  notes: string[];
  baseCoverage?: MappingCoverage;
  newCoverage?: MappingCoverage;
  coverageChange?: number;
  answer: Answer;
  markdown: string;
}

export interface EmptyParams {
}

export interface Evidence {
  call: SkillCallRef;
  caption: string;
  columns: string[];
  rows: (null | boolean | number | string)[][];
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type ExecuteCommandParams = unknown;

export interface ExplainKernelParams {
  profileId: string;
  kernel: string;
}

export interface ExplainKernelResult {
  kernel: string;
  shortName: string;
  matchedBy: string;
  variants: string[];
  identity: KernelIdentityInfo;
  calls: number;
  totalNs: number;
  p50Ns: number;
  p90Ns: number;
  minNs: number;
  maxNs: number;
  devices: KernelDeviceInfo[];
  sampledCalls: number;
  launch?: KernelLaunchInfo;
  configs: KernelConfigInfo[];
  distinctConfigs: number;
  occupancy?: KernelOccupancyInfo;
  occupancyNote: string;
  nvtx: KernelNvtxInfo[];
  nvtxNote: string;
  lookAt: string[];
  verify: string;
  markdown: string;
}

export interface ExportJobTraceParams {
  jobId: string;
  output?: string;
  ranksPerNode?: number;
  minDurationNs?: number;
  gpu?: boolean;
  cpu?: boolean;
  flows?: boolean;
  counters?: boolean;
}

export interface ExportJobTraceResult {
  path: string;
  bytes: number;
  sha256: string;
  tracks: number;
  slices: TraceSliceCounts;
  flows: number;
  ranks: JobTraceRankInfo[];
  notes: string[];
}

export interface ExportTraceParams {
  profileId: string;
  filter?: Filter;
  window?: Window;
  devices?: number[];
  pids?: number[];
  minDurationNs?: number;
  gzip?: boolean;
  output?: string;
}

export interface ExportTraceResult {
  bytes: number;
  sha256: string;
  gzip: boolean;
  path?: string;
  notes: string[];
  packets?: number;
  tracks?: number;
  slices?: TraceSliceCounts;
  flows?: number;
  counterValues?: number;
  clampedSlices?: number;
  skippedShort?: number;
  window?: string;
  seconds?: number;
  cpuSeconds?: number;
  streamed?: boolean;
  openSeconds?: number;
  loadSeconds?: number;
  validation?: TraceValidationResult;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type Filter = unknown;

export interface Finding {
  rootCause: string;
  title: string;
  severity: string;
  atStakeNs: number;
  skill: string;
  coverage: string;
  answer: Answer;
}

export interface Hover {
  contents: MarkupContent;
  range?: Range;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type HoverParams = unknown;

export interface JobAnalysisInfo {
  skill: string;
  result: RunSkillResult;
}

export interface JobIdParams {
  jobId: string;
}

export interface JobMemoryInfo {
  budgetBytes: number;
  peakAccountedBytes: number;
  loads: number;
  evictions: number;
  overBudgetRanks: number;
}

export interface JobRankInfo {
  rank: string;
  path: string;
  fileSize: number;
}

export interface JobReportResult {
  jobId: string;
  ranks: RankSummaryInfo[];
  analyses: JobAnalysisInfo[];
  notes: string[];
  memory: JobMemoryInfo;
}

export interface JobTraceRankInfo {
  rank: string;
  offsetNs: number;
  uncertaintyNs?: number;
  method: string;
  slices: number;
  error?: string;
}

export interface KernelConfigInfo {
  grid: number[];
  block: number[];
  registersPerThread: number;
  staticSharedBytes: number;
  dynamicSharedBytes: number;
  calls: number;
}

export interface KernelDeviceInfo {
  device: number;
  calls: number;
  totalNs: number;
  share: number;
  p50Ns: number;
  p90Ns: number;
}

export interface KernelIdentityInfo {
  library: string;
  category: string;
  operation: string;
  precision: string;
  tile: string;
  tensorCores: string;
  summary: string;
}

export interface KernelLaunchInfo {
  launched: number;
  api: string;
  apiP50Ns: number;
  queueP50Ns: number;
}

export interface KernelNvtxInfo {
  range: string;
  calls: number;
  totalNs: number;
}

export interface KernelOccupancyInfo {
  device: number;
  gpu: string;
  occupancy: number;
  blocksPerSm: number;
  warpsPerBlock: number;
  limitedBy: string;
  smCount: number;
  gridBlocks: number;
  waves: number;
}

export interface KernelSourceShape {
  uri: string;
  range: Range;
  name: string;
  share: number;
  gpuNs: number;
  calls: number;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type KernelSourcesParams = unknown;

export interface KernelSourcesResult {
  kernel: string;
  locations: KernelSourceShape[];
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type LensCommand = unknown;

export interface ListSkillsResult {
  skills: SkillDescription[];
  commonArgs?: ArgDescription[];
}

export interface Location {
  uri: string;
  range: Range;
}

export interface MappingCoverage {
  share: number;
  mappedNs: number;
  kernelNs: number;
}

export interface MarkupContent {
  kind: string;
  value: string;
}

export interface NvtxTreeNode {
  id: string;
  kind: string;
  name: string;
  label: string;
  pid?: number;
  tid?: number;
  instances: number;
  wallNs: number;
  gpuNs: number;
  kernelCount: number;
  startNs: number;
  endNs: number;
  hasChildren: boolean;
}

export interface NvtxTreeParams {
  profileId: string;
  parent?: string;
  filter?: Filter;
}

export interface NvtxTreeResult {
  nodes: NvtxTreeNode[];
  truncated: boolean;
}

export interface OpenInPerfettoParams {
  profileId?: string;
  window?: Window;
  jobId?: string;
  ranksPerNode?: number;
}

export interface OpenInPerfettoResult {
  url: string;
  port: number;
  token: string;
  expiresAt: string;
  traceUrl?: string;
  deepLink?: string;
  sshHint?: string;
  bytes?: number;
  sha256?: string;
  clampedSlices?: number;
  window?: string;
  showDocument?: boolean;
}

export interface OpenJobParams {
  paths?: string[];
  directory?: string;
  memoryBudget?: null | boolean | number | string;
  threads?: number;
}

export interface OpenJobResult {
  jobId: string;
  ranks: JobRankInfo[];
  memoryBudgetBytes: number;
  threads: number;
}

export interface OpenProfileParams {
  path: string;
  noCache?: boolean;
}

export interface PlannedRange {
  name: string;
  line: number;
  endLine: number;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type Position = unknown;

export interface ProfileIdParams {
  profileId: string;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type ProfileSummary = unknown;

export interface QueryAnchor {
  events: QuerySubject;
  atEnd?: boolean;
}

export interface QueryParams {
  profileId: string;
  queries: QuerySpec[];
}

export interface QueryScope {
  devices?: number[];
  pids?: number[];
  stream?: number;
  inside?: string;
  outside?: string;
  fromSeconds?: number;
  toSeconds?: number;
  longerThanNs?: number;
  shorterThanNs?: number;
  largerThanBytes?: number;
  smallerThanBytes?: number;
  gapLongerThanNs?: number;
  gapShorterThanNs?: number;
  fromFirstKernel?: boolean;
  gridBelowSms?: boolean;
  captureClock?: boolean;
  launchedBy?: string;
  launches?: string;
  origin?: QueryAnchor;
  until?: QueryAnchor;
}

export interface QuerySpec {
  measures: string[];
  subject: QuerySubject;
  scope?: QueryScope;
  groupBy?: string;
  rank?: string;
  limit?: number;
  offset?: number;
  versusSubject?: QuerySubject;
  versusScope?: QueryScope;
  form?: string;
  yesIfLess?: boolean;
  threshold?: number;
  versusMeasure?: string;
  shareWithinGroup?: boolean;
  factor?: number;
}

export interface QuerySubject {
  events: string;
  name?: string;
  copyKind?: string;
  apiClass?: string;
  memory?: string;
  wholeName?: boolean;
  family?: string;
  nth?: number;
  except?: string;
  cause?: string;
  skip?: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface RangeKernelShape {
  name: string;
  calls: number;
  gpuNs: number;
}

export interface RankSummaryInfo {
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

export interface Refusal {
  reason: string;
  missing: string[];
  alternatives: string[];
}

export interface ReloadSkillsResult {
  skillCount: number;
  warnings: string[];
}

export interface ReportParams {
  profileId: string;
}

export interface ReportResult {
  uri: string;
  text: string;
  kernels: ReportSpan[];
  findings: ReportSpan[];
}

export interface ReportSpan {
  line: number;
  character: number;
  length: number;
  name: string;
}

export interface RevealRangeResult {
  url: string;
  name: string;
  kernels: RangeKernelShape[];
}

export interface RunSkillOnJobParams {
  jobId: string;
  skill: string;
  args?: Record<string, null | boolean | number | string>;
  filter?: Filter;
}

export interface RunSkillParams {
  profileId: string;
  skill: string;
  args?: Record<string, null | boolean | number | string>;
  filter?: Filter;
}

/** Read and written by hand on the server (the struct says why); docs/protocol.md gives its shape. */
export type RunSkillResult = unknown;

export interface SkillCallRef {
  skill: string;
  args: Record<string, null | boolean | number | string>;
  filter?: Filter;
}

export interface SkillDescription {
  name: string;
  description: string;
  args: ArgDescription[];
  reference: string;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface TraceSliceCounts {
  kernels: number;
  memcpys: number;
  memsets: number;
  cudaApi: number;
  nvtxRanges: number;
  nvtxMarks: number;
}

export interface TraceValidationResult {
  ok: boolean;
  summary: string;
}

export interface UncheckedCause {
  rootCause: string;
  missing: string;
}

export interface Window {
  start?: number;
  end?: number;
  clock?: string;
}

export interface WorkspaceEdit {
  changes: Record<string, TextEdit[]>;
}

/** Every capability's method, with the params it takes and the result it answers. */
export interface NsysMethods {
  'nsys/openProfile': { params: OpenProfileParams; result: ProfileSummary };
  'nsys/closeProfile': { params: ProfileIdParams; result: null };
  'nsys/profileInfo': { params: ProfileIdParams; result: ProfileSummary };
  'nsys/listSkills': { params: EmptyParams; result: ListSkillsResult };
  'nsys/runSkill': { params: RunSkillParams; result: RunSkillResult };
  'nsys/reloadSkills': { params: EmptyParams; result: ReloadSkillsResult };
  'nsys/openJob': { params: OpenJobParams; result: OpenJobResult };
  'nsys/closeJob': { params: JobIdParams; result: null };
  'nsys/runSkillOnJob': { params: RunSkillOnJobParams; result: RunSkillResult };
  'nsys/jobReport': { params: JobIdParams; result: JobReportResult };
  'nsys/exportJobTrace': { params: ExportJobTraceParams; result: ExportJobTraceResult };
  'nsys/analyzeJob': { params: AnalyzeJobParams; result: AnalyzeResult };
  'nsys/exportTrace': { params: ExportTraceParams; result: ExportTraceResult };
  'nsys/openInPerfetto': { params: OpenInPerfettoParams; result: OpenInPerfettoResult };
  'nsys/analyze': { params: AnalyzeParams; result: AnalyzeResult };
  'nsys/diff': { params: DiffParams; result: DiffResult };
  'nsys/ask': { params: AskParams; result: AskResult };
  'nsys/query': { params: QueryParams; result: AskResult };
  'nsys/explainKernel': { params: ExplainKernelParams; result: ExplainKernelResult };
  'nsys/nvtxTree': { params: NvtxTreeParams; result: NvtxTreeResult };
  'nsys/report': { params: ReportParams; result: ReportResult };
  'textDocument/hover': { params: HoverParams; result: Hover | null };
  'textDocument/codeLens': { params: CodeLensParams; result: CodeLens[] };
  'workspace/executeCommand': { params: ExecuteCommandParams; result: RevealRangeResult };
  'nsys/kernelSources': { params: KernelSourcesParams; result: KernelSourcesResult };
  'nsys/annotationPlan': { params: AnnotationPlanParams; result: AnnotationPlanResult };
  'textDocument/codeAction': { params: CodeActionParams; result: CodeAction[] };
}
