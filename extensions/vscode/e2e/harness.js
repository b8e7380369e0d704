// The real VS Code of scripts/test-vscode-real: code-server (VS Code 1.103 for the web) with the packaged nsys-ai.vsix
// installed, a workspace folder made for the run, and Debian's chromium driven by playwright-core. Everything lives in
// one temporary folder (code-server's user data, extensions, HOME, the workspace), removed at the end unless a journey
// failed (its screenshots are there). Plain CommonJS: the installed tree is found through NODE_PATH (the cache).
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const env = (name, fallback) => process.env[name] || fallback;
const ROOT = path.resolve(__dirname, '..', '..', '..');
const config = {
  codeServer: env('NSYS_AI_CODE_SERVER', 'code-server'),
  server: env('NSYS_AI_BIN', path.join(ROOT, 'build', 'nsys-ai')),
  fixtures: env('NSYS_AI_FIXTURES_DIR', path.join(ROOT, '..', 'shared', 'fixtures')),
  tools: env('NSYS_AI_SHARED_TOOLS', path.join(ROOT, '..', 'shared', 'tools')),
  vsix: env('NSYS_AI_VSIX', path.join(ROOT, 'extensions', 'vscode', 'nsys-ai.vsix')),
  chromium: env('NSYS_AI_CHROMIUM', '/usr/bin/chromium'),
};

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function until(cond, what, ms = 30000, every = 100) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** A code-server with the vsix installed over a fresh workspace; `files` are linked into the workspace folder. */
class RealVsCode {
  constructor({ serverPath = config.server } = {}) {
    this.serverPath = serverPath;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nsys-ai-vscode-real-'));
    this.home = path.join(this.dir, 'home');
    this.userData = path.join(this.dir, 'user-data');
    this.extensions = path.join(this.dir, 'extensions');
    this.workspace = path.join(this.dir, 'workspace');
    this.shots = path.join(this.dir, 'screenshots');
    for (const d of [this.home, path.join(this.userData, 'User'), this.extensions, this.workspace, this.shots]) {
      fs.mkdirSync(d, { recursive: true });
    }
    this.failed = false;
  }

  settings(values) {
    const file = path.join(this.userData, 'User', 'settings.json');
    const old = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    const next = { ...old, ...values };
    for (const [k, v] of Object.entries(values)) if (v === undefined) delete next[k];
    fs.writeFileSync(file, JSON.stringify(next, null, 2));
  }

  /** The settings VS Code wrote: the user's (User) or the remote machine's (Machine). */
  readSettings(scope = 'User') {
    const file = path.join(this.userData, scope, 'settings.json');
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  }

  childEnv() {
    // The extension host's PATH: the system's, without the folder of the server binary (journey 10 needs it missing).
    return { ...process.env, HOME: this.home, PATH: '/usr/local/bin:/usr/bin:/bin', XDG_CONFIG_HOME: path.join(this.home, '.config') };
  }

  async start() {
    const t0 = Date.now();
    execFileSync(config.codeServer, ['--extensions-dir', this.extensions, '--user-data-dir', this.userData,
      '--install-extension', config.vsix], { env: this.childEnv(), stdio: 'pipe' });
    this.installMs = Date.now() - t0;
    this.settings({
      'nsysAi.serverPath': this.serverPath ?? undefined,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'security.workspace.trust.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'update.mode': 'none',
      'git.enabled': false,
      'remote.autoForwardPorts': false,
      'window.restoreWindows': 'none',
      'files.hotExit': 'off',
      'editor.codeLens': true,
      'chat.disableAIFeatures': true,
      'workbench.colorTheme': 'Default Dark Modern',
      'workbench.editorAssociations': { '*.sqlite': 'nsysAi.profile' },
    });
    fs.writeFileSync(path.join(this.dir, 'config.yaml'), 'auth: none\ncert: false\n');
    this.port = await freePort();
    this.url = `http://127.0.0.1:${this.port}`;
    this.log = fs.openSync(path.join(this.dir, 'code-server.log'), 'w');
    this.proc = spawn(config.codeServer, [
      '--config', path.join(this.dir, 'config.yaml'), '--auth', 'none', '--bind-addr', `127.0.0.1:${this.port}`,
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
      '--user-data-dir', this.userData, '--extensions-dir', this.extensions, this.workspace,
    ], { env: this.childEnv(), stdio: ['ignore', this.log, this.log], detached: true });
    await until(async () => {
      try {
        return (await fetch(`${this.url}/healthz`)).ok;
      } catch {
        return false;
      }
    }, 'code-server to listen', 30000);
    this.browser = await chromium.launch({
      executablePath: config.chromium,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    this.context = await this.browser.newContext({ viewport: { width: 1440, height: 900 } });
    this.page = await this.context.newPage();
    await this.page.goto(`${this.url}/?folder=${encodeURIComponent(this.workspace)}`);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
    // The explorer shows the workspace's files once the workbench is up.
    await this.page.locator('.explorer-folders-view').waitFor({ timeout: 60000 });
    // The extension (onStartupFinished) is active: before the remote extension host has read its manifest, the
    // workbench knows no nsys-ai editor, and a double-click opens the binary file in the text editor.
    await until(() => this.extensionHostLog().includes('_doActivateExtension nsys-ai.nsys-ai'), 'the extension to activate', 60000, 200);
  }

  /** The remote extension host's log (code-server writes it under the user data's logs/). */
  extensionHostLog() {
    const logs = path.join(this.userData, 'logs');
    if (!fs.existsSync(logs)) return '';
    return fs.readdirSync(logs)
      .map((d) => path.join(logs, d, 'exthost1', 'remoteexthost.log'))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
  }

  /** Links `file` into the workspace (as `name`). */
  link(file, name = path.basename(file)) {
    const to = path.join(this.workspace, name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.symlinkSync(file, to);
    return to;
  }

  async screenshot(name) {
    const file = path.join(this.shots, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  async stop() {
    await this.browser?.close().catch(() => undefined);
    if (this.proc && this.proc.exitCode === null) {
      try {
        process.kill(-this.proc.pid, 'SIGTERM');
      } catch {}
      await until(() => this.proc.exitCode !== null || this.proc.signalCode !== null, 'code-server to stop', 10000).catch(() => {
        try {
          process.kill(-this.proc.pid, 'SIGKILL');
        } catch {}
      });
    }
    if (this.log) fs.closeSync(this.log);
    if (!this.failed && !process.env.NSYS_AI_KEEP) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  // --- the workbench, as a person uses it ---

  /** Runs a command from the command palette by its title as shown there (e.g. "nsys-ai: Analyze"). */
  async command(title) {
    const page = this.page;
    // Through the title bar's command center: a key press would go to a webview when one has the focus.
    await page.keyboard.press('Escape'); // a menu or picker left open
    const input = this.quickInput();
    await until(async () => {
      if (await input.isVisible()) return true;
      await page.locator('.command-center .command-center-center').click();
      return input.isVisible();
    }, 'the command palette', 15000, 300);
    await input.fill(`>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor();
    await input.press('Enter');
  }

  quickInput() {
    return this.page.locator('.quick-input-widget input.input');
  }

  /** Clicks `item` of the context menu of the explorer's `name`. */
  async contextMenu(name, item) {
    await this.explorerItem(name).click({ button: 'right' });
    const entry = this.page.getByRole('menuitem', { name: item }).first();
    await entry.waitFor();
    // A menu ignores a click that comes right as it opens; a person's comes later. Enter if it was ignored anyway.
    await this.page.waitForTimeout(300);
    await entry.click();
    await this.page.waitForTimeout(200);
    if (await entry.isVisible().catch(() => false)) await this.page.keyboard.press('Enter');
  }

  /** The explorer's row of a workspace file or folder. */
  explorerItem(name) {
    return this.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"], .explorer-folders-view .monaco-list-row:has(.label-name:text-is("${name}"))`).first();
  }

  /** The content frame of the webview on screen (VS Code nests it: iframe.webview > iframe#active-frame). */
  webview({ last = false } = {}) {
    const outer = this.page.frameLocator('iframe.webview.ready >> visible=true');
    return (last ? outer.last() : outer.first()).frameLocator('iframe#active-frame');
  }

  /** The visible webview whose page shows `text` (several are on screen when a panel opens beside the view). */
  async webviewShowing(text, ms = 60000) {
    const outer = this.page.frameLocator('iframe.webview.ready >> visible=true');
    const frames = this.page.locator('iframe.webview.ready >> visible=true');
    return until(async () => {
      for (let i = 0; i < (await frames.count()); i++) {
        const inner = outer.nth(i).frameLocator('iframe#active-frame');
        const body = await inner.locator('body').innerText({ timeout: 1000 }).catch(() => '');
        if (body.includes(text)) return inner;
      }
      return undefined;
    }, `a webview showing "${text}"`, ms, 250);
  }

  notifications() {
    return this.page.locator('.notification-toast, .notifications-center .notification-list-item');
  }
}

module.exports = { RealVsCode, config, until, freePort };
