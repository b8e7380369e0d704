// Markdown from the server (answers, findings, kernel explanations) to HTML for the webview. Raw HTML in the text is
// escaped, and markdown-it refuses javascript:/vbscript:/data: links, so a server or LLM reply cannot run script.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

export function renderMarkdown(text: string): string {
  return md.render(text ?? '');
}
