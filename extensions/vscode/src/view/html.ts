// The profile view's HTML, rendered from a ProfileViewModel. Pure (no vscode), so the tests and the screenshot
// script render exactly what the webview shows. Colours come from VS Code's theme variables.
import type { Finding, KernelSourcesResult, MappingCoverage } from '../protocol/types';
import { escapeHtml as esc, formatBytes, formatCount, formatNs, formatShare } from './format';
import { renderMarkdown } from './markdown';
import type { BudgetSpan, KernelRow, NvtxRow, ProfileViewModel, Section, UtilisationSeries } from './model';

export interface HtmlOptions {
  nonce: string;
  /** The webview's cspSource (VS Code); absent outside VS Code. */
  cspSource?: string;
  /** Extra CSS placed before ours (the screenshot script passes a theme's variables). */
  themeCss?: string;
}

export const COMMANDS = [
  { id: 'openInPerfetto', label: 'Open in Perfetto', key: 'p' },
  { id: 'analyze', label: 'Analyze', key: 'a' },
  { id: 'ask', label: 'Ask…', key: 'q' },
  { id: 'runSkill', label: 'Run skill…', key: 's' },
  { id: 'exportTrace', label: 'Export trace', key: 'e' },
] as const;

const baseName = (p: string) => p.split(/[\\/]/).pop() ?? p;

function sectionStatus<T>(s: Section<T>, what: string): string {
  if (s.loading) return `<p class="muted" role="status">Computing ${esc(what)}…</p>`;
  if (s.error) return `<p class="error" role="alert">${esc(s.error)}</p>`;
  if (s.declined) return `<p class="muted">${esc(s.notes.join(' ') || `This profile has no data for ${what}.`)}</p>`;
  if (s.rows.length === 0) return `<p class="muted">No ${esc(what)} in this profile.</p>`;
  return '';
}

function notes(s: Section<unknown>): string {
  if (!s.notes.length || s.declined) return '';
  return `<details class="notes"><summary>Notes</summary><ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></details>`;
}

function utilisationChart(series: UtilisationSeries, durationNs: number): string {
  const width = 1000;
  const height = 100;
  const span = Math.max(durationNs, 1);
  const bars = series.chunks
    .map((c) => {
      const x = (c.startNs / span) * width;
      const w = Math.max((c.durationNs / span) * width - 0.6, 0.6);
      const h = (Math.min(c.busyPct, 100) / 100) * height;
      const title = `${series.label}, ${formatNs(c.startNs)} to ${formatNs(c.startNs + c.durationNs)}: busy ${c.busyPct}%, in use ${c.inUsePct}%`;
      const low = c.busyPct < 50 ? ' low' : '';
      return `<rect class="bar${low}" x="${x.toFixed(2)}" y="${(height - h).toFixed(2)}" width="${w.toFixed(2)}" height="${h.toFixed(2)}"><title>${esc(title)}</title></rect>`;
    })
    .join('');
  const grid = [0, 50, 100]
    .map((p) => `<line class="grid" x1="0" x2="${width}" y1="${height - p}" y2="${height - p}"></line>`)
    .join('');
  // Percent x positions in an SVG without a viewBox: text is not stretched, and no style attribute is needed (the
  // CSP allows only the nonce'd style element).
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => {
      const anchor = f === 0 ? 'start' : f === 1 ? 'end' : 'middle';
      return `<text x="${f * 100}%" y="12" text-anchor="${anchor}">${esc(formatNs(f * durationNs))}</text>`;
    })
    .join('');
  return `<figure class="util" aria-label="${esc(series.label)} busy percentage over time">
  <figcaption>${esc(series.label)}${series.label.includes('pid') ? '' : ` <span class="muted small">pid ${series.pid}</span>`}</figcaption>
  <div class="chart"><div class="yaxis" aria-hidden="true"><span>100%</span><span>50%</span><span>0%</span></div>
  <div class="plot"><svg class="area" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" role="img">${grid}${bars}</svg>
  <svg class="xaxis" aria-hidden="true">${ticks}</svg></div></div>
</figure>`;
}

/**
 * One GPU span as a stacked bar of its slices (time_budget), in the server's order (kernels, copies, idle), and the
 * slices of at least 1% listed with their shares. Widths are SVG attributes (the CSP admits no style attribute).
 */
function budgetChart(span: BudgetSpan): string {
  let x = 0;
  const rects = span.slices
    .map((s) => {
      const w = Math.max(s.pct * 10, 0);
      const rect = `<rect class="slice ${esc(s.kind)} ${esc(s.slice)}" x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="20"><title>${esc(`${s.slice}: ${s.pct.toFixed(1)}% (${formatNs(s.timeNs)}), ${s.description}`)}</title></rect>`;
      x += w;
      return rect;
    })
    .join('');
  const legend = span.slices
    .filter((s) => s.pct >= 1)
    .sort((a, b) => b.pct - a.pct)
    .map(
      (s) =>
        `<li><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><rect class="slice ${esc(s.kind)} ${esc(s.slice)}" width="10" height="10"></rect></svg>${esc(s.slice)} <strong>${s.pct.toFixed(1)}%</strong> <span class="muted">${esc(formatNs(s.timeNs))}</span></li>`,
    )
    .join('');
  return `<figure class="budget" aria-label="${esc(span.label)}: where its span's time goes">
  <figcaption>${esc(span.label)}${span.label.includes('pid') ? '' : ` <span class="muted small">pid ${span.pid}</span>`} <span class="muted small">span ${esc(formatNs(span.spanNs))}</span></figcaption>
  <svg class="stack" viewBox="0 0 1000 20" preserveAspectRatio="none" role="img">${rects}</svg>
  <ul class="legend">${legend}</ul>
</figure>`;
}

function barCell(pct: number, maxPct: number): string {
  const width = maxPct > 0 ? Math.max((pct / maxPct) * 100, 0.5) : 0;
  return `<td class="barcell"><div class="barwrap"><span>${pct.toFixed(1)}%</span><svg class="hbar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect width="${width.toFixed(1)}" height="10"></rect></svg></div></td>`;
}

function kernelTable(rows: KernelRow[]): string {
  const max = Math.max(...rows.map((r) => r.pct), 0);
  const body = rows
    .map(
      (r) => `<tr class="row kernel" tabindex="0" data-kernel="${esc(r.name)}" aria-label="${esc(r.name)}">
  ${barCell(r.pct, max)}<td class="name"><code>${esc(r.shortName)}</code></td>
  <td class="num">${esc(formatNs(r.totalNs))}</td><td class="num">${esc(formatCount(r.instances))}</td><td class="num">${esc(formatNs(r.avgNs))}</td></tr>`,
    )
    .join('\n');
  return `<table class="rows" aria-label="Top kernels"><thead><tr><th class="barcell">Share</th><th>Kernel</th><th class="num">Total</th><th class="num">Count</th><th class="num">Average</th></tr></thead>
<tbody>${body}</tbody></table>`;
}

function nvtxTable(rows: NvtxRow[]): string {
  const max = Math.max(...rows.map((r) => r.pct), 0);
  const body = rows
    .map(
      (r) => `<tr class="row" tabindex="0" title="${esc(r.range)} (${esc(r.style)})">
  ${barCell(r.pct, max)}<td class="name">${esc(r.range)}</td>
  <td class="num">${esc(formatNs(r.totalNs))}</td><td class="num">${esc(formatCount(r.instances))}</td><td class="num">${esc(formatNs(r.avgNs))}</td></tr>`,
    )
    .join('\n');
  return `<table class="rows" aria-label="NVTX ranges"><thead><tr><th class="barcell">Share</th><th>Range</th><th class="num">Total</th><th class="num">Count</th><th class="num">Average</th></tr></thead>
<tbody>${body}</tbody></table>`;
}

export function severityClass(severity: Finding['severity']): string {
  const s = String(severity ?? '').toLowerCase();
  if (['critical', 'high', 'error', '1'].includes(s)) return 'high';
  if (['medium', 'warning', 'moderate', '2'].includes(s)) return 'medium';
  return 'low';
}

export function findingsHtml(findings: Section<Finding>): string {
  const headline =
    findings.headline && !findings.loading && !findings.error ? `<p class="headline">${esc(findings.headline)}</p>` : '';
  const status = sectionStatus(findings, 'findings');
  if (status) return headline + status;
  return `${headline}<ol class="findings">${findings.rows
    .map((f) => {
      const stake = typeof f.atStakeNs === 'number' ? `<span class="stake">${esc(formatNs(f.atStakeNs))} at stake</span>` : '';
      const sev = severityClass(f.severity);
      return `<li class="finding ${sev}"><details><summary><span class="sev ${sev}">${esc(String(f.severity ?? 'info'))}</span>
  <span class="ftitle">${esc(f.title)}</span>${stake}</summary>
  <div class="markdown">${renderMarkdown(f.answer?.markdown ?? f.answer?.summary ?? '')}</div></details></li>`;
    })
    .join('\n')}</ol>`;
}

/** The NVTX coverage card's inner HTML: the share, and how much kernel time it is of. */
export function coverageHtml(coverage: MappingCoverage | null): string {
  if (!coverage) return `<div class="label">NVTX coverage</div><div class="value muted">…</div><div class="muted">not computed yet</div>`;
  return `<div class="label">NVTX coverage</div><div class="value">${esc(formatShare(coverage.share))}</div>
<div class="muted" title="kernel time launched inside an innermost NVTX range that launches exactly one kernel per call">${esc(formatNs(coverage.mappedNs))} of ${esc(formatNs(coverage.kernelNs))} kernel time maps 1:1</div>`;
}

function fileName(uri: string): string {
  const path = uri.replace(/^file:\/\//, '');
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape: the uri as it is
  }
  return decoded.split('/').pop() || uri;
}

/**
 * "Kernel sources" below a kernel's explanation: the source lines (innermost annotated NVTX ranges) that launch it,
 * as links the view's script posts to the extension (data-uri, data-line, data-character).
 */
export function kernelSourcesHtml(result: KernelSourcesResult): string {
  if (!result.locations.length) return '';
  const items = result.locations
    .map((l) => {
      const where = `${fileName(l.uri)}:${l.range.start.line + 1}`;
      return `<li><a href="#" data-uri="${esc(l.uri)}" data-line="${l.range.start.line}" data-character="${l.range.start.character}" title="${esc(l.uri)}">${esc(where)}</a>
  <code>${esc(l.name)}</code> · ${esc(formatShare(l.share))} of its time · ${esc(formatNs(l.gpuNs))} · ${esc(formatCount(l.calls))} calls</li>`;
    })
    .join('\n');
  return `<div class="kernel-sources"><h4>Kernel sources</h4><ul>${items}</ul></div>`;
}

/** The findings section's inner HTML while nsys/analyze runs, and when it has answered. */
export function findingsSection(model: ProfileViewModel): string {
  if (!model.findings) return '';
  return `<section id="findings" aria-labelledby="h-findings"><h2 id="h-findings">Findings</h2>
<div id="findings-body">${findingsHtml(model.findings)}</div></section>`;
}

/** The tables of the view that arrive after the summary, each painted into its own element (`${id}-body`). */
export const VIEW_SECTIONS = ['budget', 'utilisation', 'kernels', 'nvtx'] as const;
export type ViewSectionId = (typeof VIEW_SECTIONS)[number];

/** A table's inner HTML: "Computing …" while its answer is out, then the table (or why there is none). */
export function sectionBodyHtml(model: ProfileViewModel, id: ViewSectionId): string {
  switch (id) {
    case 'budget':
      return (
        sectionStatus(model.budget, 'GPU operations') ||
        model.budget.rows.map((s) => budgetChart(s)).join('\n') + notes(model.budget)
      );
    case 'utilisation':
      return (
        sectionStatus(model.utilisation, 'GPU activity') ||
        model.utilisation.rows.map((s) => utilisationChart(s, model.durationNs)).join('\n') + notes(model.utilisation)
      );
    case 'kernels':
      return sectionStatus(model.kernels, 'kernels') || kernelTable(model.kernels.rows) + notes(model.kernels);
    case 'nvtx':
      return sectionStatus(model.nvtx, 'NVTX ranges') || nvtxTable(model.nvtx.rows) + notes(model.nvtx);
  }
}

// Long: the page template, one string so the CSS, the markup and the small script stay side by side.
export function renderProfileHtml(model: ProfileViewModel, opts: HtmlOptions): string {
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${opts.nonce}'`,
    `script-src 'nonce-${opts.nonce}'`,
    `img-src ${opts.cspSource ?? ''} data:`.trim(),
  ].join('; ');
  const devices = model.devices.map((d) => `<li>${esc(d.label)}</li>`).join('');
  const toolbar = COMMANDS.map(
    (c) => `<button type="button" data-command="${c.id}" aria-keyshortcuts="Alt+${c.key.toUpperCase()}">${esc(c.label)}</button>`,
  ).join('');
  const body = (id: ViewSectionId) => `<div id="${id}-body">${sectionBodyHtml(model, id)}</div>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(baseName(model.path))}</title>
<style nonce="${opts.nonce}">${opts.themeCss ?? ''}
${STYLE}</style></head>
<body>
<header>
  <div class="titles"><h1>${esc(baseName(model.path))}</h1><div class="muted path">${esc(model.path)}</div></div>
  <nav class="toolbar" aria-label="Profile actions">${toolbar}</nav>
</header>
<section class="cards" aria-label="Summary">
  <div class="card"><div class="label">Duration</div><div class="value">${esc(formatNs(model.durationNs))}</div></div>
  <div class="card"><div class="label">Devices</div><ul class="value devices">${devices || '<li>none</li>'}</ul></div>
  <div class="card"><div class="label">Processes · streams</div><div class="value">${esc(formatCount(model.processCount ?? 0))} · ${esc(formatCount(model.streamCount ?? 0))}</div></div>
  <div class="card"><div class="label">Nsight Systems</div><div class="value">${esc(model.nsysVersion || 'unknown')}</div><div class="muted">${esc(formatBytes(model.fileSize))}</div></div>
${model.coverage === undefined ? '' : `  <div class="card" id="coverage">${coverageHtml(model.coverage)}</div>\n`}</section>
<section aria-labelledby="h-budget"><h2 id="h-budget">Where each GPU's time goes <span class="muted small">each span split into slices that add up to it: kernels by kind, copies by direction, idle by what the host was doing (time_budget)</span></h2>${body('budget')}</section>
<section aria-labelledby="h-util"><h2 id="h-util">GPU utilisation over time <span class="muted small">busy % per chunk (gpu_utilization)</span></h2>${body('utilisation')}</section>
${findingsSection(model)}
<section aria-labelledby="h-kernels"><h2 id="h-kernels">Top kernels <span class="muted small">by total GPU time (top_kernels); hover or focus a kernel to explain it</span></h2>${body('kernels')}</section>
<section aria-labelledby="h-nvtx"><h2 id="h-nvtx">NVTX ranges <span class="muted small">(nvtx_summary)</span></h2>${body('nvtx')}</section>
<div id="hover" role="tooltip" hidden></div>
<script nonce="${opts.nonce}">${SCRIPT}</script>
</body></html>`;
}

/** The profile view's CSS (theme variables), shared by the job view. */
export const STYLE = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, #ccc); background: var(--vscode-editor-background, #1e1e1e); margin: 0; padding: 16px 24px 40px; }
h1 { font-size: 1.5em; margin: 0; font-weight: 600; }
h2 { font-size: 1.1em; margin: 26px 0 10px; font-weight: 600; border-bottom: 1px solid var(--vscode-panel-border, #80808059); padding-bottom: 4px; }
.muted { color: var(--vscode-descriptionForeground, #9d9d9d); }
.small { font-size: 0.85em; font-weight: normal; }
.path { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.9em; margin-top: 2px; word-break: break-all; }
header { display: flex; align-items: flex-start; justify-content: space-between; gap: 16px; flex-wrap: wrap; }
.toolbar { display: flex; gap: 6px; flex-wrap: wrap; }
button { font: inherit; color: var(--vscode-button-secondaryForeground, #fff); background: var(--vscode-button-secondaryBackground, #3a3d41);
  border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; padding: 4px 11px; cursor: pointer; }
button:first-child { color: var(--vscode-button-foreground, #fff); background: var(--vscode-button-background, #0e639c); }
button:hover { background: var(--vscode-button-secondaryHoverBackground, #45494e); }
button:first-child:hover { background: var(--vscode-button-hoverBackground, #1177bb); }
:focus-visible { outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: 1px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 10px; margin-top: 16px; }
.card { background: var(--vscode-editorWidget-background, #252526); border: 1px solid var(--vscode-widget-border, #454545);
  border-radius: 4px; padding: 10px 12px; }
.card .label { color: var(--vscode-descriptionForeground, #9d9d9d); font-size: 0.85em; text-transform: uppercase; letter-spacing: 0.04em; }
.card .value { font-size: 1.35em; margin-top: 4px; }
.devices { list-style: none; padding: 0; margin: 4px 0 0; font-size: 1.05em !important; }
.util { margin: 0 0 12px; }
.util figcaption { margin-bottom: 4px; font-weight: 600; }
.chart { display: flex; gap: 6px; }
.yaxis { display: flex; flex-direction: column; justify-content: space-between; height: 72px; font-size: 0.8em; color: var(--vscode-descriptionForeground, #9d9d9d); text-align: right; min-width: 34px; }
.plot { flex: 1; }
.plot svg.area { width: 100%; height: 72px; display: block; background: var(--vscode-editorWidget-background, #252526); border: 1px solid var(--vscode-widget-border, #454545); }
.budget { margin: 0 0 12px; }
.budget figcaption { margin-bottom: 4px; font-weight: 600; }
svg.stack { width: 100%; height: 20px; display: block; background: var(--vscode-editorWidget-background, #252526); border: 1px solid var(--vscode-widget-border, #454545); }
.slice.kernel { fill: var(--vscode-charts-green, #89d185); }
.slice.tensor_core_math { fill: var(--vscode-charts-green, #89d185); }
.slice.cuda_core_math { fill: var(--vscode-charts-yellow, #cca700); }
.slice.memory_bound, .slice.other_kernels { fill: var(--vscode-charts-purple, #b180d7); }
.slice.communication { fill: var(--vscode-charts-red, #f14c4c); }
.slice.copy { fill: var(--vscode-charts-blue, #3794ff); }
.slice.copy_dtoh, .slice.copy_uvm_dtoh { fill: var(--vscode-charts-orange, #d18616); }
.slice.copy_dtod, .slice.copy_ptop, .slice.copy_other, .slice.memset { fill-opacity: 0.55; }
.slice.idle { fill: var(--vscode-descriptionForeground, #9d9d9d); fill-opacity: 0.35; }
.slice.idle_no_cuda { fill-opacity: 0.2; }
.slice:hover { fill-opacity: 1; stroke: var(--vscode-focusBorder, #007fd4); }
ul.legend { list-style: none; padding: 0; margin: 4px 0 0; display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 0.9em; }
svg.swatch { width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
.bar { fill: var(--vscode-charts-blue, #3794ff); }
.bar.low { fill: var(--vscode-charts-orange, #d18616); }
.bar:hover { fill: var(--vscode-charts-purple, #b180d7); }
.grid { stroke: var(--vscode-descriptionForeground, #9d9d9d); stroke-opacity: 0.35; stroke-width: 0.6; vector-effect: non-scaling-stroke; stroke-dasharray: 3 3; }
.xaxis { display: block; width: 100%; height: 16px; font-size: 11px; fill: var(--vscode-descriptionForeground, #9d9d9d); overflow: visible; }
table.rows { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.rows th { text-align: left; font-weight: 600; color: var(--vscode-descriptionForeground, #9d9d9d); font-size: 0.85em; padding: 4px 8px; }
table.rows td { padding: 3px 8px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
table.rows tr.row:hover, table.rows tr.row:focus { background: var(--vscode-list-hoverBackground, #2a2d2e); }
table.rows tr.row:focus { outline: 1px solid var(--vscode-focusBorder, #007fd4); outline-offset: -1px; }
.barcell { width: 24%; }
.barwrap { display: flex; align-items: center; gap: 8px; }
.barwrap span { width: 44px; flex: none; text-align: right; font-variant-numeric: tabular-nums; }
.hbar { flex: 1; height: 12px; }
.hbar rect { fill: var(--vscode-charts-blue, #3794ff); opacity: 0.85; }
th.num, td.num { text-align: right; width: 9%; font-variant-numeric: tabular-nums; }
td.name code { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.95em; }
.notes { margin-top: 6px; color: var(--vscode-descriptionForeground, #9d9d9d); font-size: 0.9em; }
.notes summary { cursor: pointer; }
.error { color: var(--vscode-errorForeground, #f48771); }
ol.findings { list-style: none; padding: 0; margin: 0; }
p.headline { margin: 0 0 0.6em; }
.finding { border-left: 3px solid var(--vscode-charts-blue, #3794ff); background: var(--vscode-editorWidget-background, #252526); margin-bottom: 6px; padding: 6px 10px; }
.finding.high { border-left-color: var(--vscode-charts-red, #f14c4c); }
.finding.medium { border-left-color: var(--vscode-charts-yellow, #cca700); }
.finding summary { cursor: pointer; }
.sev { display: inline-block; min-width: 54px; text-align: center; font-size: 0.8em; border-radius: 8px; padding: 0 6px; margin-right: 6px;
  background: var(--vscode-badge-background, #4d4d4d); color: var(--vscode-badge-foreground, #fff); text-transform: uppercase; }
.stake { float: right; color: var(--vscode-descriptionForeground, #9d9d9d); }
.markdown code, #hover code { font-family: var(--vscode-editor-font-family, monospace); }
.markdown pre, #hover pre { background: var(--vscode-textCodeBlock-background, #0a0a0a66); padding: 6px; overflow-x: auto; }
a { color: var(--vscode-textLink-foreground, #3794ff); }
.kernel-sources h4 { margin: 8px 0 2px; font-size: 0.95em; }
.kernel-sources ul { margin: 0; padding-left: 18px; }
#hover { position: absolute; z-index: 10; max-width: min(640px, 90vw); max-height: 50vh; overflow: auto; padding: 4px 10px;
  background: var(--vscode-editorHoverWidget-background, #252526); color: var(--vscode-editorHoverWidget-foreground, #ccc);
  border: 1px solid var(--vscode-editorHoverWidget-border, #454545); box-shadow: 0 2px 8px var(--vscode-widget-shadow, #0000005c); }
`;

// The view's behaviour: toolbar buttons and Alt+key post commands; arrow keys move between rows of a table; hovering
// or focusing a kernel asks the extension for its explanation (shown in a hover box; Escape hides it). The
// extension answers with HTML it rendered from the server's Markdown, or says the server cannot explain kernels.
const SCRIPT = `
(function () {
  const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage: function () {} };
  const hover = document.getElementById('hover');
  const cache = new Map();
  let explain = true, current = null, timer = 0;
  // Source links (a kernel's sources, file: links in the server's Markdown): the extension opens them in an editor.
  document.addEventListener('click', function (e) {
    const a = e.target.closest && e.target.closest('a[data-uri]');
    if (!a) return;
    e.preventDefault();
    vscode.postMessage({ type: 'openSource', uri: a.dataset.uri, line: Number(a.dataset.line || -1), character: Number(a.dataset.character || 0) });
  });
  document.querySelectorAll('button[data-command]').forEach(function (b) {
    b.addEventListener('click', function () { vscode.postMessage({ type: 'command', command: b.dataset.command }); });
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { hide(); return; }
    if (e.altKey) {
      const b = document.querySelector('button[aria-keyshortcuts="Alt+' + e.key.toUpperCase() + '"]');
      if (b) { e.preventDefault(); b.click(); return; }
    }
    const row = e.target.closest && e.target.closest('tr.row');
    if (!row) return;
    let next = null;
    if (e.key === 'ArrowDown') next = row.nextElementSibling;
    if (e.key === 'ArrowUp') next = row.previousElementSibling;
    if (e.key === 'Home') next = row.parentElement.firstElementChild;
    if (e.key === 'End') next = row.parentElement.lastElementChild;
    if (next) { e.preventDefault(); next.focus(); }
    if (e.key === 'Enter' && row.dataset.kernel) { e.preventDefault(); show(row); }
  });
  function hide() { hover.hidden = true; current = null; clearTimeout(timer); }
  function place(row) {
    const r = row.getBoundingClientRect();
    hover.style.left = (window.scrollX + r.left + 40) + 'px';
    hover.style.top = (window.scrollY + r.bottom + 2) + 'px';
  }
  function show(row) {
    if (!explain) return;
    const kernel = row.dataset.kernel;
    current = row;
    if (cache.has(kernel)) { hover.innerHTML = cache.get(kernel); place(row); hover.hidden = false; return; }
    hover.textContent = 'Explaining ' + kernel.slice(0, 80) + '…';
    place(row); hover.hidden = false;
    vscode.postMessage({ type: 'explainKernel', kernel: kernel });
  }
  function later(row) { clearTimeout(timer); timer = setTimeout(function () { show(row); }, 350); }
  // Delegated, so the kernel rows of a table that arrives later (a 'section' message) explain themselves too.
  const kernelRow = function (node) { return node && node.closest ? node.closest('tr.kernel') : null; };
  document.addEventListener('mouseover', function (e) {
    const row = kernelRow(e.target);
    if (row && kernelRow(e.relatedTarget) !== row) later(row);
  });
  document.addEventListener('mouseout', function (e) {
    const row = kernelRow(e.target);
    if (row && kernelRow(e.relatedTarget) !== row && !hover.contains(e.relatedTarget)) hide();
  });
  document.addEventListener('focusin', function (e) { const row = kernelRow(e.target); if (row) later(row); });
  document.addEventListener('focusout', function (e) { const row = kernelRow(e.target); if (row && current === row) hide(); });
  function plainTitles() { document.querySelectorAll('tr.kernel').forEach(function (row) { row.title = row.dataset.kernel; }); }
  hover.addEventListener('mouseleave', hide);
  window.addEventListener('message', function (event) {
    const m = event.data || {};
    if (m.type === 'kernelExplanation') {
      if (m.unsupported) {
        // No explanations from this server: the full name as a plain tooltip instead.
        explain = false; hide(); plainTitles();
        return;
      }
      cache.set(m.kernel, m.html);
      if (current && current.dataset.kernel === m.kernel) { hover.innerHTML = m.html; place(current); hover.hidden = false; }
    } else if (m.type === 'section') {
      // A table whose answer came after the page was set: painted in place (the page is set once per open).
      const body = document.getElementById(m.id + '-body');
      if (body) { if (current && body.contains(current)) hide(); body.innerHTML = m.html; }
      if (!explain) plainTitles();
    } else if (m.type === 'coverage') {
      const card = document.getElementById('coverage');
      if (card) card.innerHTML = m.html;
    } else if (m.type === 'findings') {
      const body = document.getElementById('findings-body');
      if (m.hidden) { const s = document.getElementById('findings'); if (s) s.remove(); }
      else if (body) body.innerHTML = m.html;
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
`;
