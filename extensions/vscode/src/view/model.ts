// The data of the profile view, gathered from the server and reshaped for display: values are picked from the
// skills' tables by column name, never computed here (the server does the analysis).
import { isCancelled, mappingCoverageOf, NsysClient, RequestOptions, Unsupported } from '../protocol/client';
import type { Cell, Finding, MappingCoverage, OpenProfileResult, SkillResult } from '../protocol/types';

export interface UtilisationChunk {
  startNs: number; // from the profile start
  durationNs: number;
  busyPct: number;
  inUsePct: number;
}

export interface UtilisationSeries {
  label: string;
  device: number;
  pid: number;
  chunks: UtilisationChunk[];
}

/** One slice of a GPU's span (time_budget): the slices of a span add up to it. */
export interface BudgetSlice {
  slice: string; // "copy_htod", "tensor_core_math", "idle_sync", ...
  kind: string; // "kernel" | "copy" | "idle"
  timeNs: number;
  pct: number; // of the span
  description: string;
}

/** Where one (process, device) span's time goes. */
export interface BudgetSpan {
  label: string;
  device: number;
  pid: number;
  spanNs: number;
  slices: BudgetSlice[];
}

export interface KernelRow {
  name: string;
  shortName: string;
  totalNs: number;
  pct: number;
  instances: number;
  avgNs: number;
}

export interface NvtxRow {
  range: string;
  style: string;
  totalNs: number;
  pct: number;
  instances: number;
  avgNs: number;
}

export interface Section<T> {
  rows: T[];
  notes: string[];
  declined: boolean;
  error?: string;
  /** Still being computed (the findings, which may take an LLM's time). */
  loading?: boolean;
  /** The findings: analyze's headline, the same sentence the CLI, Neovim and MCP lead with. */
  headline?: string;
}

export interface ProfileViewModel {
  profileId: string;
  path: string;
  nsysVersion: string;
  durationNs: number;
  fileSize: number;
  devices: { id: number; label: string }[];
  processCount?: number;
  streamCount?: number;
  /** Where each GPU's time goes: shown above the busy-% chart. */
  budget: Section<BudgetSpan>;
  utilisation: Section<UtilisationSeries>;
  kernels: Section<KernelRow>;
  nvtx: Section<NvtxRow>;
  /** undefined: the server has no nsys/analyze (the section is hidden). */
  findings?: Section<Finding>;
  /** The NVTX mapping coverage: null while not computed, undefined when the server does not report it. */
  coverage?: MappingCoverage | null;
}

export const VIEW_QUERIES = {
  budget: { skill: 'time_budget', args: {} },
  utilisation: { skill: 'gpu_utilization', args: { view: 'chunks', chunks: 100 } },
  kernels: { skill: 'top_kernels', args: { limit: 12, base: true } },
  nvtx: { skill: 'nvtx_summary', args: { limit: 12 } },
} as const;

/** Column accessor by name: a row of a skill's table as a record. */
export function columnIndex(result: SkillResult): (row: Cell[], name: string) => Cell {
  const index = new Map(result.columns.map((c, i) => [c.name, i]));
  return (row, name) => {
    const i = index.get(name);
    return i === undefined ? null : (row[i] ?? null);
  };
}

export const num = (c: Cell): number => (typeof c === 'number' ? c : Number(c ?? 0));
export const str = (c: Cell): string => (c === null ? '' : String(c));

export function utilisationFromSkill(result: SkillResult, profileStartNs: number): UtilisationSeries[] {
  const get = columnIndex(result);
  const byKey = new Map<string, UtilisationSeries>();
  for (const row of result.rows) {
    const device = num(get(row, 'device_id'));
    const pid = num(get(row, 'pid'));
    const key = `${device}/${pid}`;
    let series = byKey.get(key);
    if (!series) {
      series = { label: `GPU ${device}`, device, pid, chunks: [] };
      byKey.set(key, series);
    }
    series.chunks.push({
      startNs: num(get(row, 'start_ns')) - profileStartNs,
      durationNs: num(get(row, 'duration_ns')),
      busyPct: num(get(row, 'busy_pct')),
      inUsePct: num(get(row, 'in_use_pct')),
    });
  }
  const all = byDeviceThenPid([...byKey.values()]);
  for (const s of all) s.chunks.sort((a, b) => a.startNs - b.startNs);
  return all;
}

/** Sorted by device then pid; a device that several processes used labels each "GPU d · pid p". */
function byDeviceThenPid<T extends { label: string; device: number; pid: number }>(items: T[]): T[] {
  const all = items.sort((a, b) => a.device - b.device || a.pid - b.pid);
  const perDevice = new Map<number, number>();
  for (const s of all) perDevice.set(s.device, (perDevice.get(s.device) ?? 0) + 1);
  for (const s of all) if ((perDevice.get(s.device) ?? 0) > 1) s.label = `GPU ${s.device} · pid ${s.pid}`;
  return all;
}

export function budgetFromSkill(result: SkillResult): BudgetSpan[] {
  const get = columnIndex(result);
  const byKey = new Map<string, BudgetSpan>();
  for (const row of result.rows) {
    const device = num(get(row, 'device_id'));
    const pid = num(get(row, 'pid'));
    const key = `${device}/${pid}`;
    let span = byKey.get(key);
    if (!span) {
      span = { label: `GPU ${device}`, device, pid, spanNs: num(get(row, 'span_ns')), slices: [] };
      byKey.set(key, span);
    }
    span.slices.push({
      slice: str(get(row, 'slice')),
      kind: str(get(row, 'kind')),
      timeNs: num(get(row, 'time_ns')),
      pct: num(get(row, 'span_pct')),
      description: str(get(row, 'description')),
    });
  }
  return byDeviceThenPid([...byKey.values()]);
}

export function kernelsFromSkill(result: SkillResult): KernelRow[] {
  const get = columnIndex(result);
  return result.rows.map((row) => ({
    name: str(get(row, 'name')),
    shortName: str(get(row, 'short_name')) || str(get(row, 'name')),
    totalNs: num(get(row, 'total_time_ns')),
    pct: num(get(row, 'time_pct')),
    instances: num(get(row, 'instances')),
    avgNs: num(get(row, 'avg_ns')),
  }));
}

export function nvtxFromSkill(result: SkillResult): NvtxRow[] {
  const get = columnIndex(result);
  return result.rows.map((row) => ({
    range: str(get(row, 'range')),
    style: str(get(row, 'style')),
    totalNs: num(get(row, 'total_time_ns')),
    pct: num(get(row, 'time_pct')),
    instances: num(get(row, 'instances')),
    avgNs: num(get(row, 'avg_ns')),
  }));
}

async function section<T>(
  run: () => Promise<SkillResult>,
  shape: (r: SkillResult) => T[],
): Promise<Section<T>> {
  try {
    const result = await run();
    return { rows: result.declined ? [] : shape(result), notes: result.notes ?? [], declined: result.declined };
  } catch (err) {
    return { rows: [], notes: [], declined: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export async function loadFindings(
  client: NsysClient,
  profileId: string,
  opts?: RequestOptions,
  onFinding?: (finding: Finding) => void,
): Promise<Section<Finding> | undefined> {
  try {
    const result = await client.analyze(profileId, opts, onFinding);
    if (result instanceof Unsupported) return undefined;
    return { rows: result.findings ?? [], notes: [], declined: false, headline: result.summary };
  } catch (err) {
    if (isCancelled(err)) throw err; // the user's choice, not a failure to show
    return { rows: [], notes: [], declined: false, error: err instanceof Error ? err.message : String(err) };
  }
}

const loadingSection = <T>(): Section<T> => ({ rows: [], notes: [], declined: false, loading: true });

/**
 * Everything the profile view shows, requested at once (the server runs them concurrently). `onSection`
 * gets the view as it fills in: first with every section still computing (what the open already told), then again
 * each time a section arrives, so the view paints the summary at once and each table as it comes.
 */
export async function loadProfileView(
  client: NsysClient,
  opened: OpenProfileResult,
  opts: { cancel?: RequestOptions['cancel']; findings?: boolean; onSection?: (partial: ProfileViewModel) => void } = {},
): Promise<ProfileViewModel> {
  const { profileId, info } = opened;
  const cancel = { cancel: opts.cancel };
  const q = VIEW_QUERIES;
  const partial: ProfileViewModel = {
    profileId,
    path: info.sourcePath || opened.path, // the user's file: a report's name, not its conversion in the cache
    nsysVersion: info.nsysVersion,
    durationNs: info.durationNs,
    fileSize: info.fileSize,
    devices: info.devices.map((d) => ({ id: d.id, label: d.name ? `GPU ${d.id} · ${d.name}` : `GPU ${d.id}` })),
    processCount: info.processCount,
    streamCount: info.streamCount,
    budget: loadingSection(),
    utilisation: loadingSection(),
    kernels: loadingSection(),
    nvtx: loadingSection(),
    findings: opts.findings === false ? undefined : loadingSection(),
    coverage: mappingCoverageOf(opened),
  };
  opts.onSection?.({ ...partial });
  const arrived = <K extends 'budget' | 'utilisation' | 'kernels' | 'nvtx'>(key: K) => (s: ProfileViewModel[K]) => {
    partial[key] = s;
    opts.onSection?.({ ...partial });
    return s;
  };
  const [budget, utilisation, kernels, nvtx, findings] = await Promise.all([
    section(() => client.runSkill(profileId, q.budget.skill, { ...q.budget.args }, cancel), budgetFromSkill).then(
      arrived('budget'),
    ),
    section(
      () => client.runSkill(profileId, q.utilisation.skill, { ...q.utilisation.args }, cancel),
      (r) => utilisationFromSkill(r, info.startNs),
    ).then(arrived('utilisation')),
    section(() => client.runSkill(profileId, q.kernels.skill, { ...q.kernels.args }, cancel), kernelsFromSkill).then(
      arrived('kernels'),
    ),
    section(() => client.runSkill(profileId, q.nvtx.skill, { ...q.nvtx.args }, cancel), nvtxFromSkill).then(
      arrived('nvtx'),
    ),
    opts.findings === false ? Promise.resolve(undefined) : loadFindings(client, profileId, cancel),
  ]);
  return { ...partial, budget, utilisation, kernels, nvtx, findings };
}
