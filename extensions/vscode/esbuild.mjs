// Bundles the extension into one file (dist/extension.js); `vscode` is provided by the editor at run time.
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  sourcemap: true,
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
});
console.log('esbuild: dist/extension.js');
