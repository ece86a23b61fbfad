// web/vendor/three.min.js is what the locked packages make: esbuild (as
// locked in package-lock.json) bundles three-entry.js from the locked three
// again, into a scratch file, and the two must be the same bytes. Run by
// tools/test (node --test web/test/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

test('web/vendor/three.min.js is the bundle of the locked three', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cubenum-vendor-'));
  try {
    const out = join(scratch, 'three.min.js');
    execFileSync(process.execPath, [join(web, 'build-vendor.mjs'), out], { stdio: 'inherit' });
    const built = readFileSync(out), committed = readFileSync(join(web, 'vendor', 'three.min.js'));
    assert.ok(built.equals(committed),
      'web/vendor/three.min.js differs from the bundle of the locked packages: run node web/build-vendor.mjs');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('the provenance names the locked versions', () => {
  const lock = JSON.parse(readFileSync(join(web, 'package-lock.json'), 'utf8'));
  const readme = readFileSync(join(web, 'vendor', 'README.md'), 'utf8');
  for (const name of ['three', 'esbuild']) {
    const version = lock.packages[`node_modules/${name}`].version;
    assert.ok(readme.includes(`${name} ${version}`), `web/vendor/README.md names ${name} ${version}`);
  }
});
