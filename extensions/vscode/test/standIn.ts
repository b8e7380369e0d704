// The three methods other helpers are adding to the server now (nsys/analyze, nsys/explainKernel, nsys/ask),
// answered with the shapes they announced, in front of the REAL server for every other method. Replaced by the
// real methods once the server has them.
import { ProgressType } from 'vscode-jsonrpc';
import type { CancellationToken, Disposable, RpcConnection } from '../src/protocol/client';
import type { Finding } from '../src/protocol/types';

export const FINDINGS: Finding[] = [
  {
    rootCause: 'host_sync_stall',
    title: 'cudaStreamSynchronize stalls the host',
    severity: 'high',
    atStakeNs: 41_000_000,
    skill: 'sync_apis',
    coverage: 'whole profile',
    answer: {
      summary: '244 stream synchronizations block the CPU for 41 ms.',
      evidence: [],
      confidence: 'high',
      confidenceReason: 'measured',
      hypotheses: [],
      recommendations: ['Replace cudaStreamSynchronize with events.'],
      verify: 'nsys-ai skill run sync_apis h100_2gpu_1s.sqlite',
      markdown: '**244** synchronizations <script>alert(1)</script> block the host.',
    },
  },
  {
    rootCause: 'small_kernels',
    title: 'Many short kernels',
    severity: 'low',
    atStakeNs: 2_000_000,
    skill: 'top_kernels',
    coverage: 'whole profile',
    answer: { summary: 'Launch overhead.', recommendations: ['Fuse elementwise kernels.'], markdown: 'Fuse them.' },
  },
];

export class StandInConnection implements RpcConnection {
  readonly calls: { method: string; params: Record<string, unknown> }[] = [];
  private readonly handlers = new Map<string | number, (v: unknown) => void>();
  /** Set to make the stand-in answer -32601 as a server without these methods does. */
  missing = false;
  /** Set to stream the findings as partial results, one per value, with an empty final list. */
  streamFindings = false;
  askChunks = ['The GPU ', 'is **busy** ', '99% of the time.'];

  constructor(private readonly real: RpcConnection) {}

  onProgress<P>(type: ProgressType<P>, token: string | number, handler: (value: P) => void): Disposable {
    this.handlers.set(token, handler as (v: unknown) => void);
    const inner = this.real.onProgress(type, token, handler);
    return { dispose: () => (this.handlers.delete(token), inner.dispose()) };
  }

  async sendRequest<R>(method: string, params: unknown, token?: CancellationToken): Promise<R> {
    const p = params as Record<string, unknown>;
    if (!['nsys/analyze', 'nsys/explainKernel', 'nsys/ask'].includes(method)) {
      return token ? this.real.sendRequest<R>(method, params, token) : this.real.sendRequest<R>(method, params);
    }
    this.calls.push({ method, params: p });
    if (this.missing) throw Object.assign(new Error(`method not found: ${method}`), { code: -32601 });
    if (token?.isCancellationRequested) throw Object.assign(new Error('cancelled'), { code: -32800 });
    if (method === 'nsys/analyze') {
      await new Promise((r) => setTimeout(r, 20));
      if (token?.isCancellationRequested) throw Object.assign(new Error('The request was cancelled.'), { code: -32800 });
      if (!this.streamFindings) return { findings: FINDINGS } as R;
      const partial = this.handlers.get(p.partialResultToken as string);
      for (const f of FINDINGS) {
        partial?.(f);
        await new Promise((r) => setTimeout(r, 5));
      }
      return { findings: [] } as R;
    }
    if (method === 'nsys/explainKernel') {
      return { kernel: p.kernel, markdown: `### ${String(p.kernel).slice(0, 20)}\nA *GEMM* kernel from cuBLAS.` } as R;
    }
    const partial = this.handlers.get(p.partialResultToken as string);
    for (const text of this.askChunks) partial?.({ text });
    const conversationId = (p.conversationId as string | undefined) ?? `c${this.calls.length}`;
    return { answer: { summary: 'busy', markdown: 'The GPU is **busy** 99% of the time.' }, conversationId } as R;
  }
}
