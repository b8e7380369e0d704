// HTML of the two secondary panels: a skill's result as a table, and an answer streamed from nsys/ask.
import type { SkillResult } from '../protocol/types';
import { escapeHtml as esc } from './format';

/** A panel page: the theme's colours, a CSP that admits only the nonce'd style and script. */
export function page(title: string, nonce: string, body: string, script = '', style = ''): string {
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
article h2 { font-size: 1.05em; margin: 18px 0 6px; } form { margin-top: 18px; } .row { display: flex; gap: 6px; margin-top: 4px; }
input { flex: 1; font: inherit; color: var(--vscode-input-foreground, #ccc); background: var(--vscode-input-background, #313131);
  border: 1px solid var(--vscode-input-border, #3c3c3c); padding: 4px 6px; }
button { font: inherit; color: var(--vscode-button-foreground, #fff); background: var(--vscode-button-background, #0e639c); border: none; padding: 4px 12px; }
${style}</style></head><body>${body}${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
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

/** The Ask panel: the questions and answers of one conversation, and a box for the next question. */
export function renderAskHtml(title: string, nonce: string): string {
  const script = `(function () {
  const vscode = acquireVsCodeApi();
  const log = document.getElementById('log'), form = document.getElementById('ask'), box = document.getElementById('q');
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    const q = box.value.trim();
    if (q) { vscode.postMessage({ type: 'ask', question: q }); box.value = ''; }
  });
  window.addEventListener('message', function (e) {
    const m = e.data || {};
    if (m.type === 'question') {
      const block = document.createElement('article');
      const h = document.createElement('h2'); h.textContent = m.question; block.appendChild(h);
      const a = document.createElement('div'); a.id = 'a-' + m.id; a.className = 'answer';
      a.setAttribute('aria-live', 'polite'); a.setAttribute('aria-busy', 'true'); a.innerHTML = '<p class="muted">Asking…</p>';
      block.appendChild(a); log.appendChild(block); box.disabled = true;
    } else if (m.type === 'answer') {
      const a = document.getElementById('a-' + m.id);
      if (a) { a.innerHTML = m.html; a.setAttribute('aria-busy', m.done ? 'false' : 'true'); }
      if (m.done) { box.disabled = false; box.focus(); }
    }
  });
})();`;
  const body = `<h1>${esc(title)}</h1><div id="log"></div>
<form id="ask"><label for="q" class="muted">Follow-up question</label>
<div class="row"><input id="q" type="text" autocomplete="off" placeholder="and on device 1?"><button type="submit">Ask</button></div></form>`;
  return page(title, nonce, body, script);
}

/**
 * A kernel's explanation (nsys/explainKernel's Markdown rendered, its kernel sources below) in a panel; source links
 * (data-uri) are posted to the extension, which opens them in an editor.
 */
export function renderKernelHtml(title: string, bodyHtml: string, nonce: string): string {
  const script = `(function () {
  const vscode = acquireVsCodeApi();
  document.addEventListener('click', function (e) {
    const a = e.target.closest && e.target.closest('a[data-uri]');
    if (!a) return;
    e.preventDefault();
    vscode.postMessage({ type: 'openSource', uri: a.dataset.uri, line: Number(a.dataset.line || -1), character: Number(a.dataset.character || 0) });
  });
})();`;
  return page(title, nonce, `<article class="markdown">${bodyHtml}</article>`, script, '.kernel-sources h4 { margin: 12px 0 4px; }');
}
