// The solution pages in a real browser (issue 18): the built cubenum
// writes each kind of page, headless Chromium (Debian's, driven by
// playwright-core) opens it from disk, and the test waits for the frames the
// page draws, takes screenshots (kept as artefacts in build/screenshots/)
// and asserts on the picture: the colours of what faces the camera are in
// it, the background does not fill it, the page logged no error, asked for
// nothing but its own file, and (for the sequences) its geometry plays every
// move into the state cubenum computed. Run by tools/test:
//   node --test web/test/
// CUBENUM (the program; default build/cubenum), CHROMIUM (default
// /usr/bin/chromium) and CUBENUM_SCREENSHOTS (default build/screenshots)
// change where things are. No Chromium is a failure, never a skip.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cubenum = resolve(process.env.CUBENUM ?? join(root, 'build', 'cubenum'));
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const shots = resolve(process.env.CUBENUM_SCREENSHOTS ?? join(root, 'build', 'screenshots'));
const background = [0x2a, 0x31, 0x40]; // web/viewer.js

// Headless Chromium as root in a closed network: no sandbox, no GPU (WebGL
// through SwiftShader), nothing fetched in the background, a fresh profile
// (playwright gives each launch its own).
const flags = ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync'];

let browser, scratch;
before(async () => {
  assert.ok(existsSync(cubenum), `no cubenum at ${cubenum}: build it first (tools/build cubenum)`);
  assert.ok(existsSync(browserPath),
    `no Chromium at ${browserPath}: tools/setup installs Debian's chromium package`);
  mkdirSync(shots, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'cubenum-pages-'));
  browser = await chromium.launch({ executablePath: browserPath, headless: true, args: flags });
});
after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const hex = (colour) => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));

// A pixel shows `colour` lit by the page's lights: a multiple k of it
// (faces turned from the light are darker, faces towards it a little
// lighter) within a tolerance; black is any dark pixel that is not the
// background.
function shows(p, c) {
  if (Math.max(...c) < 48) return Math.max(...p) < 56;
  const k = (p[0] * c[0] + p[1] * c[1] + p[2] * c[2]) / (c[0] ** 2 + c[1] ** 2 + c[2] ** 2);
  if (k < 0.5 || k > 1.3) return false;
  return p.every((v, i) => Math.abs(v - Math.min(255, k * c[i])) <= 30);
}

function picture(file) {
  const png = PNG.sync.read(readFileSync(file));
  const pixels = [];
  for (let i = 0; i < png.data.length; i += 4) pixels.push([png.data[i], png.data[i + 1], png.data[i + 2]]);
  return { width: png.width, height: png.height, pixels };
}

// Writes the page with cubenum, opens it, lets `prepare` act on it, and
// returns what the assertions need.
async function open(name, args, prepare) {
  const html = join(scratch, `${name}.html`);
  const text = execFileSync(cubenum, [...args, '--html', html], { cwd: root, encoding: 'utf8' });
  const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
  const errors = [], requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  try {
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction(() => window.cubenum && window.cubenum.frames > 2, null, { timeout: 60000 });
    const data = await page.evaluate(() => window.cubenum.data);
    const state = prepare ? await prepare(page, data) : undefined;
    await page.waitForTimeout(400); // the orbit controls' damping settles
    const frames = await page.evaluate(() => window.cubenum.frames);
    await page.screenshot({ path: join(shots, `${name}.png`) });
    // The drawing alone, without the panel over it, for the assertions.
    await page.addStyleTag({ content: '#panel, #help { display: none !important; }' });
    await page.waitForTimeout(100);
    await page.screenshot({ path: join(shots, `${name}-view.png`) });
    const check = await page.evaluate(() => (window.cubenum.check ? window.cubenum.check() : []));
    const camera = await page.evaluate(() => window.cubenum.camera);
    return { text, data, state, frames, errors, requests, check, camera, view: picture(join(shots, `${name}-view.png`)) };
  } finally {
    await page.close();
  }
}

function assertDrawn(r, colours) {
  assert.ok(r.frames > 2, 'the page drew frames');
  assert.deepEqual(r.errors, [], 'no error on the console');
  for (const url of r.requests) assert.match(url, /^(file|data|blob):/, `the page asked for ${url}`);
  assert.deepEqual(r.check, [], 'the page plays every move into cubenum\'s states');
  const total = r.view.pixels.length;
  const backdrop = r.view.pixels.filter((p) => p.every((v, i) => Math.abs(v - background[i]) <= 4)).length;
  assert.ok(backdrop < 0.9 * total, `the background fills ${((100 * backdrop) / total).toFixed(1)}% of the picture`);
  assert.ok(backdrop > 0.1 * total, 'the background shows around the drawing');
  assert.ok(colours.length > 0, 'some colour to look for');
  for (const colour of new Set(colours)) {
    const c = hex(colour);
    const n = r.view.pixels.reduce((sum, p) => sum + (shows(p, c) ? 1 : 0), 0);
    assert.ok(n >= 150, `colour ${colour} shows in ${n} pixels (at least 150 wanted)`);
  }
}

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

// The colours of an assembly's pieces that face the camera: foam plates
// whose outward normal turns to it, polycube pieces with a cube on the
// sides of the bounding box it sees.
function facingColours(assembly, camera) {
  const all = assembly.pieces.flatMap((p) => p.cells);
  const high = [0, 1, 2].map((i) => Math.max(...all.map((c) => c[i])));
  return assembly.pieces
    .filter((p) => (p.face !== undefined
      ? dot(p.explode, camera) > 0.3 * Math.hypot(...p.explode) * Math.hypot(...camera)
      : p.cells.some((c) => c.some((v, i) => v === high[i] && camera[i] > 0))))
    .map((p) => p.colour);
}

// Plays a few moves (any error in the animation shows on the console).
async function play(page) {
  await page.getByRole('button', { name: /play/ }).click();
  await page.waitForTimeout(1300);
  assert.ok(await page.evaluate(() => window.cubenum.at() > 0), 'playing moves on');
}

async function explode(page, percent) {
  await page.locator('input[type=range]').fill(String(percent));
}

test('foam cube: one piece per colour of the Original set, exploded', async () => {
  const r = await open('foam-cube', ['foam', 'solve', '--challenge', 'one-per-colour',
    'data/foam/happy-cube-original.txt', '--list', '25'], async (page) => {
    // Step through the list: on to the second assembly and back.
    const select = page.locator('select');
    await page.getByTitle('next').click();
    assert.equal(await select.inputValue(), '1');
    await page.getByTitle('previous').click();
    assert.equal(await select.inputValue(), '0');
    await explode(page, 35);
  });
  assert.equal(r.data.assemblies.length, 25);
  assert.match(r.text, /25 up to symmetries/);
  const colours = facingColours(r.data.assemblies[0], r.camera);
  assert.equal(colours.length, 3, 'three plates face the camera');
  assertDrawn(r, colours);
});

test('foam shape: a 2x1x1 cuboid from the Original set', async () => {
  const r = await open('foam-shape', ['foam', 'solve', '--shape', 'cuboid:2x1x1',
    'data/foam/happy-cube-original.txt', '--first', '3']);
  assert.equal(r.data.assemblies.length, 3);
  assert.equal(r.data.assemblies[0].pieces.length, 10);
  assertDrawn(r, facingColours(r.data.assemblies[0], r.camera));
});

test('pocket cube: a scramble and its optimal solution, played', async () => {
  const r = await open('pocket-cube', ['pocket-cube', 'solve', '--scramble', "R U2 F' D L B2"], async (page) => {
    await play(page);
    await page.evaluate(() => window.cubenum.go(2));
    return 2;
  });
  assert.match(r.text, new RegExp(`^${r.data.moves} \\(`));
  // The stickers of the faces the camera sees, in the state shown.
  const digits = r.data.states[r.state];
  const colours = r.data.facelets
    .map((f, i) => (dot(f.normal, r.camera) > 0 ? r.data.colours[Number(digits[i])] : null))
    .filter(Boolean);
  assertDrawn(r, colours);
});

test('rolling cubes: the 3x3 grid halfway through its shortest solution', async () => {
  const r = await open('rolling-cubes', ['rolling-cubes', 'solve'], async (page, data) => {
    const k = Math.floor(data.steps.length / 2);
    await play(page);
    await page.evaluate((at) => window.cubenum.go(at), k);
    return k;
  });
  assert.equal(r.data.steps.length, 36);
  assert.match(r.text, new RegExp(`36 moves: ${r.data.moves}`));
  const state = r.data.states[r.state];
  const colours = ['#a3a9b1']; // the grey sides (web/viewer.js)
  if (state.includes(0)) colours.push('#18181b'); // black up
  if (state.includes(1)) colours.push('#e8362e'); // colour up
  assert.ok(colours.length === 3, 'black and coloured faces up halfway');
  assertDrawn(r, colours);
});

test('polycube: the Soma cube\'s first assemblies', async () => {
  const r = await open('polycube', ['polycube', 'solve', 'data/polycubes/soma.txt', '--first', '3']);
  assert.equal(r.data.assemblies.length, 3);
  assert.equal(r.data.assemblies[0].pieces.length, 7);
  assertDrawn(r, facingColours(r.data.assemblies[0], r.camera));
});
