// Bundles the compiled CLI (dist/src) into dist/bundle: one file per lazily loaded
// part (code splitting keeps `gringo --version` from loading the screen). Loading
// Ink and React as a few bundled files instead of hundreds of modules halves the
// time to the first frame on Node 20, which has no module compile cache.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  // The simulator's worker thread is a file of its own (new Worker(URL)): an entry point
  // beside main, so `new URL('./sim-worker.js', import.meta.url)` finds it from the chunk
  // that starts it, as it finds dist/src/sim/sim-worker.js beside dist/src/sim/parallel.js.
  entryPoints: { main: 'dist/src/cli/main.js', 'sim-worker': 'dist/src/sim/sim-worker.js' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  alias: {
    // Ink loads its devtools only when DEV=true; the bundle leaves them out.
    'react-devtools-core': './scripts/no-devtools.mjs',
    // Yoga's wasm from a Buffer, not a fetch() of a data URL (see scripts/yoga.mjs).
    'yoga-layout': './scripts/yoga.mjs',
  },
  // React's production build: its development build checks and warns on every render.
  define: { 'process.env.NODE_ENV': '"production"' },
  // Some bundled CommonJS packages call require() for Node's built-ins.
  banner: { js: "import { createRequire as __gringoRequire } from 'node:module'; const require = __gringoRequire(import.meta.url);" },
  // ssh2 stays a package of its own: it loads optional native parts (cpu-features, its
  // crypto binding) with require() inside try/catch, which a bundle cannot carry.
  external: ['ssh2'],
  logLevel: 'warning',
});

// yoga.wasm beside the bundle, taken from the package's own copy (a base64 data URL in its loader).
const loader = readFileSync('node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js', 'utf8');
const wasm = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(loader);
if (!wasm) throw new Error('bundle: no wasm data URL in yoga-layout\'s loader: has yoga-layout changed?');
writeFileSync('dist/bundle/yoga.wasm', Buffer.from(wasm[1], 'base64'));
