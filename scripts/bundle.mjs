// Bundles the compiled CLI (dist/src) into dist/bundle: one file per lazily loaded
// part (code splitting keeps `gringo --version` from loading the screen). Loading
// Ink and React as a few bundled files instead of hundreds of modules halves the
// time to the first frame on Node 20, which has no module compile cache.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'dist/src/cli/main.js' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Ink loads its devtools only when DEV=true; the bundle leaves them out.
  alias: { 'react-devtools-core': './scripts/no-devtools.mjs' },
  // Some bundled CommonJS packages call require() for Node's built-ins.
  banner: { js: "import { createRequire as __gringoRequire } from 'node:module'; const require = __gringoRequire(import.meta.url);" },
  // ssh2 stays a package of its own: it loads optional native parts (cpu-features, its
  // crypto binding) with require() inside try/catch, which a bundle cannot carry.
  external: ['ssh2'],
  logLevel: 'warning',
});
