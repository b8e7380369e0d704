// The Diff Profiles panel: nsys/diff's verdict, headline and comparability, then the rows the server marked beyond
// its noise floor, slower first. Every figure is the server's; the panel only picks rows by the server's own flags.
import * as path from 'path';
import type { DiffResult, DiffRow } from '../protocol/types';
import { escapeHtml as esc, formatCount, formatNs } from './format';
import { renderMarkdown } from './markdown';
import { page } from './panels';

const STYLE = `.verdict { display: inline-block; padding: 2px 10px; border-radius: 3px; font-weight: 600; border: 1px solid currentColor; }
.verdict.regressed { color: var(--vscode-errorForeground, #f48771); }
.verdict.improved { color: var(--vscode-testing-iconPassed, #73c991); }
.verdict.neutral { color: var(--vscode-descriptionForeground, #999); }
td.worse { color: var(--vscode-errorForeground, #f48771); } td.better { color: var(--vscode-testing-iconPassed, #73c991); }
td.name { white-space: normal; max-width: 48em; overflow-wrap: anywhere; }
h2 { font-size: 1.1em; margin: 20px 0 6px; } dl { display: grid; grid-template-columns: max-content auto; gap: 2px 14px; }
dt { color: var(--vscode-descriptionForeground, #999); } dd { margin: 0; }
.change.regressed { color: var(--vscode-errorForeground, #f48771); } .change.improved { color: var(--vscode-testing-iconPassed, #73c991); }
pre.verify { white-space: pre-wrap; overflow-wrap: anywhere; } li > p { margin: 0; }`;

const signedPct = (pct: number) => `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`;
const signedNs = (ns: number) => `${ns > 0 ? '+' : ns < 0 ? '−' : ''}${formatNs(Math.abs(ns))}`;

/** Shared rows the server found beyond noise that cost time (positive impact), most impact first. */
export function regressions(result: Pick<DiffResult, 'kernels' | 'ranges'>): { kind: string; row: DiffRow }[] {
  const pick = (kind: string, rows: DiffRow[]) =>
    (rows ?? []).filter((r) => r.presence === 'both' && r.beyondNoise && r.impactNs > 0).map((row) => ({ kind, row }));
  return [...pick('kernel', result.kernels), ...pick('NVTX range', result.ranges)].sort((a, b) => b.row.impactNs - a.row.impactNs);
}

/** The same for rows that got faster. */
export function improvements(result: Pick<DiffResult, 'kernels' | 'ranges'>): { kind: string; row: DiffRow }[] {
  const pick = (kind: string, rows: DiffRow[]) =>
    (rows ?? []).filter((r) => r.presence === 'both' && r.beyondNoise && r.impactNs < 0).map((row) => ({ kind, row }));
  return [...pick('kernel', result.kernels), ...pick('NVTX range', result.ranges)].sort((a, b) => a.row.impactNs - b.row.impactNs);
}

function rowsTable(caption: string, rows: { kind: string; row: DiffRow }[], cls: 'worse' | 'better'): string {
  if (!rows.length) return '';
  const body = rows
    .map(({ kind, row }) => {
      const avg = (ns?: number) => (ns === undefined ? '' : esc(formatNs(ns)));
      return `<tr tabindex="0"><td class="name" title="${esc(row.name)}">${esc(row.shortName && kind === 'kernel' ? row.shortName : row.name)}</td><td>${esc(kind)}</td>
<td class="n">${avg(row.baseAvgNs)}</td><td class="n">${avg(row.newAvgNs)}</td>
<td class="n ${cls}">${row.perCallPct === undefined ? '' : esc(signedPct(row.perCallPct))}</td>
<td class="n">${esc(formatCount(row.baseCalls))} → ${esc(formatCount(row.newCalls))}</td><td class="n ${cls}">${esc(signedNs(row.impactNs))}</td></tr>`;
    })
    .join('\n');
  return `<h2>${esc(caption)}</h2><table aria-label="${esc(caption)}"><thead><tr><th scope="col">Name</th><th scope="col">Kind</th>
<th scope="col">Base per call</th><th scope="col">New per call</th><th scope="col">Change</th><th scope="col">Calls</th>
<th scope="col" title="(new − base per-call average) × base calls">Impact</th></tr></thead><tbody>${body}</tbody></table>`;
}

// Long: one template for the whole panel, read top to bottom as the user sees it.
export function renderDiffHtml(result: DiffResult, nonce: string): string {
  const baseName = path.basename(result.basePath || 'base');
  const newName = path.basename(result.newPath || 'new');
  const title = `${baseName} → ${newName}`;
  const h = result.headline;
  const headline = h
    ? `<dl><dt>Measure</dt><dd>${esc(h.metric)}</dd><dt>Base → new</dt><dd>${esc(formatNs(h.baseNs))} → ${esc(formatNs(h.newNs))}
 (<span class="change ${esc(result.verdict)}">${h.changePct === undefined ? 'n/a' : esc(signedPct(h.changePct))}</span>)</dd><dt>Noise floor</dt><dd>±${esc(h.noiseFloorPct.toFixed(1))}%${
   h.noiseFloorReason ? ` <span class="muted">(${esc(h.noiseFloorReason)})</span>` : ''
 }</dd>`
    : '<dl><dt>Measure</dt><dd class="muted">Nothing could be compared.</dd>';
  const c = result.comparability;
  const comparability = c
    ? `<dt>Comparability</dt><dd>${esc(c.label)} (${esc(c.score.toFixed(2))})${
        c.reasons?.length ? `<ul class="muted">${c.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>` : ''
      }</dd>`
    : '';
  const counts = (label: string, k?: { both: number; appeared: number; disappeared: number }) =>
    k ? `<dt>${label}</dt><dd>${formatCount(k.both)} in both, ${formatCount(k.appeared)} appeared, ${formatCount(k.disappeared)} disappeared</dd>` : '';
  const worse = regressions(result);
  const better = improvements(result);
  const summary = result.answer?.summary ? `<p class="summary">${esc(result.answer.summary)}</p>` : '';
  const recs = result.answer?.recommendations?.length
    ? `<h2>Recommendations</h2><ul>${result.answer.recommendations.map((r) => `<li>${renderMarkdown(r)}</li>`).join('')}</ul>`
    : '';
  const verify = result.answer?.verify ? `<h2>Verify</h2><pre class="verify"><code>${esc(result.answer.verify)}</code></pre>` : '';
  const notes = result.notes?.length ? `<h2>Notes</h2><ul class="muted">${result.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '';
  const full = result.markdown ? `<details><summary>Full report</summary><div class="markdown">${renderMarkdown(result.markdown)}</div></details>` : '';
  const body = `<h1>${esc(title)}</h1>
<p><span class="verdict ${esc(result.verdict)}" role="status">${esc(result.verdict)}</span></p>${summary}
${headline}${comparability}${counts('Kernels', result.kernelCounts)}${counts('NVTX ranges', result.rangeCounts)}</dl>
${worse.length ? rowsTable('Regressions (beyond noise)', worse, 'worse') : '<h2>Regressions (beyond noise)</h2><p class="muted">None.</p>'}
${rowsTable('Improvements (beyond noise)', better, 'better')}${recs}${verify}${notes}${full}`;
  return page(`Diff · ${title}`, nonce, body, '', STYLE);
}
