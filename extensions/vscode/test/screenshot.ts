// Renders the profile view's HTML with real data (the real server on the H100 fixture) and photographs it with
// headless Chromium (Debian's `chromium`), without VS Code around it. `npm run screenshot [OUT.png]` writes it (to the
// temp folder by default); the test (screenshot.test.ts) takes one into a temp folder and checks it. The READMEs'
// picture is the real VS Code's: scripts/test-vscode-real --screenshots.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { renderProfileHtml } from '../src/view/html';
import { loadProfileView } from '../src/view/model';
import { h100, startServer } from './realServer';

/** VS Code's "Dark Modern" theme colours, as the editor sets them on a webview's root element. */
export const DARK_MODERN = `:root {
  --vscode-font-family: "DejaVu Sans", system-ui, sans-serif; --vscode-font-size: 13px;
  --vscode-editor-font-family: "DejaVu Sans Mono", monospace;
  --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f; --vscode-descriptionForeground: #9d9d9d;
  --vscode-editorWidget-background: #202020; --vscode-widget-border: #313131; --vscode-panel-border: #2b2b2b;
  --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff; --vscode-button-hoverBackground: #026ec1;
  --vscode-button-secondaryBackground: #313131; --vscode-button-secondaryForeground: #cccccc;
  --vscode-button-border: #ffffff12; --vscode-focusBorder: #0078d4; --vscode-list-hoverBackground: #2a2d2e;
  --vscode-charts-blue: #3794ff; --vscode-charts-orange: #d18616; --vscode-charts-red: #f14c4c;
  --vscode-charts-yellow: #cca700; --vscode-charts-purple: #b180d7; --vscode-badge-background: #616161;
  --vscode-badge-foreground: #f8f8f8; --vscode-textLink-foreground: #4daafc; --vscode-errorForeground: #f85149;
}`;

export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      const candidate = path.join(dir, name);
      if (dir && fs.existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
];

export async function profileViewHtml(nonce = 'screenshot'): Promise<string> {
  const server = await startServer();
  try {
    const opened = await server.client.openProfile(h100);
    // Findings come only from a server with nsys/analyze: loadProfileView asks, and hides the section without it.
    const model = await loadProfileView(server.client, opened);
    return renderProfileHtml(model, { nonce, themeCss: DARK_MODERN });
  } finally {
    await server.stop();
  }
}

export async function takeScreenshot(pngPath: string, width = 1280, height = 1240): Promise<string> {
  const chromium = findChromium();
  if (!chromium) throw new Error('chromium is not installed (apt-get install chromium)');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-shot-'));
  try {
    const htmlPath = path.join(work, 'view.html');
    const html = await profileViewHtml();
    fs.writeFileSync(htmlPath, html);
    execFileSync(
      chromium,
      [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${path.join(work, 'profile')}`,
        `--window-size=${width},${height}`,
        `--screenshot=${path.resolve(pngPath)}`,
        `file://${htmlPath}`,
      ],
      { stdio: 'pipe', timeout: 120_000 },
    );
    return html;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const out = process.argv[2] ?? path.join(os.tmpdir(), 'nsys-ai-profile-webview.png');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  takeScreenshot(out).then(
    () => console.log(`wrote ${out}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
