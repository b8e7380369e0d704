// The job view's HTML (a directory of rank exports opened as one): the line per rank of nsys/jobReport, the memory
// line, and the ranks × steps heat map of job_step_heatmap as SVG. Pure (no vscode), like the profile view, whose
// CSS and CSP it shares; colours come from the theme's variables.
import type { RankSummary, JobAnalysisResult, JobMemoryInfo } from '../protocol/types';
import { escapeHtml as esc, formatBytes, formatCount, formatNs } from './format';
import { findingsHtml, HtmlOptions, STYLE } from './html';
import { HEATMAP_SKILL, HeatCell, HeatMap, JobViewModel } from './jobModel';

export const JOB_COMMANDS = [
  { id: 'openJobInPerfetto', label: 'Open in Perfetto', key: 'p' },
  { id: 'analyzeJob', label: 'Analyze job', key: 'a' },
  { id: 'setJobRanksPerNode', label: 'Ranks per node…', key: 'n' },
] as const;

/** The header's words for the ranks per node the job's requests use. */
export function nodesText(ranksPerNode: number): string {
  return ranksPerNode > 0 ? `ranks per node: ${ranksPerNode}` : 'each rank its own node';
}

/** Pixel height of one rank's row of the heat map (the SVG and the rank labels beside it). */
const ROW_PX = 22;

const baseName = (p: string) => p.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? p;
const signedPct = (pct: number) => `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`;

export function memoryLine(m: JobMemoryInfo): string {
  return `Memory: peak ${formatBytes(m.peakAccountedBytes)} of a ${formatBytes(m.budgetBytes)} budget · ${formatCount(m.loads)} rank loads · ${formatCount(m.evictions)} evictions · ${formatCount(m.overBudgetRanks)} ranks over budget`;
}

function rankRow(r: RankSummary): string {
  const step = r.stepTimeNs === undefined || r.stepTimeNs === null ? '—' : formatNs(r.stepTimeNs);
  return `<tr class="row rank${r.error ? ' failed' : ''}" tabindex="0" data-rank="${esc(r.rank)}" title="${esc(r.path)}">
  <td class="name">${esc(r.rank)}</td><td class="num">${esc(formatCount(r.kernels))}</td><td class="num">${esc(formatNs(r.gpuTimeNs))}</td>
  <td class="num" title="${esc(formatCount(r.ncclKernels))} NCCL kernels">${esc(formatNs(r.ncclTimeNs))}</td>
  <td class="num">${esc(step)}</td><td class="num">${esc(formatCount(r.steps))}</td><td class="error">${esc(r.error ?? '')}</td></tr>`;
}

export function rankTable(ranks: RankSummary[]): string {
  return `<table class="rows" aria-label="Ranks"><thead><tr><th>Rank</th><th class="num">Kernels</th><th class="num">GPU time</th>
<th class="num">NCCL time</th><th class="num">Step time</th><th class="num">Steps</th><th>Errors</th></tr></thead>
<tbody>${ranks.map(rankRow).join('\n')}</tbody></table>`;
}

function notesHtml(notes: string[]): string {
  if (!notes.length) return '';
  return `<details class="notes"><summary>Notes</summary><ul>${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></details>`;
}

function cellTitle(c: HeatCell): string {
  const vs = c.vsMedianPct === null ? '' : `, ${signedPct(c.vsMedianPct)} vs the step's median`;
  const busy = c.gpuBusyNs === null ? '' : `, GPU busy ${formatNs(c.gpuBusyNs)}`;
  return `${c.rank} · step ${c.step}: ${formatNs(c.stepNs)}${vs}${busy}`;
}

/** Viridis: a sequential palette that reads the same on dark and light themes and in grey. */
const PALETTE = ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'];

/** The palette's colour at t in [0, 1], interpolated between its stops. */
export function heatColour(t: number): string {
  const x = Math.min(Math.max(t, 0), 1) * (PALETTE.length - 1);
  const i = Math.min(Math.floor(x), PALETTE.length - 2);
  const rgb = (hex: string) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const [a, b] = [rgb(PALETTE[i]), rgb(PALETTE[i + 1])];
  return `#${a.map((v, k) => Math.round(v + (b[k] - v) * (x - i)).toString(16).padStart(2, '0')).join('')}`;
}

/** The shortest and the longest cell: the colour scale's ends. */
function stepRange(cells: HeatCell[]): [number, number] {
  return [Math.min(...cells.map((c) => c.stepNs)), Math.max(...cells.map((c) => c.stepNs))];
}

function heatRect(c: HeatCell, row: number, [lo, hi]: [number, number]): string {
  const t = hi > lo ? (c.stepNs - lo) / (hi - lo) : 1;
  return `<rect class="cell" x="${c.step}" y="${row}" width="1" height="1" fill="${heatColour(t)}" data-rank="${esc(c.rank)}" data-step="${c.step}" data-ns="${c.stepNs}" data-pct="${c.vsMedianPct ?? ''}"><title>${esc(cellTitle(c))}</title></rect>`;
}

function legend([lo, hi]: [number, number]): string {
  const stops = PALETTE.map((c, i) => `<stop offset="${((i / (PALETTE.length - 1)) * 100).toFixed(1)}%" stop-color="${c}"></stop>`).join('');
  return `<figcaption class="legend"><span>${esc(formatNs(lo))}</span><svg class="ramp" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
  <defs><linearGradient id="ramp">${stops}</linearGradient></defs><rect width="100" height="10" fill="url(#ramp)"></rect></svg><span>${esc(formatNs(hi))}</span>
  <span class="muted">step time; hover a cell for its time against the step's median over the ranks</span></figcaption>`;
}

function stepTicks(steps: number): string {
  const every = Math.max(1, Math.ceil(steps / 12));
  const ticks: string[] = [];
  for (let s = 0; s < steps; s += every) {
    ticks.push(`<text x="${(((s + 0.5) / steps) * 100).toFixed(2)}%" y="12" text-anchor="middle">${s}</text>`);
  }
  return ticks.join('');
}

function slowest(cells: HeatCell[]): string {
  const top = cells.reduce<HeatCell | undefined>((a, c) => ((c.vsMedianPct ?? -Infinity) > (a?.vsMedianPct ?? -Infinity) ? c : a), undefined);
  if (!top || top.vsMedianPct === null) return '';
  return `<p class="slowest">Slowest against its step: <strong>${esc(top.rank)}</strong>, step ${top.step}: ${esc(formatNs(top.stepNs))} (${esc(signedPct(top.vsMedianPct))})</p>`;
}

export function heatMapHtml(h: HeatMap): string {
  if (h.error) return `<p class="error" role="alert">${esc(h.error)}</p>`;
  if (h.declined || h.cells.length === 0) {
    return `<p class="muted">${esc(h.notes.join(' ') || 'No rank has steps.')}</p>`;
  }
  const rowOf = new Map(h.ranks.map((r, i) => [r, i]));
  const range = stepRange(h.cells);
  const rects = h.cells.map((c) => heatRect(c, rowOf.get(c.rank) ?? 0, range)).join('');
  const labels = h.ranks.map((r) => `<span>${esc(r)}</span>`).join('');
  return `<figure class="heat" aria-label="Step time of ${h.ranks.length} ranks × ${h.steps} steps">
  <div class="heatgrid"><div class="ranks" aria-hidden="true">${labels}</div>
  <div class="plot"><svg class="heatmap" viewBox="0 0 ${h.steps} ${h.ranks.length}" preserveAspectRatio="none" width="100%" height="${h.ranks.length * ROW_PX}" role="img">${rects}</svg>
  <svg class="xaxis" aria-hidden="true">${stepTicks(h.steps)}</svg></div></div>
  ${legend(range)}
</figure>${slowest(h.cells)}${notesHtml(h.notes)}`;
}

/** nsys/analyzeJob's answer in the view: its summary, the findings as the profile view shows them, what it could not check. */
export function jobFindingsHtml(result: JobAnalysisResult): string {
  const summary = result.summary ? `<p class="summary">${esc(result.summary)}</p>` : '';
  const list = result.findings.length
    ? findingsHtml({ rows: result.findings, notes: [], declined: false })
    : '<p class="muted">No cause across the ranks is at stake.</p>';
  const unchecked = (result.unchecked ?? []).map((u) => `<li><code>${esc(u.rootCause)}</code>: ${esc(u.missing)}</li>`).join('');
  return `${summary}${list}${unchecked ? `<details class="notes"><summary>Not checked</summary><ul>${unchecked}</ul></details>` : ''}`;
}

const JOB_STYLE = `
.heatgrid { display: flex; gap: 8px; }
.ranks { display: flex; flex-direction: column; font-family: var(--vscode-editor-font-family, monospace); font-size: 0.9em; }
.ranks span { height: ${ROW_PX}px; line-height: ${ROW_PX}px; white-space: nowrap; }
svg.heatmap { display: block; background: var(--vscode-editorWidget-background, #252526); border: 1px solid var(--vscode-widget-border, #454545); }
.cell { stroke: var(--vscode-editor-background, #1e1e1e); stroke-width: 1; vector-effect: non-scaling-stroke; }
.cell:hover { stroke: var(--vscode-focusBorder, #007fd4); stroke-width: 2; }
.legend { display: flex; align-items: center; gap: 8px; margin-top: 6px; font-size: 0.9em; }
.ramp { width: 160px; height: 10px; }
.memory { margin: 10px 0 0; }
tr.failed td { color: var(--vscode-errorForeground, #f48771); }
`;

// The view's behaviour: toolbar buttons and Alt+key post commands; arrow keys move between the ranks' rows; the
// findings arrive as HTML the extension rendered from nsys/analyzeJob, the ranks per node in use as text.
const SCRIPT = `
(function () {
  const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage: function () {} };
  document.querySelectorAll('button[data-command]').forEach(function (b) {
    b.addEventListener('click', function () { vscode.postMessage({ type: 'command', command: b.dataset.command }); });
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey) {
      const b = document.querySelector('button[aria-keyshortcuts="Alt+' + e.key.toUpperCase() + '"]');
      if (b) { e.preventDefault(); b.click(); }
      return;
    }
    const row = e.target.closest && e.target.closest('tr.row');
    const next = !row ? null : e.key === 'ArrowDown' ? row.nextElementSibling : e.key === 'ArrowUp' ? row.previousElementSibling : null;
    if (next) { e.preventDefault(); next.focus(); }
  });
  window.addEventListener('message', function (event) {
    const m = event.data || {};
    const body = document.getElementById('findings-body');
    if (m.type === 'findings' && body) body.innerHTML = m.html;
    const nodes = document.getElementById('nodes');
    if (m.type === 'nodes' && nodes) nodes.textContent = m.text;
  });
  vscode.postMessage({ type: 'ready' });
})();
`;

// Long: the page template, one string so the markup reads top to bottom as the user sees it.
export function renderJobHtml(model: JobViewModel, opts: HtmlOptions): string {
  const csp = `default-src 'none'; style-src 'nonce-${opts.nonce}'; script-src 'nonce-${opts.nonce}'`;
  const toolbar = JOB_COMMANDS.map(
    (c) => `<button type="button" data-command="${c.id}" aria-keyshortcuts="Alt+${c.key.toUpperCase()}">${esc(c.label)}</button>`,
  ).join('');
  const name = baseName(model.directory);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Job · ${esc(name)}</title>
<style nonce="${opts.nonce}">${opts.themeCss ?? ''}
${STYLE}${JOB_STYLE}</style></head>
<body>
<header>
  <div class="titles"><h1>Job · ${esc(name)}</h1><div class="muted path">${esc(model.directory)} · ${model.ranks.length} ranks · <span id="nodes">${esc(nodesText(model.ranksPerNode ?? 0))}</span></div></div>
  <nav class="toolbar" aria-label="Job actions">${toolbar}</nav>
</header>
<section aria-labelledby="h-ranks"><h2 id="h-ranks">Ranks <span class="muted small">(nsys/jobReport)</span></h2>${rankTable(model.ranks)}
<p class="memory muted" id="memory">${esc(memoryLine(model.memory))}</p>${notesHtml(model.notes)}</section>
<section aria-labelledby="h-heat"><h2 id="h-heat">Step time, ranks × steps <span class="muted small">(${esc(HEATMAP_SKILL)})</span></h2>${heatMapHtml(model.heatmap)}</section>
<section id="findings" aria-labelledby="h-findings"><h2 id="h-findings">Findings across ranks</h2>
<div id="findings-body"><p class="muted">Run <em>Analyze job</em> (Alt+A) for the causes that only show across ranks.</p></div></section>
<script nonce="${opts.nonce}">${SCRIPT}</script>
</body></html>`;
}
