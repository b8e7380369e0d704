// The data of the job view: nsys/jobReport's line per rank and memory, and the ranks × steps heat map of the job
// skill job_step_heatmap (nsys/runSkillOnJob). Values are picked from the server's answers, never computed here.
import { isCancelled, type NsysClient, type RequestOptions } from '../protocol/client';
import type { RankSummary, JobMemoryInfo, SkillResult } from '../protocol/types';
import { columnIndex, num } from './model';

export const HEATMAP_SKILL = 'job_step_heatmap';

/** One cell: a rank's step, its duration and how far it is from that step's median over the ranks. */
export interface HeatCell {
  rank: string;
  step: number;
  stepNs: number;
  gpuBusyNs: number | null;
  vsMedianPct: number | null;
}

export interface HeatMap {
  /** Row labels, in the job's rank order. */
  ranks: string[];
  steps: number;
  cells: HeatCell[];
  notes: string[];
  declined: boolean;
  error?: string;
}

export interface JobViewModel {
  jobId: string;
  directory: string;
  ranks: RankSummary[];
  memory: JobMemoryInfo;
  notes: string[];
  heatmap: HeatMap;
  /** The ranks per node the job's requests use (the header says it); not from the server. */
  ranksPerNode?: number;
}

const orNull = (c: unknown): number | null => (typeof c === 'number' ? c : null);

/** job_step_heatmap's rows (rank, ..., step, step_ns, gpu_busy_ns, vs_step_median_pct) as cells. */
export function heatMapFromSkill(result: SkillResult, ranks: string[]): HeatMap {
  const get = columnIndex(result);
  const cells = result.rows.map((row) => ({
    rank: String(get(row, 'rank') ?? ''),
    step: num(get(row, 'step')),
    stepNs: num(get(row, 'step_ns')),
    gpuBusyNs: orNull(get(row, 'gpu_busy_ns')),
    vsMedianPct: orNull(get(row, 'vs_step_median_pct')),
  }));
  const steps = cells.reduce((n, c) => Math.max(n, c.step + 1), 0);
  const extra = cells.map((c) => c.rank).filter((r, i, all) => !ranks.includes(r) && all.indexOf(r) === i);
  return { ranks: [...ranks, ...extra], steps, cells, notes: result.notes ?? [], declined: result.declined };
}

async function loadHeatMap(client: NsysClient, jobId: string, ranks: string[], opts: RequestOptions): Promise<HeatMap> {
  try {
    return heatMapFromSkill(await client.runSkillOnJob(jobId, HEATMAP_SKILL, {}, opts), ranks);
  } catch (err) {
    if (isCancelled(err)) throw err; // the user's choice, not a failure to show
    return { ranks, steps: 0, cells: [], notes: [], declined: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The report first, then the heat map: one after the other, so one progress bar follows them (the heat map's
 * partials were computed in the report's visit of each rank, so it is a memo hit).
 */
export async function loadJobView(
  client: NsysClient,
  jobId: string,
  directory: string,
  opts: RequestOptions = {},
): Promise<JobViewModel> {
  const report = await client.jobReport(jobId, opts);
  const names = report.ranks.map((r) => r.rank);
  const heatmap = await loadHeatMap(client, jobId, names, opts);
  return { jobId, directory, ranks: report.ranks, memory: report.memory, notes: report.notes ?? [], heatmap };
}
