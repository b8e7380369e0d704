// A job made at test time, never committed: the shared tool split_ranks.py writes one real single-rank export per GPU
// process of mfu_2gpu_before.sqlite (2 ranks) into a temporary directory. sqlite3 on those files gives the figures
// the tests expect from the server, independently of it.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { renderJobHtml } from '../src/view/job';
import { loadJobView } from '../src/view/jobModel';
import { fixturesDir, skipReason, startServer } from './realServer';

export const splitRanks = process.env.NSYS_AI_SPLIT_RANKS || path.resolve(fixturesDir, '..', 'tools', 'split_ranks.py');
export const jobSource = path.join(fixturesDir, 'mfu_2gpu_before.sqlite');

/** Why the job tests cannot run here, or undefined when they can. */
export const jobSkipReason =
  skipReason ??
  (!fs.existsSync(splitRanks)
    ? `no split_ranks.py at ${splitRanks} (set NSYS_AI_SPLIT_RANKS)`
    : !fs.existsSync(jobSource)
      ? `no fixture at ${jobSource}`
      : undefined);

/** A fresh directory holding rank0000.sqlite and rank0001.sqlite; remove it with removeJobDir. */
export function makeJobDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-job-'));
  execFileSync('python3', [splitRanks, jobSource, dir], { stdio: 'pipe', timeout: 120_000 });
  return dir;
}

export function removeJobDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** One value of a query on an export, as sqlite3 prints it. */
export function sqliteValue(file: string, sql: string): string {
  return execFileSync('sqlite3', [file, sql], { encoding: 'utf8' }).trim();
}

/**
 * Per rank: sqlite3 on the rank file (kernels, Σ durations, NCCL kernels by name: job.test.ts computes them again)
 * and the `iterations` skill on the unsplit source, process by process (pid), for the steps.
 */
export const EXPECTED = [
  { rank: 'rank0000', pid: 144, kernels: 1993, gpuTimeNs: 270875926, ncclKernels: 33, ncclTimeNs: 17172652, steps: 16 },
  { rank: 'rank0001', pid: 145, kernels: 2017, gpuTimeNs: 264324724, ncclKernels: 33, ncclTimeNs: 8229100, steps: 16 },
];
/** Cells of the heat map (rank, step) → step_ns: `iterations` on the source, pid 144 / 145, iteration 0, 6, 14. */
export const CELLS: [string, number, number][] = [
  ['rank0000', 0, 16942682],
  ['rank0001', 0, 16944146],
  ['rank0000', 6, 22311001],
  ['rank0001', 6, 22313699],
  ['rank0000', 14, 19586459],
  ['rank0001', 14, 19633539],
];

/** The job view's HTML on the real server's answers for a fresh job (the Chromium tests and screenshots use it). */
export async function jobViewHtml(nonce: string, themeCss?: string): Promise<string> {
  const dir = makeJobDir();
  const server = await startServer();
  try {
    const { jobId } = await server.client.openJob(dir);
    const model = await loadJobView(server.client, jobId, dir);
    return renderJobHtml(model, { nonce, themeCss });
  } finally {
    await server.stop();
    removeJobDir(dir);
  }
}
