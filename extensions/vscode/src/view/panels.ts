// HTML of the two secondary panels: a skill's result as a table, and an answer streamed from nsys/ask.
import type { SkillResult } from '../protocol/types';
import { escapeHtml as esc } from './format';

function page(title: string, nonce: string, body: string, script = ''): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'">
<title>${esc(title)}</title><style nonce="${nonce}">
body { font-family: var(--vscode-font-family, sans-serif); color: var(--vscode-foreground, #ccc); background: var(--vscode-editor-background, #1e1e1e); padding: 12px 20px; }
h1 { font-size: 1.3em; } .muted { color: var(--vscode-descriptionForeground, #999); }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 10px; border-bottom: 1px solid var(--vscode-panel-border, #80808059); white-space: nowrap; }
th { text-align: left; position: sticky; top: 0; background: var(--vscode-editor-background, #1e1e1e); }
td.n { text-align: right; } tr:focus, tr:hover { background: var(--vscode-list-hoverBackground, #2a2d2e); }
:focus-visible { outline: 1px solid var(--vscode-focusBorder, #007fd4); }
code, pre { font-family: var(--vscode-editor-font-family, monospace); }
pre { background: var(--vscode-textCodeBlock-background, #0a0a0a66); padding: 6px; overflow-x: auto; }
a { color: var(--vscode-textLink-foreground, #3794ff); }
</style></head><body>${body}${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
}

export function renderSkillTableHtml(title: string, result: SkillResult, nonce: string): string {
  const head = result.columns
    .map((c) => `<th title="${esc(c.description ?? '')}" scope="col">${esc(c.name)}</th>`)
    .join('');
  const numeric = result.columns.map((c) => c.type === 'int' || c.type === 'double');
  const rows = result.rows
    .map(
      (r) =>
        `<tr tabindex="0">${r.map((cell, i) => `<td${numeric[i] ? ' class="n"' : ''}>${esc(cell === null ? '' : String(cell))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const notes = result.notes.map((n) => `<li>${esc(n)}</li>`).join('');
  const body = result.declined
    ? `<p>${esc(result.notes.join(' '))}</p>`
    : `<p class="muted">${result.rows.length} rows</p><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  return page(title, nonce, `<h1>${esc(title)}</h1>${body}${notes && !result.declined ? `<ul class="muted">${notes}</ul>` : ''}`);
}

export function renderAskHtml(question: string, nonce: string): string {
  const script = `window.addEventListener('message', function (e) {
  const m = e.data || {}; const a = document.getElementById('answer');
  if (m.type === 'answer') { a.innerHTML = m.html; a.setAttribute('aria-busy', m.done ? 'false' : 'true'); }
});`;
  return page(
    question,
    nonce,
    `<h1>${esc(question)}</h1><div id="answer" aria-live="polite" aria-busy="true"><p class="muted">Asking…</p></div>`,
    script,
  );
}
