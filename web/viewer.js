// The viewer of cubenum's solution pages (issue 18; docs/DESIGN.md,
// "Solution pages"). A plain script: the page inlines three.js before it
// (web/vendor/three.min.js, which sets the global THREE) and the data
// cubenum computed (puzzles/solution_pages.hpp) as JSON in the element
// #cubenum-data. It draws one of three kinds of page:
//   assembly       pieces made of unit cubes (foam plates on the cube or a
//                  shape, polycube pieces): turn, zoom, explode, step
//                  through the assemblies; a polycube solution's
//                  disassembly played move by move, where it has one;
//   pocket-cube    the scrambled 2x2x2 cube and its solution, played move
//                  by move;
//   rolling-cubes  the grid, each cube rolling into the empty cell.
// window.cubenum holds what the browser tests read: `frames` (frames drawn),
// `data`, `labels()` (the face labels and where they show), for the
// assemblies `project(piece, point)` (where a point of a piece's cells
// shows on the canvas), and for the sequences `check()`, which plays every
// move through the page's own geometry and compares each state with
// cubenum's (a disassembly: that no two pieces of a part ever share a
// cell).
(function () {
  'use strict';

  const page = { frames: 0, data: null, check: null, go: null, at: null, steps: 0, camera: null,
    labels: () => [], project: null };
  window.cubenum = page;

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === 'class') node.className = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children)
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  function fail(message) {
    console.error('cubenum page: ' + message);
    document.body.append(el('div', { id: 'failure' }, message));
  }

  let data;
  try {
    data = JSON.parse(document.getElementById('cubenum-data').textContent);
  } catch (e) {
    fail('the page holds no readable data: ' + e.message);
    return;
  }
  page.data = data;
  document.title = data.title || document.title;

  // ------------------------------------------------------------ the scene

  const view = el('div', { id: 'view' });
  const labelLayer = el('div', { id: 'labels' });
  const panel = el('div', { id: 'panel' }, el('h1', {}, data.title || 'cubenum'));
  if (data.subtitle) panel.append(el('div', { class: 'subtitle' }, data.subtitle));
  document.body.append(view, labelLayer, panel,
    el('div', { id: 'help' }, 'drag to turn \u00b7 scroll to zoom \u00b7 right-drag to move'));

  let renderer;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  } catch (e) {
    fail('this browser cannot draw WebGL: ' + e.message);
    return;
  }
  const background = 0x2a3140;
  renderer.setClearColor(background);
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  view.append(renderer.domElement);

  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(38, 1, 0.05, 2000);
  scene.add(camera);
  // Lambert shading gives albedo * (ambient + direct * cos) / pi: the faces
  // turned to the viewer show about their own colour.
  scene.add(new THREE.AmbientLight(0xffffff, 0.5 * Math.PI));
  const light = new THREE.DirectionalLight(0xffffff, 0.6 * Math.PI);
  light.position.set(0.5, 0.8, 1);
  camera.add(light); // lights the side the viewer sees, however it is turned
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.enableDamping = true;

  const world = new THREE.Group();
  scene.add(world);

  function frame(radius, direction) {
    const d = new THREE.Vector3(...direction).normalize();
    const distance = (radius / Math.sin((camera.fov * Math.PI) / 360)) * 1.55;
    page.camera = d.toArray();
    camera.position.copy(d.multiplyScalar(distance));
    camera.near = distance / 100;
    camera.far = distance * 20;
    camera.updateProjectionMatrix();
    controls.target.set(0, 0, 0);
    controls.minDistance = radius * 0.6;
    controls.maxDistance = distance * 6;
    controls.update();
  }

  // On a wide window the drawing moves right, out from under the panel.
  function resize() {
    const w = view.clientWidth || window.innerWidth, h = view.clientHeight || window.innerHeight;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    const shift = w > 720 ? Math.min(panel.offsetWidth * 0.4, w * 0.18) : 0;
    camera.setViewOffset(w, h, -shift, 0, w, h);
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);
  resize();

  // The faces are pushed back a little in depth so that a piece's edges
  // (pieceEdges), drawn on its surface, always show in front of them.
  const materials = new Map();
  function material(colour) {
    if (!materials.has(colour))
      materials.set(colour, new THREE.MeshLambertMaterial({ color: colour, polygonOffset: true,
        polygonOffsetFactor: 1, polygonOffsetUnits: 1 }));
    return materials.get(colour);
  }

  // ------------------------------------------------------------ face labels

  // A face's name over its centre, moved out along its normal, on the faces
  // the camera sees: HTML over the canvas (crisp at any zoom), placed after
  // each frame. `object` carries the point and normal (a piece as it
  // explodes, or the world).
  let labels = [];
  function setLabels(list) {
    labelLayer.textContent = '';
    labels = list.map((l) => ({ ...l, node: el('div', { class: 'face-label' }, l.text), shown: false, x: 0, y: 0 }));
    for (const l of labels) labelLayer.append(l.node);
  }
  function placeLabels() {
    const w = view.clientWidth || window.innerWidth, h = view.clientHeight || window.innerHeight;
    for (const l of labels) {
      const p = l.object.localToWorld(l.point.clone());
      const n = l.normal.clone().transformDirection(l.object.matrixWorld);
      l.shown = n.dot(camera.position.clone().sub(p)) > 0;
      l.node.style.display = l.shown ? '' : 'none';
      p.project(camera);
      l.x = ((p.x + 1) / 2) * w;
      l.y = ((1 - p.y) / 2) * h;
      l.node.style.left = `${l.x.toFixed(1)}px`;
      l.node.style.top = `${l.y.toFixed(1)}px`;
    }
  }
  page.labels = () => labels.map(({ text, shown, x, y }) => ({ text, shown, x, y }));

  // ------------------------------------------------------------ piece edges

  // The edges of a piece of unit cubes (integer or half-integer centres):
  // every unit face of its surface adds its four edges, keyed by where the
  // edge is and which way the face looks. An edge that two faces looking
  // the same way share lies inside a flat side of the piece, a seam between
  // two of its own cubes; any other is an outline: where the surface bends
  // or where the piece ends, and so where it meets a neighbour.
  function pieceEdges(cells) {
    const key = (v) => v.map((x) => Math.round(x * 2)).join(',');
    const filled = new Set(cells.map(key));
    const at = new Map(); // edge -> [midpoint, axis]
    const faces = new Map(); // edge and facing -> faces
    for (const c of cells) {
      for (let a = 0; a < 3; ++a) {
        for (const s of [-1, 1]) {
          const next = [...c];
          next[a] += s;
          if (filled.has(key(next))) continue;
          for (let b = 0; b < 3; ++b) {
            if (b === a) continue;
            for (const t of [-1, 1]) {
              const m = [...c];
              m[a] += s / 2;
              m[b] += t / 2;
              const k = key(m);
              at.set(k, [m, 3 - a - b]);
              const facing = `${k}|${a}${s}`;
              faces.set(facing, (faces.get(facing) || 0) + 1);
            }
          }
        }
      }
    }
    const outline = new Set();
    const seams = new Set();
    for (const [facing, n] of faces) (n === 1 ? outline : seams).add(facing.split('|')[0]);
    return {
      outline: [...outline].map((k) => at.get(k)),
      seams: [...seams].filter((k) => !outline.has(k)).map((k) => at.get(k)),
    };
  }

  // Edges as thin boxes (WebGL draws lines one pixel wide at any zoom),
  // `width` across, moved by `offset`.
  const unitBox = new THREE.BoxGeometry(1, 1, 1);
  function edgeMesh(edges, width, colour, offset) {
    const mesh = new THREE.InstancedMesh(unitBox, new THREE.MeshBasicMaterial({ color: colour }), edges.length);
    const matrix = new THREE.Matrix4();
    edges.forEach(([m, axis], k) => {
      const scale = [width, width, width];
      scale[axis] = 1 + width;
      matrix.makeScale(...scale).setPosition(m[0] - offset.x, m[1] - offset.y, m[2] - offset.z);
      mesh.setMatrixAt(k, matrix);
    });
    return mesh;
  }

  // ------------------------------------------------------------ assemblies

  function assemblyPage() {
    const assemblies = data.assemblies || [];
    const cube = new THREE.BoxGeometry(1, 1, 1);
    const holder = new THREE.Group();
    world.add(holder);
    // The slider's percent as the page opens (the foam cube's opens apart).
    const opening = Math.max(0, Math.min(100, Number(data.explode) || 0));
    let pieces = []; // {object, direction, offset (where the disassembly has moved it)}
    let centre = new THREE.Vector3(); // of the assembly shown: its cells are drawn about it
    let spread = opening / 100, reach = 1;

    const select = el('select', { 'aria-label': 'assembly' });
    assemblies.forEach((a, i) => select.append(el('option', { value: i }, a.name)));
    const slider = el('input', { type: 'range', min: 0, max: 100, value: opening, 'aria-label': 'explode' });
    const list = el('div', { class: 'pieces' });
    const sequence = el('div', { class: 'disassembly' }); // the shown solution's plan, if any
    let playing = null; // its player's tick
    const step = (by) => {
      if (!assemblies.length) return;
      select.value = String((Number(select.value) + by + assemblies.length) % assemblies.length);
      show(Number(select.value));
    };
    panel.append(
      el('div', { class: 'row' }, el('button', { onclick: () => step(-1), title: 'previous' }, '\u25c0'),
        select, el('button', { onclick: () => step(1), title: 'next' }, '\u25b6'),
        el('span', { class: 'status' }, `${assemblies.length} assembl${assemblies.length === 1 ? 'y' : 'ies'}`)),
      el('div', { class: 'row' }, el('label', {}, 'explode'), slider),
      sequence,
      list);
    const foam = assemblies.some((a) => a.pieces.some((p) => p.face !== undefined));
    if (foam)
      panel.append(el('div', { class: 'legend' },
        'codes: the 16 border cells as placed, clockwise from the top-left corner seen from ' +
        'outside (top row left to right, then down the right side); 1 filled, 0 cut away'));
    slider.addEventListener('input', () => { spread = Number(slider.value) / 100; place(); });
    select.addEventListener('change', () => show(Number(select.value)));

    function place() {
      for (const p of pieces) p.object.position.copy(p.direction).multiplyScalar(spread * reach).add(p.offset);
    }

    // Pieces of one colour (a set's own cube, a pool's pieces) get lighter
    // and darker shades, besides their outlines, so that they can be told
    // apart.
    function shades(items) {
      const seen = new Map();
      return items.map((p) => {
        const n = seen.get(p.colour) || 0;
        seen.set(p.colour, n + 1);
        const c = new THREE.Color(p.colour);
        if (n > 0) c.offsetHSL(0, 0, ((n % 2 ? 1 : -1) * Math.ceil(n / 2) * 0.07));
        return c;
      });
    }

    function show(index) {
      holder.clear();
      pieces = [];
      list.textContent = '';
      sequence.textContent = '';
      playing = null;
      page.go = null;
      page.steps = 0;
      page.check = null;
      const assembly = assemblies[index];
      if (!assembly) {
        list.append('no assembly was found');
        return;
      }
      const box = new THREE.Box3();
      for (const p of assembly.pieces) for (const c of p.cells) box.expandByPoint(new THREE.Vector3(...c));
      centre = box.getCenter(new THREE.Vector3());
      const size = box.getSize(new THREE.Vector3());
      reach = Math.max(size.x, size.y, size.z) * 0.55 + 1;
      const colours = shades(assembly.pieces);
      const matrix = new THREE.Matrix4();
      const faceLabels = [];
      assembly.pieces.forEach((p, i) => {
        const plate = p.face !== undefined;
        const colour = '#' + colours[i].getHexString();
        const mesh = new THREE.InstancedMesh(cube, material(colour), p.cells.length);
        p.cells.forEach((c, k) => {
          matrix.makeTranslation(c[0] - centre.x, c[1] - centre.y, c[2] - centre.z);
          mesh.setMatrixAt(k, matrix);
        });
        const object = new THREE.Group();
        object.add(mesh);
        // Every piece outlined, so that two of one colour never merge; a
        // polycube piece's own cubes also show, by fainter seams.
        const edges = pieceEdges(p.cells);
        object.add(edgeMesh(edges.outline, 0.07, '#0d0f14', centre));
        if (!plate && edges.seams.length)
          object.add(edgeMesh(edges.seams, 0.035, '#' + colours[i].clone().multiplyScalar(0.55).getHexString(), centre));
        holder.add(object);
        const direction = new THREE.Vector3(...p.explode);
        if (direction.lengthSq() > 0) direction.normalize();
        pieces.push({ object, direction, offset: new THREE.Vector3() });
        if (data.labels && plate) {
          const point = new THREE.Vector3(...p.centre).sub(centre).addScaledVector(direction, 2);
          faceLabels.push({ text: p.face, object, point, normal: direction.clone() });
        }
        const where = plate ? ` on ${p.face}: ` : ` (${p.cells.length} cubes)`;
        const code = plate ? [el('code', { title: codePicture(p.placed) }, p.placed)] : [];
        list.append(el('div', {}, el('span', { class: 'swatch', style: `background:${colour}` }), p.label + where, ...code));
      });
      setLabels(faceLabels);
      if (assembly.disassembly) disassembly(assembly, Math.max(size.x, size.y, size.z) + 2);
      place();
      const radius = Math.max(size.addScalar(1).length() / 2, 1);
      frame(radius, [1, 0.85, 1.35]);
    }

    // A solution's disassembly (polycube solve --disassemble), played: each
    // move slides its pieces along its axis, a separation `away` units and
    // more (each further separation the same way goes further, clear of
    // the parts already out); the state after k moves is where every piece
    // stands then.
    function disassembly(assembly, away) {
      const moves = assembly.disassembly.moves;
      const out = new Map(); // direction -> separations so far
      const shifts = moves.map((m) => {
        const direction = new THREE.Vector3(...m.direction);
        if (m.distance !== null) return direction.multiplyScalar(m.distance);
        const key = m.direction.join();
        out.set(key, (out.get(key) || 0) + 1);
        return direction.multiplyScalar(away * out.get(key));
      });
      const states = [assembly.pieces.map(() => new THREE.Vector3())];
      moves.forEach((m, k) => {
        const next = states[k].map((v) => v.clone());
        for (const i of m.pieces) next[i].add(shifts[k]);
        states.push(next);
      });
      sequence.append(el('div', { class: 'status' },
        `disassembly: level ${assembly.disassembly.level}, ${moves.length} move${moves.length === 1 ? '' : 's'}`));
      playing = player(moves.map((m) => m.text), (k, t) => {
        const moving = new Set(moves[k].pieces);
        pieces.forEach((p, i) => {
          p.offset.copy(states[k][i]);
          if (moving.has(i)) p.offset.addScaledVector(shifts[k], ease(t));
        });
        place();
      }, (k) => {
        pieces.forEach((p, i) => p.offset.copy(states[k][i]));
        place();
      }, 0.45, sequence);

      // Every move through the page's geometry, a unit step at a time: no
      // two pieces of one part (those no separation has parted yet) ever
      // share a cell; a separation's pieces leave their part for a part of
      // their own, which is then as far from the rest as the rules have it
      // (arbitrarily). After the last move every piece stands where its
      // moves took it.
      page.check = function () {
        const problems = [];
        const part = assembly.pieces.map(() => 0);
        const key = (c, v) => `${c[0] + v.x},${c[1] + v.y},${c[2] + v.z}`;
        const overlap = (at, within) => {
          const owner = new Map();
          for (const [i, p] of assembly.pieces.entries()) {
            if (part[i] !== within) continue;
            for (const c of p.cells) {
              const k = key(c, at[i]);
              if (owner.has(k)) return `${p.label} and ${assembly.pieces[owner.get(k)].label} at ${k}`;
              owner.set(k, i);
            }
          }
          return null;
        };
        moves.forEach((m, k) => {
          const within = part[m.pieces[0]];
          if (m.pieces.some((i) => part[i] !== within)) problems.push(`move ${k + 1} (${m.text}): pieces of two parts`);
          const steps = Math.round(shifts[k].length());
          const unit = shifts[k].clone().normalize();
          for (let s = 1; s <= steps; ++s) {
            const at = states[k].map((v, i) => (m.pieces.includes(i) ? v.clone().addScaledVector(unit, s) : v));
            const clash = overlap(at, within);
            if (clash) { problems.push(`move ${k + 1} (${m.text}), step ${s}: ${clash}`); break; }
          }
          if (m.distance === null) for (const i of m.pieces) part[i] = k + 1;
        });
        const end = states[moves.length];
        assembly.pieces.forEach((p, i) => {
          const sum = new THREE.Vector3();
          moves.forEach((m, k) => { if (m.pieces.includes(i)) sum.add(shifts[k]); });
          if (!same(sum, end[i])) problems.push(`${p.label} does not end where its moves take it`);
        });
        problems.forEach((p) => console.error('cubenum page check: ' + p));
        return problems;
      };
    }
    // Where point `point` of piece `i`'s cells shows on the canvas, in CSS
    // pixels from its top left (for the tests).
    page.project = (i, point) => {
      const p = pieces[i].object.localToWorld(new THREE.Vector3(...point).sub(centre));
      p.project(camera);
      const w = view.clientWidth || window.innerWidth, h = view.clientHeight || window.innerHeight;
      return [((p.x + 1) / 2) * w, ((1 - p.y) / 2) * h];
    };
    show(0);
    return (now) => { if (playing) playing(now); };
  }

  // A 16-character code as its 5x5 picture (for the code's tooltip): the
  // border clockwise from the top-left corner, the 3x3 centre filled.
  function codePicture(code) {
    const grid = [0, 1, 2, 3, 4].map((r) => [0, 1, 2, 3, 4].map((c) => (r > 0 && r < 4 && c > 0 && c < 4 ? '#' : '.')));
    const ring = [];
    for (let c = 0; c < 4; ++c) ring.push([0, c]);
    for (let r = 0; r < 4; ++r) ring.push([r, 4]);
    for (let c = 4; c > 0; --c) ring.push([4, c]);
    for (let r = 4; r > 0; --r) ring.push([r, 0]);
    ring.forEach(([r, c], k) => { if (code[k] === '1') grid[r][c] = '#'; });
    return grid.map((row) => row.join('')).join('\n');
  }

  // ------------------------------------------------------------ sequences

  // Play, pause, step: `count` moves as the page lists them, `animate(k,
  // t)` draws move k at time t in [0, 1], `settle(k)` shows the state after
  // k moves. The status counts in the list's moves, as the summary does.
  function player(names, animate, settle, seconds, parent = panel) {
    const count = names.length;
    let at = 0, playing = false, started = 0;
    const moves = el('div', { class: 'moves' });
    const spans = names.map((n) => el('span', {}, n));
    spans.forEach((s) => moves.append(s));
    const status = el('span', { class: 'status' });
    const play = el('button', { title: 'play or pause' }, '\u25b6 play');
    function mark() {
      spans.forEach((s, i) => { s.className = i < at ? 'done' : i === at && playing ? 'now' : ''; });
      status.textContent = count === 0 ? 'already solved' : `move ${at} of ${count}`;
      play.textContent = playing ? '\u275a\u275a pause' : '\u25b6 play';
    }
    function go(k) { playing = false; at = Math.max(0, Math.min(count, k)); settle(at); mark(); }
    play.addEventListener('click', () => {
      if (!playing && at >= count) go(0);
      playing = !playing;
      started = performance.now();
      mark();
    });
    parent.append(
      el('div', { class: 'row' },
        el('button', { onclick: () => go(0), title: 'to the start' }, 'start'),
        el('button', { onclick: () => go(at - 1), title: 'one step back' }, '\u25c0'),
        play,
        el('button', { onclick: () => go(at + 1), title: 'one step on' }, '\u25b6'),
        el('button', { onclick: () => go(count), title: 'to the end' }, 'end'),
        status),
      moves);
    settle(0);
    mark();
    page.go = go;
    page.at = () => at;
    page.steps = count;
    return function tick(now) {
      if (!playing) return;
      const t = (now - started) / (seconds * 1000);
      if (t < 1) { animate(at, t); return; }
      at += 1;
      settle(at);
      started = now;
      if (at >= count) playing = false;
      mark();
    };
  }

  const ease = (t) => t * t * (3 - 2 * t);
  const same = (a, b) => a.distanceToSquared(b) < 1e-6;

  // The 2x2x2 cube: 8 cubies at the corner slots (+-1 scaled by 1/2), each
  // with the stickers of its three facelets. A move turns the cubies of
  // its layer about the face's outward normal (clockwise seen from outside:
  // a negative angle), then every sticker takes the colour cubenum's next
  // state gives it.
  function pocketCubePage() {
    const facelets = data.facelets.map((f, i) => {
      const normal = new THREE.Vector3(...f.normal);
      const slot = new THREE.Vector3(...data.slots[f.slot]).multiplyScalar(0.5);
      return { index: i, slot: f.slot, normal, point: slot.clone().add(normal.clone().multiplyScalar(0.5)) };
    });
    const cubies = data.slots.map((s) => {
      const cubie = new THREE.Group();
      cubie.position.set(s[0] * 0.5, s[1] * 0.5, s[2] * 0.5);
      cubie.add(new THREE.Mesh(new THREE.BoxGeometry(0.98, 0.98, 0.98), material('#15171c')));
      world.add(cubie);
      return cubie;
    });
    const sticker = new THREE.BoxGeometry(0.84, 0.84, 0.02);
    const stickers = facelets.map((f) => {
      const mesh = new THREE.Mesh(sticker, material(data.colours[0]));
      mesh.position.copy(f.normal).multiplyScalar(0.495);
      mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), f.normal);
      cubies[f.slot].add(mesh);
      return { mesh };
    });
    const pivot = new THREE.Group();
    world.add(pivot);
    const layer = (normal) => cubies.filter((c) => c.position.dot(normal) > 0);

    function paint(k) {
      const digits = data.states[k];
      stickers.forEach((s, i) => { s.mesh.material = material(data.colours[Number(digits[i])]); });
    }
    function reset() {
      pivot.quaternion.identity();
      for (const c of [...pivot.children]) world.attach(c);
      cubies.forEach((c, i) => {
        c.position.set(...data.slots[i]).multiplyScalar(0.5);
        c.quaternion.identity();
      });
    }
    const angle = (s) => -(Math.PI / 2) * s.quarters;
    // The length in the list's moves, which the player steps through; in
    // the quarter-turn metric a half turn is one move listed and two counted.
    function movesSummary() {
      const listed = data.steps.length, plural = listed === 1 ? '' : 's';
      if (listed === data.length) return `${listed} move${plural}, ${data.metric}`;
      return `${listed} move${plural}, ${data.length} in ${data.metric} (a half turn counts 2)`;
    }
    const names = data.steps.map((s) => s.move);
    const tick = player(names, (k, t) => {
      const s = data.steps[k];
      const normal = new THREE.Vector3(...s.normal);
      if (pivot.children.length === 0) for (const c of layer(normal)) pivot.attach(c);
      pivot.quaternion.setFromAxisAngle(normal, angle(s) * ease(t));
    }, (k) => { reset(); paint(k); }, 0.55);

    // Every move through this geometry: a facelet of the turned layer
    // carries its colour to the facelet its point and normal turn onto.
    page.check = function () {
      const problems = [];
      data.steps.forEach((s, k) => {
        const normal = new THREE.Vector3(...s.normal);
        const q = new THREE.Quaternion().setFromAxisAngle(normal, angle(s));
        const before = data.states[k], after = data.states[k + 1];
        for (const f of facelets) {
          let target = f;
          if (f.point.dot(normal) > 0) {
            const p = f.point.clone().applyQuaternion(q), n = f.normal.clone().applyQuaternion(q);
            target = facelets.find((g) => same(g.point, p) && same(g.normal, n));
          }
          if (!target || after[target.index] !== before[f.index])
            problems.push(`step ${k + 1} (${s.move}): facelet ${f.index}`);
        }
      });
      const last = data.states[data.states.length - 1];
      for (const face of ['U', 'R', 'F', 'D', 'L', 'B']) {
        const colours = new Set(facelets.filter((f) => data.facelets[f.index].face === face).map((f) => last[f.index]));
        if (colours.size !== 1) problems.push(`the end: face ${face} has ${colours.size} colours`);
      }
      problems.forEach((p) => console.error('cubenum page check: ' + p));
      return problems;
    };
    panel.append(el('div', { class: 'status' }, `${movesSummary()}: ${data.moves || 'already solved'}`));
    const faces = new Map(data.facelets.map((f) => [f.face, f.normal]));
    setLabels([...faces].map(([face, normal]) => ({ text: face, object: world,
      point: new THREE.Vector3(...normal).multiplyScalar(1.9), normal: new THREE.Vector3(...normal) })));
    frame(Math.sqrt(3) * 1.1, [1.3, 1.1, 1.6]);
    return tick;
  }

  // The grid of rolling cubes: row 0 is north (-z), column 0 west (-x). A
  // cube's black face points as its orientation digit says; the face
  // opposite is coloured, the four others grey. A move rolls the cube over
  // its bottom edge on the side it travels to, a quarter turn about
  // up x direction.
  function rollingCubesPage() {
    const rows = data.rows, cols = data.cols;
    const black = '#18181b', coloured = '#e8362e', grey = '#a3a9b1';
    const points = [[0, 1, 0], [0, -1, 0], [0, 0, -1], [1, 0, 0], [0, 0, 1], [-1, 0, 0]];
    const rollDirection = { U: [0, 0, -1], D: [0, 0, 1], L: [-1, 0, 0], R: [1, 0, 0] };
    const boxFace = (v) => (v.x > 0.5 ? 0 : v.x < -0.5 ? 1 : v.y > 0.5 ? 2 : v.y < -0.5 ? 3 : v.z > 0.5 ? 4 : 5);
    const cellPoint = (cell) => new THREE.Vector3((cell % cols) - (cols - 1) / 2, 0.5, Math.floor(cell / cols) - (rows - 1) / 2);
    const tile = new THREE.BoxGeometry(0.94, 0.08, 0.94);
    for (let cell = 0; cell < rows * cols; ++cell) {
      const t = new THREE.Mesh(tile, material('#d5dae2'));
      t.position.copy(cellPoint(cell)).setY(-0.06);
      world.add(t);
    }
    const base = new THREE.Mesh(new THREE.BoxGeometry(cols + 0.3, 0.1, rows + 0.3), material('#5d6677'));
    base.position.y = -0.16;
    world.add(base);
    const box = new THREE.BoxGeometry(0.96, 0.96, 0.96);
    const faces = (o) => {
      const b = new THREE.Vector3(...points[o]);
      return [0, 1, 2, 3, 4, 5].map((i) =>
        i === boxFace(b) ? material(black) : i === boxFace(b.clone().negate()) ? material(coloured) : material(grey));
    };
    let cubes = [];
    function settle(k) {
      for (const c of cubes) world.remove(c);
      cubes = [];
      data.states[k].forEach((o, cell) => {
        if (o < 0) return;
        const cube = new THREE.Mesh(box, faces(o));
        cube.position.copy(cellPoint(cell));
        cube.userData.cell = cell;
        world.add(cube);
        cubes.push(cube);
      });
    }
    const axis = (d) => new THREE.Vector3(0, 1, 0).cross(d).normalize();
    const tick = player(data.steps.map((s) => s.roll), (k, t) => {
      const s = data.steps[k];
      const cube = cubes.find((c) => c.userData.cell === s.from);
      if (!cube) return;
      const d = new THREE.Vector3(...rollDirection[s.roll]);
      const home = cellPoint(s.from);
      const pivot = home.clone().add(d.clone().multiplyScalar(0.5)).setY(0);
      const q = new THREE.Quaternion().setFromAxisAngle(axis(d), (Math.PI / 2) * ease(t));
      cube.position.copy(home.clone().sub(pivot).applyQuaternion(q).add(pivot));
      cube.quaternion.copy(q);
    }, settle, 0.5);

    // Every move through this geometry: the rolled cube's black face turns
    // as the quarter turn turns it, and lands where cubenum's next state has
    // it; every other cell stays.
    page.check = function () {
      const problems = [];
      data.steps.forEach((s, k) => {
        const before = data.states[k], after = data.states[k + 1];
        const d = new THREE.Vector3(...rollDirection[s.roll]);
        const to = cellPoint(s.from).add(d);
        if (!same(to, cellPoint(s.to))) problems.push(`step ${k + 1} (${s.roll}): lands on the wrong cell`);
        const q = new THREE.Quaternion().setFromAxisAngle(axis(d), Math.PI / 2);
        const b = new THREE.Vector3(...points[before[s.from]]).applyQuaternion(q);
        const want = points.findIndex((p) => same(new THREE.Vector3(...p), b));
        if (after[s.to] !== want || after[s.from] !== -1 || before[s.to] !== -1)
          problems.push(`step ${k + 1} (${s.roll}): cubenum has ${after[s.to]}, the page ${want}`);
        before.forEach((o, cell) => {
          if (cell !== s.from && cell !== s.to && after[cell] !== o) problems.push(`step ${k + 1}: cell ${cell} changed`);
        });
      });
      problems.forEach((p) => console.error('cubenum page check: ' + p));
      return problems;
    };
    panel.append(el('div', { class: 'status' },
      `${data.length} moves: ${data.moves}; black, coloured and grey faces; U is north`));
    frame(Math.hypot(rows, cols) / 2 + 0.2, [0.35, 1.5, 1.25]);
    return tick;
  }

  // ------------------------------------------------------------ drawing

  let tick = null;
  try {
    if (data.kind === 'assembly') tick = assemblyPage();
    else if (data.kind === 'pocket-cube') tick = pocketCubePage();
    else if (data.kind === 'rolling-cubes') tick = rollingCubesPage();
    else throw new Error(`unknown kind of page '${data.kind}'`);
  } catch (e) {
    fail(e.message);
    return;
  }

  resize(); // the panel is full now

  function draw(now) {
    if (tick) tick(now);
    controls.update();
    renderer.render(scene, camera);
    placeLabels();
    page.frames += 1;
    document.body.dataset.frames = String(page.frames);
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);
})();
