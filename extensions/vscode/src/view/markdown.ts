// Markdown from the server (answers, findings, kernel explanations) to HTML for the webview. Raw HTML in the text is
// escaped, and markdown-it refuses javascript:/vbscript:/data: links, so a server or LLM reply cannot run script.
// `file:` links (a kernel's source locations) become `data-uri` anchors: the view's script posts them to
// the extension, which opens the file in an editor (a webview cannot open file: URLs itself).
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });
const validate = md.validateLink.bind(md);
md.validateLink = (url: string) => /^file:\/\//i.test(url) || validate(url);
const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const href = token.attrGet('href') ?? '';
  if (/^file:\/\//i.test(href)) {
    token.attrSet('href', '#');
    token.attrSet('data-uri', href);
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(text: string): string {
  return md.render(text ?? '');
}

/**
 * A `file:` link's target as a uri and a 0-based position: `file:///a/b.py#L12` or `#L12,5` / `#L12:5` (1-based
 * line and column, as editors write them); without a fragment, the file's start.
 */
export function parseFileLink(href: string): { uri: string; line: number; character: number } | undefined {
  const m = /^(file:\/\/[^#]*)(?:#L?(\d+)(?:[,:](\d+))?)?$/i.exec(href.trim());
  if (!m) return undefined;
  return { uri: m[1], line: m[2] ? Math.max(Number(m[2]) - 1, 0) : 0, character: m[3] ? Math.max(Number(m[3]) - 1, 0) : 0 };
}
