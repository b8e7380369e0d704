// The profile view with real data, photographed by headless Chromium: a PNG of the requested size with content.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { skipReason } from './realServer';
import { findChromium, takeScreenshot } from './screenshot';

test(
  'the profile view renders in headless Chromium',
  { skip: skipReason ?? (findChromium() ? undefined : 'chromium is not installed'), timeout: 180_000 },
  async () => {
    const png = path.join(os.tmpdir(), `nsys-ai-view-${process.pid}.png`);
    try {
      const html = await takeScreenshot(png, 1000, 900);
      assert.match(html, /<h1>h100_2gpu_1s\.sqlite<\/h1>/);
      const bytes = fs.readFileSync(png);
      assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
      assert.equal(bytes.readUInt32BE(16), 1000, 'width');
      assert.equal(bytes.readUInt32BE(20), 900, 'height');
      assert.ok(bytes.length > 40_000, `a page with charts and tables, not a blank one (${bytes.length} bytes)`);
    } finally {
      fs.rmSync(png, { force: true });
    }
  },
);
