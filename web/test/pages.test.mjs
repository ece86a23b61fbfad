// The solution pages in a real browser (issue 18): the built cubenum
// writes each kind of page, headless Chromium (Debian's, driven by
// playwright-core) opens it from disk, and the test waits for the frames the
// page draws, takes screenshots (kept as artefacts in build/screenshots/)
// and asserts on the picture: the colours of what faces the camera are in
// it, the background does not fill it, touching pieces show a border, the
// page logged no error, asked for nothing but its own file, and (for the
// sequences) its geometry plays every move into the state cubenum computed;
// and on the panel and the face labels. Run by tools/test:
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
  return decoded(PNG.sync.read(readFileSync(file)));
}

function decoded(png) {
  const pixels = [];
  for (let i = 0; i < png.data.length; i += 4) pixels.push([png.data[i], png.data[i + 1], png.data[i + 2]]);
  return { width: png.width, height: png.height, pixels };
}

// The canvas alone (the page keeps its drawing buffer), as drawn now.
async function canvasPicture(page) {
  const url = await page.evaluate(() => document.querySelector('#view canvas').toDataURL('image/png'));
  return decoded(PNG.sync.read(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')));
}

const isBackground = (p) => p.every((v, i) => Math.abs(v - background[i]) <= 4);

// The area of the box around everything drawn, in pixels.
function drawnArea(pic) {
  let left = pic.width, right = -1, top = pic.height, bottom = -1;
  pic.pixels.forEach((p, k) => {
    if (isBackground(p)) return;
    const x = k % pic.width, y = Math.floor(k / pic.width);
    left = Math.min(left, x); right = Math.max(right, x);
    top = Math.min(top, y); bottom = Math.max(bottom, y);
  });
  return right < 0 ? 0 : (right - left + 1) * (bottom - top + 1);
}

// Writes the page with cubenum, opens it, lets `prepare` act on it, takes
// the screenshots, lets `inspect` look at the page as shot, and returns what
// the assertions need.
async function open(name, args, prepare, inspect) {
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
    await page.addStyleTag({ content: '#panel, #help, #labels { display: none !important; }' });
    await page.waitForTimeout(100);
    await page.screenshot({ path: join(shots, `${name}-view.png`) });
    const check = await page.evaluate(() => (window.cubenum.check ? window.cubenum.check() : []));
    const camera = await page.evaluate(() => window.cubenum.camera);
    const labels = await page.evaluate(() => window.cubenum.labels());
    const statuses = await page.locator('#panel .status').allTextContents();
    const legend = await page.locator('#panel .legend').allTextContents();
    const inspected = inspect ? await inspect(page, data, camera) : undefined;
    return { text, data, state, frames, errors, requests, check, camera, labels, statuses, legend, inspected,
      view: picture(join(shots, `${name}-view.png`)) };
  } finally {
    await page.close();
  }
}

// `most`: the share of the picture the background may fill at most.
function assertDrawn(r, colours, most = 0.9) {
  assert.ok(r.frames > 2, 'the page drew frames');
  assert.deepEqual(r.errors, [], 'no error on the console');
  for (const url of r.requests) assert.match(url, /^(file|data|blob):/, `the page asked for ${url}`);
  assert.deepEqual(r.check, [], 'the page plays every move into cubenum\'s states');
  const total = r.view.pixels.length;
  const backdrop = r.view.pixels.filter(isBackground).length;
  assert.ok(backdrop < most * total, `the background fills ${((100 * backdrop) / total).toFixed(1)}% of the picture`);
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

// Touching pieces on a side of the assembly's box that faces the camera:
// [piece, other piece, the centre of a unit face of each, side by side],
// for the pairs `wanted(piece, other)` takes.
function sideBySide(assembly, camera, wanted) {
  const all = assembly.pieces.flatMap((p) => p.cells);
  const low = [0, 1, 2].map((i) => Math.min(...all.map((c) => c[i])));
  const high = [0, 1, 2].map((i) => Math.max(...all.map((c) => c[i])));
  const found = [];
  for (let a = 0; a < 3; ++a) {
    for (const s of [-1, 1]) {
      if (s * camera[a] < 0.3 * Math.hypot(...camera)) continue;
      const plane = s > 0 ? high[a] : low[a];
      const owner = new Map();
      assembly.pieces.forEach((p, i) => p.cells.forEach((c) => { if (c[a] === plane) owner.set(c.join(), [i, c]); }));
      const face = (c) => c.map((v, k) => (k === a ? v + s / 2 : v));
      for (const [i, c] of owner.values()) {
        for (const b of [0, 1, 2].filter((b) => b !== a)) {
          const next = owner.get(c.map((v, k) => (k === b ? v + 1 : v)).join());
          if (next && next[0] !== i && wanted(assembly.pieces[i], assembly.pieces[next[0]]))
            found.push([i, next[0], face(c), face(next[1])]);
        }
      }
    }
  }
  return found;
}

// Where the page draws each pair's two face centres (window.cubenum.project).
function projectPairs(page, pairs) {
  return page.evaluate((list) => list.map(([i, j, a, b]) =>
    [window.cubenum.project(i, a), window.cubenum.project(j, b)]), pairs);
}

// Between two face centres on the picture, the darkest pixel of the middle
// and the two ends, as sums of red, green and blue.
function across(pic, a, b) {
  const bright = (x, y) => pic.pixels[Math.round(y) * pic.width + Math.round(x)].reduce((s, v) => s + v, 0);
  const steps = Math.max(2, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1])));
  let darkest = Infinity;
  for (let k = Math.floor(steps * 0.2); k <= Math.ceil(steps * 0.8); ++k)
    darkest = Math.min(darkest, bright(a[0] + ((b[0] - a[0]) * k) / steps, a[1] + ((b[1] - a[1]) * k) / steps));
  return { darkest, ends: [bright(...a), bright(...b)] };
}

// Each pair's pieces are told apart on the picture: a dark outline runs
// between their faces, darker than either by half.
function assertBorders(pic, assembly, { pairs, projected }, what) {
  assert.ok(pairs.length > 0, `some ${what} touch on a side the camera sees`);
  pairs.forEach(([i, j], k) => {
    const [a, b] = projected[k];
    const { darkest, ends } = across(pic, a, b);
    const names = `${assembly.pieces[i].label} and ${assembly.pieces[j].label}`;
    assert.ok(darkest < 0.5 * Math.min(...ends) && darkest < 150,
      `${names} (${what}) at ${a.map(Math.round)} and ${b.map(Math.round)}: the border's darkest pixel ` +
      `sums ${darkest}, the faces ${ends}`);
  });
}

// The labels U, R and F show over the faces the camera sees (it looks from
// +x, +y, +z), U above the others and R right of F; D, L and B hide.
function assertFaceLabels(r) {
  const label = Object.fromEntries(r.labels.map((l) => [l.text, l]));
  assert.deepEqual(Object.keys(label).sort(), ['B', 'D', 'F', 'L', 'R', 'U']);
  assert.deepEqual(r.labels.filter((l) => l.shown).map((l) => l.text).sort(), ['F', 'R', 'U']);
  for (const l of r.labels.filter((l) => l.shown))
    assert.ok(l.x > 0 && l.x < 900 && l.y > 0 && l.y < 640, `label ${l.text} at ${l.x}, ${l.y} is in view`);
  assert.ok(label.U.y < label.F.y && label.U.y < label.R.y, 'U is above F and R');
  assert.ok(label.R.x > label.F.x, 'R is right of F');
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

test('foam cube: one piece per colour of the Original set, opened apart, exploded', async () => {
  const r = await open('foam-cube', ['foam', 'solve', '--challenge', 'one-per-colour',
    'data/foam/happy-cube-original.txt', '--list', '25'], async (page, data) => {
    // It opens a little apart: wider than when closed.
    const opening = Number(await page.locator('input[type=range]').inputValue());
    assert.ok(opening > 0 && opening === data.explode, `the page opens at explode ${opening}`);
    const apart = drawnArea(await canvasPicture(page));
    await explode(page, 0);
    await page.waitForTimeout(300);
    const closed = drawnArea(await canvasPicture(page));
    assert.ok(apart > 1.15 * closed, `opened, the drawing covers ${apart} pixels; closed, ${closed}`);
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
  assertFaceLabels(r);
  assert.equal(r.legend.length, 1, 'a legend for the codes');
  assert.match(r.legend[0], /16 border cells as placed, clockwise from the top-left corner/);
});

test('foam shape: a 2x1x1 cuboid from the Original set, two red pieces side by side told apart', async () => {
  const sameColour = (p, q) => p.colour === q.colour;
  const r = await open('foam-shape', ['foam', 'solve', '--shape', 'cuboid:2x1x1',
    'data/foam/happy-cube-original.txt', '--first', '3'], undefined, async (page, data, camera) => {
    const pairs = sideBySide(data.assemblies[0], camera, sameColour);
    return { pairs, projected: await projectPairs(page, pairs) };
  });
  assert.equal(r.data.assemblies.length, 3);
  assert.equal(r.data.assemblies[0].pieces.length, 10);
  assertDrawn(r, facingColours(r.data.assemblies[0], r.camera));
  assertBorders(r.view, r.data.assemblies[0], r.inspected, 'pieces of one colour');
  assert.deepEqual(r.labels, [], 'no face labels on a shape');
  assert.equal(r.legend.length, 1, 'a legend for the codes');
});

test('pocket cube: a scramble and its optimal solution, played', async () => {
  const r = await open('pocket-cube', ['pocket-cube', 'solve', '--scramble', "R U2 F' D L B2"], async (page) => {
    await play(page);
    await page.evaluate(() => window.cubenum.go(2));
    return 2;
  });
  assert.match(r.text, new RegExp(`^${r.data.moves} \\(`));
  // The player and the summary count the same moves, the moves listed (a
  // half turn one), and the summary gives the metric's count beside them.
  const listed = r.data.steps.length;
  assert.ok(listed < r.data.length, 'a half turn in the solution (qtm counts it twice)');
  assert.ok(r.statuses.includes(`move 2 of ${listed}`), `the player says ${r.statuses}`);
  const summary = r.statuses.find((t) => t.includes(r.data.moves));
  assert.ok(summary.startsWith(`${listed} moves, ${r.data.length} in qtm`), `the summary says ${summary}`);
  assertFaceLabels(r);
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
  assert.ok(r.statuses.includes('move 18 of 36'), `the player says ${r.statuses}`);
  assert.ok(r.statuses.some((t) => t.startsWith('36 moves: ')), 'the summary counts the same moves');
  const state = r.data.states[r.state];
  const colours = ['#a3a9b1']; // the grey sides (web/viewer.js)
  if (state.includes(0)) colours.push('#18181b'); // black up
  if (state.includes(1)) colours.push('#e8362e'); // colour up
  assert.ok(colours.length === 3, 'black and coloured faces up halfway');
  assertDrawn(r, colours);
});

test('polycube: the Soma cube\'s first assemblies', async () => {
  const greens = (p, q) => [p.label, q.label].sort().join() === 'L,P';
  const r = await open('polycube', ['polycube', 'solve', 'data/polycubes/soma.txt', '--first', '3'],
    async (page, data) => {
      // The similar greens L and P, on the first assembly that shows them
      // side by side (chosen in the list), then back to the first.
      const camera = await page.evaluate(() => window.cubenum.camera);
      const shown = data.assemblies.findIndex((a) => sideBySide(a, camera, greens).length > 0);
      assert.ok(shown >= 0, 'L and P side by side in an assembly listed');
      const select = page.locator('select');
      await select.selectOption(String(shown));
      await page.waitForTimeout(300);
      const pairs = sideBySide(data.assemblies[shown], camera, greens);
      const lp = { shown, pairs, projected: await projectPairs(page, pairs), picture: await canvasPicture(page) };
      await select.selectOption('0');
      return lp;
    },
    async (page, data, camera) => {
      const pairs = sideBySide(data.assemblies[0], camera, () => true);
      return { pairs, projected: await projectPairs(page, pairs) };
    });
  assert.equal(r.data.assemblies.length, 3);
  assert.equal(r.data.assemblies[0].pieces.length, 7);
  assertDrawn(r, facingColours(r.data.assemblies[0], r.camera));
  // Every two pieces that touch, and the greens L and P.
  assertBorders(r.view, r.data.assemblies[0], r.inspected, 'pieces');
  assertBorders(r.state.picture, r.data.assemblies[r.state.shown], r.state, 'L and P');
  assert.deepEqual(r.legend, [], 'no codes, no legend');
});

test('polycube: a burr taken apart, its disassembly played move by move', async () => {
  const r = await open('polycube-disassembly',
    ['polycube', 'solve', 'data/polycubes/computers-choice-unique-10.txt', '--disassemble'],
    async (page, data) => {
      const moves = data.assemblies[0].disassembly.moves.length;
      await play(page);
      // The end: every piece apart, the drawing far wider than assembled.
      await page.evaluate((n) => window.cubenum.go(n), moves);
      await page.waitForTimeout(300);
      const apart = drawnArea(await canvasPicture(page));
      const end = await page.locator('#panel .status').allTextContents();
      await page.getByTitle('to the start').click();
      await page.waitForTimeout(300);
      const together = drawnArea(await canvasPicture(page));
      // One step on: the first move's pieces have moved, the others not.
      await page.getByTitle('one step on').click();
      return { moves, apart, together, end, at: await page.evaluate(() => window.cubenum.at()) };
    });
  const plan = r.data.assemblies[0].disassembly;
  assert.equal(plan.level, '10');
  assert.match(r.text, new RegExp(`#1 level 10 \\(${r.state.moves} moves\\)`));
  assert.equal(plan.moves.filter((m) => m.distance === null).length, 5, 'five separations: six pieces apart');
  assert.ok(r.state.end.includes(`move ${r.state.moves} of ${r.state.moves}`), `the player says ${r.state.end}`);
  assert.ok(r.statuses.includes(`disassembly: level 10, ${r.state.moves} moves`), `the panel says ${r.statuses}`);
  assert.equal(r.state.at, 1);
  assert.ok(r.statuses.includes(`move 1 of ${r.state.moves}`), `the player says ${r.statuses}`);
  assert.ok(r.state.apart > 1.5 * r.state.together,
    `apart, the drawing covers ${r.state.apart} pixels; assembled, ${r.state.together}`);
  // The page's own check (every move a unit step at a time, no two pieces
  // of a part in one cell) is in assertDrawn; the first move is 1 step, so
  // the colours facing the camera are still those of the assembly. A burr
  // is three crossed pairs of sticks: less of its frame is drawn than of a
  // cube's (some 8 % here).
  assertDrawn(r, facingColours(r.data.assemblies[0], r.camera), 0.95);
});
