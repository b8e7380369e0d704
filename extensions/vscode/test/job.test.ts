// Jobs through the extension's protocol client against the REAL server: a job made at test time from
// mfu_2gpu_before.sqlite (2 ranks, test/jobFixture.ts). Expected figures were checked independently: sqlite3 on the
// rank files (computed again below), and the `iterations` skill on the unsplit source, process 144 (rank0000) and
// 145 (rank0001), whose 16 durations per process are the heat map's cells.
import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OpenJobResult, WorkDoneProgressValue } from '../src/protocol/types';
import { heatMapFromSkill, loadJobView } from '../src/view/jobModel';
import { RealServer, startServer } from './realServer';
import { CELLS, EXPECTED, makeJobDir, removeJobDir, jobSkipReason, jobSource, sqliteValue } from './jobFixture';

const NCCL = "join StringIds s on s.id = k.demangledName where s.value like '%nccl%'";

describe('jobs through the protocol client, real server', { skip: jobSkipReason }, () => {
  let server: RealServer;
  let dir: string;
  let job: OpenJobResult;

  before(async () => {
    dir = makeJobDir();
    server = await startServer();
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
    removeJobDir(dir);
  });

  test('openJob names the ranks of the directory in order', async () => {
    job = await server.client.openJob(dir);
    assert.match(job.jobId, /^j\d+$/);
    assert.deepEqual(
      job.ranks.map((r) => [r.rank, r.path, r.fileSize]),
      EXPECTED.map((e) => [e.rank, path.join(dir, `${e.rank}.sqlite`), fs.statSync(path.join(dir, `${e.rank}.sqlite`)).size]),
    );
  });

  test('jobReport: each rank’s kernels, GPU and NCCL time as sqlite3 counts them, with progress per rank', async () => {
    const progress: WorkDoneProgressValue[] = [];
    const report = await server.client.jobReport(job.jobId, { onProgress: (v) => progress.push(v) });
    for (const [i, e] of EXPECTED.entries()) {
      const file = path.join(dir, `${e.rank}.sqlite`);
      const [count, sum] = sqliteValue(file, 'select count(*), sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL').split('|');
      const [ncclCount, ncclSum] = sqliteValue(file, `select count(*), sum(k.end - k.start) from CUPTI_ACTIVITY_KIND_KERNEL k ${NCCL}`).split('|');
      assert.deepEqual([Number(count), Number(sum), Number(ncclCount), Number(ncclSum)], [e.kernels, e.gpuTimeNs, e.ncclKernels, e.ncclTimeNs]);
      const r = report.ranks[i];
      assert.deepEqual(
        [r.rank, r.kernels, r.gpuTimeNs, r.ncclKernels, r.ncclTimeNs, r.steps, r.error],
        [e.rank, e.kernels, e.gpuTimeNs, e.ncclKernels, e.ncclTimeNs, e.steps, undefined],
      );
    }
    assert.equal(report.memory.budgetBytes, 4 * 1024 ** 3, 'the default budget');
    assert.equal(report.memory.loads, 2);
    assert.equal(report.memory.evictions, 0);
    assert.ok(report.memory.peakAccountedBytes > 0);
    assert.deepEqual([progress[0]?.kind, progress[0]?.title, progress.at(-1)?.kind], ['begin', 'Reporting job', 'end']);
    // Each rank done is reported, at most 10 reports a second.
    for (const p of progress.slice(1, -1)) assert.match(p.message ?? '', /^rank000[01] done \([12]\/2\)$/);
  });

  test('job_step_heatmap: 2 ranks × 16 steps whose cells are the source’s iterations, process by process', async () => {
    const result = await server.client.runSkillOnJob(job.jobId, 'job_step_heatmap');
    const map = heatMapFromSkill(result, ['rank0000', 'rank0001']);
    assert.deepEqual([map.ranks, map.steps, map.cells.length], [['rank0000', 'rank0001'], 16, 32]);
    const cell = (rank: string, step: number) => map.cells.find((c) => c.rank === rank && c.step === step)!;
    for (const [rank, step, ns] of CELLS) assert.equal(cell(rank, step).stepNs, ns, `${rank} step ${step}`);
    // The source file itself, process by process: every cell is that process's iteration.
    const source = await server.client.openProfile(jobSource);
    const iterations = await server.client.runSkill(source.profileId, 'iterations');
    const col = (name: string) => iterations.columns.findIndex((c) => c.name === name);
    for (const row of iterations.rows) {
      const rank = EXPECTED.find((e) => e.pid === row[col('pid')])!.rank;
      assert.equal(cell(rank, Number(row[col('iteration')])).stepNs, row[col('duration_ns')]);
    }
    assert.equal(iterations.rows.length, 32);
    await server.client.closeProfile(source.profileId);
    // Each cell against its step's median over the two ranks: their mean, in whole nanoseconds.
    for (const c of map.cells) {
      const other = map.cells.find((o) => o.step === c.step && o.rank !== c.rank)!;
      const median = Math.floor((c.stepNs + other.stepNs) / 2);
      assert.ok(Math.abs(c.vsMedianPct! - (100 * (c.stepNs - median)) / median) < 1e-9, `${c.rank} step ${c.step}`);
    }
  });

  test('the job view model: the report’s lines, step time the median of the rank’s cells', async () => {
    const model = await loadJobView(server.client, job.jobId, dir);
    assert.deepEqual(model.ranks.map((r) => r.kernels), [1993, 2017]);
    assert.equal(model.heatmap.cells.length, 32);
    for (const r of model.ranks) {
      const cells = model.heatmap.cells.filter((c) => c.rank === r.rank).map((c) => c.stepNs).sort((a, b) => a - b);
      assert.equal(r.stepTimeNs, (cells[7] + cells[8]) / 2, r.rank);
    }
  });

  test('exportJobTrace writes every rank’s kernels into one trace, as its answer says', async () => {
    const out = path.join(os.tmpdir(), `nsys-ai-job-${process.pid}.pftrace`);
    try {
      const result = await server.client.exportJobTrace(job.jobId, out);
      assert.equal(result.path, out);
      const bytes = fs.readFileSync(out);
      assert.equal(result.bytes, bytes.length);
      assert.equal(result.sha256, crypto.createHash('sha256').update(bytes).digest('hex'));
      assert.equal(result.slices.kernels, 1993 + 2017);
      assert.deepEqual(result.ranks.map((r) => [r.rank, r.error]), [['rank0000', undefined], ['rank0001', undefined]]);
    } finally {
      fs.rmSync(out, { force: true });
    }
  });

  // nsys/openInPerfetto {jobId}: the job's trace published on the side channel, the bytes exportJobTrace writes for
  // the same job and ranksPerNode (the same result shape as a profile's).
  test('openJobInPerfetto publishes exactly the trace exportJobTrace writes, on a loopback URL with a token', async () => {
    const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
    const fetched = async (url: string) => {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      return Buffer.from(await res.arrayBuffer());
    };
    const exported = async (ranksPerNode?: number) => {
      const out = path.join(os.tmpdir(), `nsys-ai-job-${process.pid}-${ranksPerNode ?? 'default'}.pftrace`);
      try {
        const params = ranksPerNode === undefined ? { jobId: job.jobId, output: out } : { jobId: job.jobId, output: out, ranksPerNode };
        const result = await server.conn.sendRequest<{ sha256: string; bytes: number }>('nsys/exportJobTrace', params);
        const bytes = fs.readFileSync(out);
        assert.equal(result.sha256, sha(bytes));
        return { sha256: sha(bytes), bytes: bytes.length };
      } finally {
        fs.rmSync(out, { force: true });
      }
    };

    const result = await server.client.openJobInPerfetto(job.jobId);
    const m = /^http:\/\/127\.0\.0\.1:(\d+)\/p\/([0-9a-f]{32})\/$/.exec(result.url);
    assert.ok(m, result.url);
    assert.equal(result.port, Number(m[1]));
    assert.equal(result.token, m[2]);
    assert.equal(result.traceUrl, `${result.url}trace.pftrace`);
    assert.equal(result.showDocument, false, 'this client did not announce showDocument');
    assert.equal(result.window, 'whole job');
    assert.match(result.sshHint, new RegExp(`-L ${result.port}:127\\.0\\.0\\.1:${result.port} `));
    assert.ok(Date.parse(String(result.expiresAt)) > Date.now(), `expiresAt ${result.expiresAt}`);
    const served = await fetched(result.traceUrl);
    assert.equal(served.length, result.bytes);
    assert.equal(sha(served), result.sha256);
    const written = await exported();
    assert.deepEqual({ sha256: result.sha256, bytes: result.bytes }, written, 'byte for byte the exported trace');
    const page = await fetch(result.url);
    assert.equal(page.status, 200, 'the opener page');

    // ranksPerNode reaches the server: 2 ranks on one node share a clock (no offset), another trace than the default
    // (rank0001 offset by nccl_ends), and again exportJobTrace's for the same ranksPerNode.
    const oneNode = await server.client.openJobInPerfetto(job.jobId, undefined, 2);
    assert.notEqual(oneNode.token, result.token, 'a fresh link');
    assert.notEqual(oneNode.sha256, result.sha256);
    assert.equal(sha(await fetched(oneNode.traceUrl)), oneNode.sha256);
    assert.deepEqual({ sha256: oneNode.sha256, bytes: oneNode.bytes }, await exported(2));

    await assert.rejects(server.client.openJobInPerfetto('j999'), (err: { code?: number; message?: string }) =>
      err.code === -32602 && /no open job has id 'j999'/.test(err.message ?? ''),
    );
  });

  test('analyzeJob: the straggler of the collectives, with its Markdown', async () => {
    const result = await server.client.analyzeJob(job.jobId);
    assert.deepEqual(result.findings.map((f) => f.rootCause), ['job_straggler']);
    assert.match(result.findings[0].title, /^rank0001 is the last to start \d+ of 33 collectives/);
    assert.match(result.markdown ?? '', /job_stragglers/);
    assert.ok(result.findings[0].answer.markdown.length > 0);
  });

  test('closeJob: the id is gone', async () => {
    assert.equal(await server.client.closeJob(job.jobId), null);
    await assert.rejects(server.client.jobReport(job.jobId), (err: { code?: number }) => err.code === -32602);
  });
});
