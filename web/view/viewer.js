// interlink view: draws the scene `interlink view` wrote (docs/view.md) with three.js.
// Forward kinematics runs here on the core's own chain data (X_PJ, X_JC, frame offsets) with the
// core's formulas (jointMotion, Eigen's AngleAxis and quaternion), so poses equal `interlink frames`.
(function () {
  'use strict';
  const live = window.INTERLINK_LIVE === true;

  // ---- Pose math: {R: 9 numbers row-major, t: [x, y, z]}, as Eigen's Isometry3d -------------
  const IDENTITY = { R: [1, 0, 0, 0, 1, 0, 0, 0, 1], t: [0, 0, 0] };
  function mul(A, B) {
    const a = A.R, b = B.R, R = new Array(9), t = new Array(3);
    for (let i = 0; i < 3; ++i) {
      for (let j = 0; j < 3; ++j) R[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
      t[i] = a[3 * i] * B.t[0] + a[3 * i + 1] * B.t[1] + a[3 * i + 2] * B.t[2] + A.t[i];
    }
    return { R, t };
  }
  // Eigen::AngleAxisd(angle, axis).toRotationMatrix()
  function angleAxis(axis, angle) {
    const s = Math.sin(angle), c = Math.cos(angle), x = axis[0], y = axis[1], z = axis[2];
    const sx = s * x, sy = s * y, sz = s * z, cx = (1 - c) * x, cy = (1 - c) * y, cz = (1 - c) * z;
    return [cx * x + c, cx * y - sz, cx * z + sy, cx * y + sz, cy * y + c, cy * z - sx, cx * z - sy, cy * z + sx, cz * z + c];
  }
  function mat3mul(a, b) {
    const R = new Array(9);
    for (let i = 0; i < 3; ++i) for (let j = 0; j < 3; ++j) R[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    return R;
  }
  const norm = (v) => Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  function rotationVector(x, y, z) {
    const angle = norm([x, y, z]);
    return angle > 0 ? angleAxis([x / angle, y / angle, z / angle], angle) : IDENTITY.R.slice();
  }
  // Eigen's unitOrthogonal() of a 3-vector.
  function unitOrthogonal(v) {
    const small = (a, b) => Math.abs(a) <= Math.abs(b) * 1e-12;
    if (!small(v[0], v[2]) || !small(v[1], v[2])) {
      const n = Math.hypot(v[0], v[1]);
      return [-v[1] / n, v[0] / n, 0];
    }
    const n = Math.hypot(v[1], v[2]);
    return [0, -v[2] / n, v[1] / n];
  }
  // interlink::jointMotion (interface_api/include/interlink/model/JointType.hpp)
  function jointMotion(step, q) {
    const axes = step.axes, R = IDENTITY.R.slice(), t = [0, 0, 0];
    const axis = (i, fallback) => (i < axes.length ? axes[i] : fallback);
    const X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1];
    const single = step.dof_count === 1 && step.ratio !== 0 ? q[0] / step.ratio : 0;
    let m = { R, t };
    switch (step.type) {
      case 'revolute': case 'continuous': case 'gearbox': m.R = angleAxis(axis(0, Z), single); break;
      case 'prismatic': { const a = axis(0, Z); m.t = [a[0] * single, a[1] * single, a[2] * single]; break; }
      case 'screw': {
        const a = axis(0, Z), d = single / 6.283185307179586 * step.pitch;
        m.R = angleAxis(a, single); m.t = [a[0] * d, a[1] * d, a[2] * d]; break;
      }
      case 'universal': case 'revolute2': m.R = mat3mul(angleAxis(axis(0, X), q[0]), angleAxis(axis(1, Y), q[1])); break;
      case 'ball': m.R = rotationVector(q[0], q[1], q[2]); break;
      case 'planar': {
        let t1 = X, t2 = Y;
        if (axes.length >= 2) { t1 = axes[0]; t2 = axes[1]; } else if (axes.length === 1) { t1 = unitOrthogonal(axes[0]); t2 = cross(axes[0], t1); }
        m.t = [0, 1, 2].map((i) => t1[i] * q[0] + t2[i] * q[1]);
        const n = cross(t1, t2), l = norm(n);
        m.R = angleAxis([n[0] / l, n[1] / l, n[2] / l], q[2]); break;
      }
      case 'free': m.t = [q[0], q[1], q[2]]; m.R = rotationVector(q[3], q[4], q[5]); break;
      case 'translational': { const a = axis(0, X), b = axis(1, Y), c = axis(2, Z); m.t = [0, 1, 2].map((i) => a[i] * q[0] + b[i] * q[1] + c[i] * q[2]); break; }
      case 'translational2d': { const a = axis(0, X), b = axis(1, Y); m.t = [0, 1, 2].map((i) => a[i] * q[0] + b[i] * q[1]); break; }
      case 'euler': m.R = mat3mul(mat3mul(angleAxis(axis(0, X), q[0]), angleAxis(axis(1, Y), q[1])), angleAxis(axis(2, Z), q[2])); break;
      default: break;
    }
    return m;
  }
  // interlink::quaternionWxyz: Eigen's Quaternion(Matrix3), normalised, first non-zero entry positive.
  function quaternionWxyz(R) {
    const m = (i, j) => R[3 * i + j];
    let q = [0, 0, 0, 0]; // x y z w
    const trace = m(0, 0) + m(1, 1) + m(2, 2);
    if (trace > 0) {
      let s = Math.sqrt(trace + 1); q[3] = 0.5 * s; s = 0.5 / s;
      q[0] = (m(2, 1) - m(1, 2)) * s; q[1] = (m(0, 2) - m(2, 0)) * s; q[2] = (m(1, 0) - m(0, 1)) * s;
    } else {
      let i = 0; if (m(1, 1) > m(0, 0)) i = 1; if (m(2, 2) > m(i, i)) i = 2;
      const j = (i + 1) % 3, k = (j + 1) % 3;
      let s = Math.sqrt(m(i, i) - m(j, j) - m(k, k) + 1); q[i] = 0.5 * s; s = 0.5 / s;
      q[3] = (m(k, j) - m(j, k)) * s; q[j] = (m(j, i) + m(i, j)) * s; q[k] = (m(k, i) + m(i, k)) * s;
    }
    const n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    let wxyz = [q[3] / n, q[0] / n, q[1] / n, q[2] / n];
    for (let i = 0; i < 4; ++i) { if (wxyz[i] > 0) break; if (wxyz[i] < 0) { wxyz = wxyz.map((v) => -v); break; } }
    return wxyz.map((v) => (v === 0 ? 0 : v));
  }

  // ---- Page layout ---------------------------------------------------------------------------
  const panel = document.createElement('div'); panel.id = 'il-panel';
  panel.innerHTML = '<h1 id="il-title"></h1><div class="il-toggles" id="il-toggles"></div>' +
    '<h2>Joints</h2><div id="il-sliders"></div><h2>Kinematic tree</h2><div id="il-tree"></div>' +
    '<h2>Diagnostics</h2><div id="il-diagnostics"></div>';
  const viewDiv = document.createElement('div'); viewDiv.id = 'il-view';
  const tooltip = document.createElement('div'); tooltip.id = 'il-tooltip';
  const banner = document.createElement('div'); banner.id = 'il-banner';
  document.body.append(panel, viewDiv, tooltip, banner);
  const $ = (id) => document.getElementById(id);

  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setClearColor(0xeef1f4);
  viewDiv.appendChild(renderer.domElement);
  const camera = new THREE.PerspectiveCamera(45, 1, 0.001, 1000);
  camera.up.set(0, 0, 1); // Z up, as the model
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  const world = new THREE.Scene();
  world.add(new THREE.HemisphereLight(0xffffff, 0x8d8d8d, 0.9));
  const sun = new THREE.DirectionalLight(0xffffff, 0.7); sun.position.set(2, -3, 5); world.add(sun);
  let cameraPlaced = false, grid = null;

  const show = { visual: true, collision: false, frames: false, axes: false, inertia: false };
  const toggleNames = { visual: 'visuals', collision: 'collisions', frames: 'frames', axes: 'joint axes', inertia: 'inertia' };
  for (const key of Object.keys(show)) {
    const label = document.createElement('label');
    label.innerHTML = '<input type="checkbox"' + (show[key] ? ' checked' : '') + '> ' + toggleNames[key];
    label.firstChild.id = 'il-show-' + key;
    label.firstChild.addEventListener('change', (e) => { show[key] = e.target.checked; applyVisibility(); });
    $('il-toggles').appendChild(label);
  }

  // ---- State of the current scene ------------------------------------------------------------
  let scene = null, root = null, frameGroups = [], q = [], sliders = [], meshCache = new Map();
  let layers = { visual: [], collision: [], frames: [], axes: [], inertia: [] };
  let selectedLink = -1, treeItems = new Map(), pickables = [];
  const dofIndex = new Map();

  function poseMatrix(p) {
    const R = p.R, t = p.t;
    return new THREE.Matrix4().set(R[0], R[1], R[2], t[0], R[3], R[4], R[5], t[1], R[6], R[7], R[8], t[2], 0, 0, 0, 1);
  }
  function place(object, pose) { object.matrixAutoUpdate = false; object.matrix.copy(poseMatrix(pose)); }

  function framePoses(config) {
    const links = new Array(scene.frames.length);
    for (const r of scene.chain.root_links) links[r.link] = r.pose;
    for (const s of scene.chain.steps) {
      const X_RP = s.parent < 0 ? IDENTITY : links[s.parent];
      const motion = s.first_dof >= 0 ? jointMotion(s, config.slice(s.first_dof, s.first_dof + s.dof_count)) : IDENTITY;
      links[s.child] = mul(mul(mul(X_RP, s.X_PJ), motion), s.X_JC);
    }
    return scene.frames.map((f, i) => (f.link < 0 ? f.offset : mul(links[f.link], f.offset)));
  }

  function updatePoses() {
    const poses = framePoses(q);
    frameGroups.forEach((g, i) => place(g, poses[i]));
    render();
  }

  // ---- Meshes ---------------------------------------------------------------------------------
  function embeddedMesh(index) {
    const text = JSON.parse($('interlink-meshes').textContent)[index];
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer();
  }
  function loadMesh(index) {
    if (!meshCache.has(index)) {
      // The meshes of the scene shown: a reload between fetching the scene and its meshes must
      // not give it another scene's (or none).
      const buffer = live ? fetch('mesh/' + index + '?scene=' + sceneVersion).then((r) => r.arrayBuffer()) : embeddedMesh(index);
      meshCache.set(index, buffer.then((data) => new Promise((resolve, reject) => new THREE.GLTFLoader().parse(data, '', (gltf) => resolve(gltf.scene), reject))));
    }
    return meshCache.get(index);
  }

  // ---- Geometry -----------------------------------------------------------------------------
  function material(shape, kind) {
    if (kind === 'collision') return new THREE.MeshStandardMaterial({ color: 0xe07020, transparent: true, opacity: 0.45, depthWrite: false });
    const c = shape.color;
    if (!c) return new THREE.MeshStandardMaterial({ color: 0xb4bcc6, roughness: 0.6, metalness: 0.1 });
    return new THREE.MeshStandardMaterial({ color: new THREE.Color(c[0], c[1], c[2]), transparent: c[3] < 1, opacity: c[3], roughness: 0.6, metalness: 0.1 });
  }
  const alongZ = (geometry) => geometry.rotateX(Math.PI / 2); // three.js builds round shapes along y
  function shapeObject(shape, kind, pending) {
    const g = shape.geometry, mat = material(shape, kind), group = new THREE.Group();
    const add = (geometry) => { const m = new THREE.Mesh(geometry, mat); group.add(m); return m; };
    switch (g.type) {
      case 'box': add(new THREE.BoxBufferGeometry(g.size[0], g.size[1], g.size[2])); break;
      case 'sphere': add(new THREE.SphereBufferGeometry(g.radius, 32, 16)); break;
      case 'cylinder': add(alongZ(new THREE.CylinderBufferGeometry(g.radius, g.radius, g.length, 32))); break;
      case 'cone': add(alongZ(new THREE.ConeBufferGeometry(g.radius, g.length, 32))); break;
      case 'capsule':
        add(alongZ(new THREE.CylinderBufferGeometry(g.radius, g.radius, g.length, 32, 1, true)));
        add(new THREE.SphereBufferGeometry(g.radius, 32, 16)).position.z = g.length / 2;
        add(new THREE.SphereBufferGeometry(g.radius, 32, 16)).position.z = -g.length / 2;
        break;
      case 'ellipsoid': add(new THREE.SphereBufferGeometry(1, 32, 16)).scale.set(g.radii[0], g.radii[1], g.radii[2]); break;
      case 'multi_sphere': for (const s of g.spheres) add(new THREE.SphereBufferGeometry(s.radius, 24, 12)).position.set(...s.center); break;
      case 'plane': {
        const size = g.plane_size[0] > 0 ? g.plane_size : [4, 4];
        const m = add(new THREE.PlaneBufferGeometry(size[0], size[1]));
        m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), new THREE.Vector3(...g.normal).normalize());
        mat.side = THREE.DoubleSide; break;
      }
      case 'mesh':
        group.scale.set(g.scale[0], g.scale[1], g.scale[2]);
        if (g.mesh >= 0) {
          pending.push(loadMesh(g.mesh).then((mesh) => {
            const copy = mesh.clone(true);
            copy.traverse((o) => { if (o.isMesh && (kind === 'collision' || shape.color)) o.material = mat; });
            group.add(copy);
            group.userData.meshLoaded = true;
          }, (error) => {
            // Drawn as a marker; the model stays usable. (Meshes Assimp cannot read are listed
            // in the diagnostics already.)
            group.add(new THREE.Mesh(new THREE.BoxBufferGeometry(0.02, 0.02, 0.02), mat));
            console.warn('interlink view: mesh ' + g.uri + ' could not be drawn', error);
          }));
        } else {
          add(new THREE.BoxBufferGeometry(0.02, 0.02, 0.02)); // the mesh could not be read: a marker
        }
        break;
      default: break;
    }
    return group;
  }

  function inertiaObject(link) {
    const group = new THREE.Group(), inertial = link.inertial;
    const bad = !inertial.valid;
    const box = new THREE.Mesh(new THREE.BoxBufferGeometry(...inertial.box_size.map((v) => Math.max(v, 1e-4))),
      new THREE.MeshBasicMaterial({ color: bad ? 0xd93025 : 0x2e7dd7, transparent: true, opacity: 0.25, depthWrite: false }));
    place(box, inertial.box_pose);
    const com = new THREE.Mesh(new THREE.SphereBufferGeometry(1, 16, 8), new THREE.MeshBasicMaterial({ color: bad ? 0xd93025 : 0x111111 }));
    com.position.set(...inertial.com);
    com.userData.isCom = true;
    group.add(box, com);
    return group;
  }

  // ---- Building a scene -------------------------------------------------------------------
  // A new scene is built hidden beside the one shown and replaces it once its meshes are in: a
  // reload never flashes a half-built model.
  let shownRoot = null, settled = Promise.resolve();
  function clearScene() {
    root = new THREE.Group(); root.visible = false; world.add(root);
    frameGroups = []; layers = { visual: [], collision: [], frames: [], axes: [], inertia: [] };
    pickables = []; treeItems = new Map(); meshCache = new Map(); dofIndex.clear();
  }

  function build(data, keep) {
    const previous = new Map();
    if (keep && scene) scene.dofs.forEach((d, i) => previous.set(d.name, q[i]));
    scene = data;
    clearScene();
    $('il-title').textContent = data.title + (data.ok ? '' : ' (failed to load)');
    const pending = [];
    frameGroups = data.frames.map((f) => { const g = new THREE.Group(); g.userData.frame = f; root.add(g); return g; });
    for (const link of data.links) {
      const g = frameGroups[link.frame];
      for (const kind of ['visual', 'collision']) {
        for (const shape of link[kind + 's'] || []) {
          const object = shapeObject(shape, kind, pending);
          const holder = new THREE.Group(); place(holder, shape.pose); holder.add(object);
          holder.userData.link = link.frame;
          holder.userData.plane = shape.geometry.type === 'plane';
          g.add(holder); layers[kind].push(holder); pickables.push(holder);
        }
      }
      // Only inertia the file gives: defaults standing in for an absent element are not the link's.
      if (link.inertial && link.inertial.given) { const inertia = inertiaObject(link); g.add(inertia); layers.inertia.push(inertia); }
      if (!(link.visuals || []).length) {
        // A link without visuals is still shown where it is: its frame axes, drawn with the visuals.
        const stub = new THREE.AxesHelper(1); stub.userData.stub = true; g.add(stub); layers.visual.push(stub);
      }
    }
    data.frames.forEach((f, i) => { if (i > 0) { const a = new THREE.AxesHelper(1); frameGroups[i].add(a); layers.frames.push(a); } });
    for (const joint of data.joints) {
      for (const axis of joint.axes) {
        const arrow = new THREE.ArrowHelper(new THREE.Vector3(...axis).normalize(), new THREE.Vector3(), 1, 0xc2185b);
        frameGroups[joint.frame].add(arrow); layers.axes.push(arrow);
      }
    }
    q = data.dofs.map((d, i) => { dofIndex.set(d.name, i); return previous.has(d.name) ? previous.get(d.name) : d.initial; });
    buildSliders(); buildTree(); showDiagnostics(data.diagnostics);
    applyVisibility();
    updatePoses();
    const building = root;
    settled = Promise.all(pending).then(() => {
      if (building !== root) return; // a newer scene replaced this one while its meshes loaded
      if (shownRoot) world.remove(shownRoot);
      shownRoot = root; root.visible = true;
      sizeMarkers(); if (!cameraPlaced) frameCamera(); cameraPlaced = true; applyVisibility(); render();
    });
    return settled;
  }

  // Frame axes, joint arrows and CoM spheres scale with the model.
  function modelSize() {
    const box = new THREE.Box3();
    // Ground planes are left out: the camera frames the robot, not the floor.
    for (const o of layers.visual.concat(layers.collision)) if (!o.userData.plane && !o.userData.stub) box.expandByObject(o);
    for (const l of scene.links) box.expandByPoint(new THREE.Vector3().setFromMatrixPosition(frameGroups[l.frame].matrixWorld));
    return box;
  }
  function sizeMarkers() {
    root.updateMatrixWorld(true);
    const size = modelSize().getSize(new THREE.Vector3()).length() || 1;
    for (const a of layers.frames.concat(layers.visual.filter((o) => o.userData.stub))) a.scale.setScalar(size * 0.06);
    if (grid) world.remove(grid);
    const step = Math.pow(10, Math.floor(Math.log10(size / 2)));
    grid = new THREE.GridHelper(step * 20, 20, 0xb8c0c8, 0xd5dbe1);
    grid.rotation.x = Math.PI / 2; // the XY plane: Z is up
    world.add(grid);
    for (const a of layers.axes) a.setLength(size * 0.1, size * 0.025, size * 0.015);
    for (const g of layers.inertia) g.traverse((o) => { if (o.userData.isCom) o.scale.setScalar(size * 0.008); });
  }
  function frameCamera() {
    root.updateMatrixWorld(true);
    const box = modelSize();
    const center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    const radius = box.isEmpty() ? 1 : Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.05);
    camera.near = radius / 100; camera.far = radius * 200; camera.updateProjectionMatrix();
    // The bounding sphere just fits the 45° view at 2.6 radii: a little more, from the front right.
    camera.position.copy(center).add(new THREE.Vector3(1.6, -2.2, 1.2).normalize().multiplyScalar(radius * 2.8));
    controls.target.copy(center); controls.update();
  }

  function applyVisibility() {
    for (const key of Object.keys(layers)) for (const o of layers[key]) o.visible = show[key];
    render();
  }

  // ---- Joint sliders (mimic joints follow their leader) ------------------------------------
  function jointOfDof(dof) { return scene.joints.find((j) => j.name === dof.joint); }
  function followMimics(given) {
    for (const joint of scene.joints) {
      if (!joint.mimic || joint.first_dof < 0 || given.has(joint.first_dof)) continue;
      const leader = scene.joints.find((j) => j.name === joint.mimic.joint);
      if (leader && leader.first_dof >= 0) q[joint.first_dof] = joint.mimic.multiplier * q[leader.first_dof] + joint.mimic.offset;
    }
  }
  function buildSliders() {
    const box = $('il-sliders'); box.innerHTML = ''; sliders = [];
    scene.dofs.forEach((dof, i) => {
      const joint = jointOfDof(dof) || {};
      const linear = /prismatic|translational/.test(joint.type) || (joint.type === 'free' && dof.index < 3) || (joint.type === 'planar' && dof.index < 2);
      const span = linear ? 1 : Math.PI;
      const lower = dof.lower === null || dof.lower < -1e6 ? -span : dof.lower, upper = dof.upper === null || dof.upper > 1e6 ? span : dof.upper;
      const row = document.createElement('div'); row.className = 'il-slider' + (joint.mimic ? ' il-mimic' : '');
      row.innerHTML = '<span></span><output></output><input type="range">';
      row.children[0].textContent = dof.name; row.children[0].title = dof.name;
      const input = row.children[2];
      input.min = lower; input.max = upper; input.step = (upper - lower) / 1000 || 0.001; input.value = q[i];
      input.addEventListener('input', () => { q[i] = Number(input.value); followMimics(new Set([i])); syncSliders(); updatePoses(); });
      box.appendChild(row); sliders.push(row);
    });
    syncSliders();
  }
  function syncSliders() {
    sliders.forEach((row, i) => { row.children[2].value = q[i]; row.children[1].textContent = q[i].toFixed(3); });
  }

  // ---- Kinematic tree, selection, hover ---------------------------------------------------------
  function buildTree() {
    const box = $('il-tree'); box.innerHTML = '';
    const childJoints = new Map();
    for (const j of scene.joints) { if (!j.loop_closure) { if (!childJoints.has(j.parent)) childJoints.set(j.parent, []); childJoints.get(j.parent).push(j); } }
    const attached = new Map();
    scene.frames.forEach((f, i) => { if (f.kind === 'frame' && f.link >= 0) { if (!attached.has(f.link)) attached.set(f.link, []); attached.get(f.link).push(i); } });
    const isChild = new Set(scene.joints.filter((j) => !j.loop_closure).map((j) => j.child));
    const item = (text, cls, index) => {
      const li = document.createElement('li'), div = document.createElement('div');
      div.textContent = text; if (cls) div.className = cls;
      if (index !== undefined) { treeItems.set(index, div); div.addEventListener('click', (e) => { e.stopPropagation(); select(index); }); }
      li.appendChild(div); return li;
    };
    const linkItem = (frame, via) => {
      const li = item(scene.frames[frame].name, '', frame);
      if (via) { const j = document.createElement('span'); j.className = 'il-joint'; j.textContent = '  \u2190 ' + via.type + ' ' + via.name; li.firstChild.appendChild(j); treeItems.set(via.frame, li.firstChild); }
      const ul = document.createElement('ul');
      for (const f of attached.get(frame) || []) ul.appendChild(item('\u00b7 ' + scene.frames[f].name, 'il-frame', f));
      for (const j of childJoints.get(frame) || []) ul.appendChild(linkItem(j.child, j));
      if (ul.children.length) li.appendChild(ul);
      return li;
    };
    const top = document.createElement('ul');
    for (const j of childJoints.get(-1) || []) top.appendChild(linkItem(j.child, j));
    for (const l of scene.links) if (!isChild.has(l.frame)) top.appendChild(linkItem(l.frame));
    box.appendChild(top);
  }

  const highlight = new THREE.Color(0xffb300);
  function select(frame) {
    for (const div of treeItems.values()) div.classList.remove('il-selected');
    for (const o of layers.visual.concat(layers.collision)) {
      o.traverse((m) => { if (m.isMesh && m.material.emissive) { m.material = m.material.clone(); m.material.emissive.setHex(0); } });
    }
    selectedLink = frame;
    const div = treeItems.get(frame);
    if (div) { div.classList.add('il-selected'); div.scrollIntoView({ block: 'nearest' }); }
    const linkFrame = frame >= 0 && scene.frames[frame] ? scene.frames[frame].link : -1;
    for (const o of layers.visual.concat(layers.collision)) {
      if (o.userData.link !== linkFrame) continue;
      o.traverse((m) => { if (m.isMesh && m.material.emissive) { m.material = m.material.clone(); m.material.emissive.copy(highlight).multiplyScalar(0.5); } });
    }
    render();
  }
  const raycaster = new THREE.Raycaster(), pointer = new THREE.Vector2();
  function pick(event) {
    const rect = renderer.domElement.getBoundingClientRect();
    pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    const hit = raycaster.intersectObjects(pickables.filter((o) => o.visible), true)[0];
    if (!hit) return null;
    let o = hit.object; while (o && o.userData.link === undefined) o = o.parent;
    return o ? o.userData.link : null;
  }
  let downAt = null;
  renderer.domElement.addEventListener('pointerdown', (e) => { downAt = [e.clientX, e.clientY]; });
  renderer.domElement.addEventListener('pointerup', (e) => {
    if (downAt && Math.hypot(e.clientX - downAt[0], e.clientY - downAt[1]) < 4) { const link = pick(e); select(link === null ? -1 : link); }
  });
  renderer.domElement.addEventListener('pointermove', (e) => {
    const link = scene ? pick(e) : null;
    if (link === null) { tooltip.style.display = 'none'; return; }
    tooltip.textContent = scene.frames[link].name; tooltip.style.display = 'block';
    tooltip.style.left = e.clientX + 12 + 'px'; tooltip.style.top = e.clientY + 12 + 'px';
  });

  // ---- Diagnostics, each on the element it names ---------------------------------------------
  function elementOf(d) {
    if (!d.file) return -1;
    let best = -1, bestLine = -1;
    const consider = (where, frame) => {
      if (!where || where.file !== d.file || !(where.line > 0) || where.line > d.line) return;
      if (where.line > bestLine) { bestLine = where.line; best = frame; }
    };
    scene.frames.forEach((f, i) => consider(f, i));
    for (const link of scene.links) {
      consider(link, link.frame);
      if (link.inertial) consider(link.inertial, link.frame);
      for (const s of (link.visuals || []).concat(link.collisions || [])) consider(s, link.frame);
    }
    for (const j of scene.joints) consider(j, j.frame);
    return best;
  }
  function showDiagnostics(list) {
    const box = $('il-diagnostics'); box.innerHTML = list.length ? '' : '<i>none</i>';
    for (const d of list) {
      const div = document.createElement('div'); div.className = d.severity;
      const where = d.file ? d.file.split('/').pop() + (d.line ? ':' + d.line : '') : '';
      div.innerHTML = '<code></code><br>'; div.firstChild.textContent = where + ' ' + d.severity + '[' + d.code + ']';
      div.appendChild(document.createTextNode(d.message));
      const element = elementOf(d);
      if (element >= 0) {
        div.addEventListener('click', () => select(element));
        const item = treeItems.get(element);
        if (item && !item.querySelector('.il-badge.' + d.severity)) {
          const badge = document.createElement('span'); badge.className = 'il-badge ' + d.severity; badge.title = d.message; item.appendChild(badge);
        }
      }
      box.appendChild(div);
    }
  }

  // ---- Drawing ---------------------------------------------------------------------------------
  function resize() {
    const w = viewDiv.clientWidth || 1, h = viewDiv.clientHeight || 1;
    renderer.setSize(w, h, false); camera.aspect = w / h; camera.updateProjectionMatrix(); render();
  }
  let frameRequested = false;
  function render() {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(() => { frameRequested = false; renderer.render(world, camera); });
  }
  controls.addEventListener('change', render);
  renderer.domElement.addEventListener('dblclick', () => { frameCamera(); render(); });
  window.addEventListener('resize', resize);
  resize();

  // ---- Loading, live reload, automation object ---------------------------------------------
  let version = 0, sceneVersion = 0, reloads = 0; // live mode: the server's reload count; that of the scene shown
  function fetchScene() {
    return fetch('scene.json').then((r) => { sceneVersion = Number(r.headers.get('X-Interlink-Version')); return r.json(); });
  }
  function start() {
    if (!live) return build(JSON.parse($('interlink-scene').textContent), false);
    return fetchScene().then((data) => { version = sceneVersion; return build(data, false); });
  }
  // The server answers /state?after=N once the model was reloaded after reload N (long polling).
  function follow() {
    fetch('state?after=' + version).then((r) => r.json()).then((state) => {
      version = state.version;
      if (state.failure.length) {
        banner.style.display = 'block';
        banner.textContent = 'The edited model does not load; the last good scene is shown.\n' +
          state.failure.map((d) => (d.file || '') + ':' + d.line + ': ' + d.severity + '[' + d.code + ']: ' + d.message).join('\n');
      } else {
        banner.style.display = 'none';
      }
      if (state.scene_version === sceneVersion) return null;
      return fetchScene().then((data) => build(data, true)).then(() => { reloads += 1; });
    }).then(() => follow(), () => setTimeout(follow, 1000)); // the server away: ask again in a second
  }
  const ready = start().then(() => new Promise((resolve) => requestAnimationFrame(() => { renderer.render(world, camera); resolve(); })));
  if (live) ready.then(follow);

  const frameIndex = (name) => scene.frames.findIndex((f) => f.name === name);
  window.interlink = {
    ready,
    /** DOF names in Interlink's DOF order (as `interlink frames --json` lists them). */
    dofs: () => scene.dofs.map((d) => d.name),
    /** Current value of every DOF by name. */
    positions: () => Object.fromEntries(scene.dofs.map((d, i) => [d.name, q[i]])),
    /** Sets DOFs by name (the others keep their values; mimic joints not named follow). */
    setPositions(values) {
      const given = new Set();
      for (const [name, value] of Object.entries(values)) {
        if (!dofIndex.has(name)) throw new Error('no DOF named ' + name);
        q[dofIndex.get(name)] = Number(value); given.add(dofIndex.get(name));
      }
      followMimics(given); syncSliders(); updatePoses();
    },
    /** Pose of a frame relative to the root (world or top model frame), as `interlink frames --json`. */
    pose(name) {
      const i = frameIndex(name);
      if (i < 0) throw new Error('no frame named ' + name);
      const p = framePoses(q)[i];
      return { position: p.t.slice(), quaternion_wxyz: quaternionWxyz(p.R) };
    },
    frames: () => scene.frames.slice(1).map((f) => f.name),
    diagnostics: () => scene.diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, file: d.file, line: d.line })),
    /** Selects a frame by name (as a click in the tree does); '' clears. */
    select: (name) => select(name ? frameIndex(name) : -1),
    /** Axis-aligned bounds in the root frame of a link's visuals or collisions: {min, max}. */
    bounds(link, kind) {
      root.updateMatrixWorld(true);
      const frame = frameIndex(link), box = new THREE.Box3();
      for (const o of layers[kind || 'visual']) if (o.userData.link === frame) box.expandByObject(o);
      return { min: box.min.toArray(), max: box.max.toArray() };
    },
    show(layer, on) { show[layer] = on; $('il-show-' + layer).checked = on; applyVisibility(); },
    /** Where a point of the root frame ([x, y, z]) is drawn, in the page's client coordinates. */
    screenPoint(point) {
      const rect = renderer.domElement.getBoundingClientRect(), p = new THREE.Vector3(...point).project(camera);
      return [rect.left + (p.x + 1) / 2 * rect.width, rect.top + (1 - p.y) / 2 * rect.height];
    },
    /** The name shown by the pointer ('' when none). */
    hovered: () => (tooltip.style.display === 'block' ? tooltip.textContent : ''),
    /** The selected link's name ('' when none). */
    selected: () => (selectedLink >= 0 && scene.frames[selectedLink] ? scene.frames[selectedLink].name : ''),
    /** Points the camera at the whole model (as a double click on the view does). */
    fit() { frameCamera(); render(); },
    /** A promise resolved once the scene shown is the newest and its meshes are drawn. */
    settled: () => settled.then(() => new Promise((resolve) => requestAnimationFrame(() => { renderer.render(world, camera); resolve(); }))),
    /** Live mode: how many times the scene was reloaded after an edit. */
    reloads: () => reloads,
    /** Live mode: the server's reload count last heard, and the reload that made the scene shown. */
    liveVersions: () => ({ version, sceneVersion }),
    liveFailure: () => banner.style.display === 'block' ? banner.textContent : '',
  };
})();
