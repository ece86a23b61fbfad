// Bundles the parts of three.js the pages use (three-entry.js) into one
// minified plain script, vendor/three.min.js, with esbuild (both locked in
// package-lock.json). `node build-vendor.mjs OUT` writes OUT instead: the
// test web/test/vendor.test.mjs builds into a scratch file and compares it
// with the committed one, so the committed file is what the locked
// packages make.
import * as esbuild from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, 'vendor', 'three.min.js');
await esbuild.build({
  entryPoints: [join(here, 'three-entry.js')],
  bundle: true,
  minify: true,
  format: 'iife',
  globalName: 'THREE',
  target: 'es2020',
  legalComments: 'eof',
  outfile: out,
  logLevel: 'warning',
});
