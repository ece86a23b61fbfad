// What the solution pages (web/viewer.js) take from three.js, bundled by
// web/build-vendor.mjs into vendor/three.min.js, a plain script that sets
// the global THREE (the page inlines it; no module loading from file://).
export {
  AmbientLight,
  BoxGeometry,
  Box3,
  Color,
  DirectionalLight,
  EdgesGeometry,
  Group,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
export { OrbitControls } from 'three/addons/controls/OrbitControls.js';
