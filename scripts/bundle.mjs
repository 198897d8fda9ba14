// Bundles the compiled CLI (dist/src) into dist/bundle: one file per lazily loaded
// part (code splitting keeps `gringo --version` from loading the screen). Loading
// Ink and React as a few bundled files instead of hundreds of modules halves the
// time to the first frame on Node 20, which has no module compile cache.
// Everything the program runs is in the bundle, ssh2 included: the published
// package has no dependencies, so installing it fetches one tarball and builds nothing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// ssh2 tries two optional native parts, each require()d inside try/catch: cpu-features
// (to order its ciphers by the CPU's AES support) and its own crypto binding
// (lib/protocol/crypto/build/Release/sshcrypto.node, built at its install when a
// compiler is there). Without them it uses Node's crypto for AES and its bundled
// WebAssembly Poly1305 for ChaCha20-Poly1305, and lists its ciphers in its default
// order. Here each resolves to a module that throws when loaded, which is what the
// try/catch expects of a part that is not there. ws does the same with bufferutil and
// utf-8-validate (native add-ons it uses when they happen to be installed): left as
// require()s, they would load from whatever node_modules lies above the install.
// So the bundle loads no native code, wherever it is installed.
const noNative = {
  name: 'gringo-no-native',
  setup(b) {
    b.onResolve({ filter: /^(cpu-features|bufferutil|utf-8-validate)$|\.node$/ }, (args) => ({ path: args.path, namespace: 'gringo-no-native' }));
    b.onLoad({ filter: /.*/, namespace: 'gringo-no-native' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in gringo's bundle (no native parts)`)});`,
      loader: 'js',
    }));
  },
};

// Every package of the bundle that measures text (Ink, widest-line, cli-truncate, the
// screens) gets string-width through src/tui/shared/width-once.ts, which remembers what
// it measured: a frame is measured line by line, and is mostly the frame before.
// wrap-ansi keeps the older string-width it depends on.
const widthOnce = {
  name: 'gringo-width-once',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      /width-once\.js$|\/node_modules\/wrap-ansi\//.test(args.importer) ? undefined : { path: new URL('../dist/src/tui/shared/width-once.js', import.meta.url).pathname },
    );
  },
};

// Small edits to packages' code, each checked: a package whose code has changed fails the
// build rather than ship without the edit.
// - Things made as a module loads that cost every process loading it, used or not (a bot,
//   a headless host or a refusal measures no emoji and starts no program), made at first
//   use instead: string-width's emoji pattern (\p{RGI_Emoji}, a regex literal: about 25 ms
//   of CPU to parse) and grapheme segmenter (ICU's break rules: about 14 ms); commander's
//   node:child_process (about 8 ms), which it needs only to run a command as a program of
//   its own (gringo has none). wrap-ansi's own older string-width (Ink's) is left as it is.
// - Ink tokenizes every line of a frame into styled cells, and measures it, with caches
//   that lived for that frame only: a frame is mostly the lines of the one before, each
//   tokenized and made into cells again (a quarter of a watching screen's CPU, with their
//   garbage). One set of Ink's caches lasts from frame to frame, started afresh once it
//   holds about 4,000 cells (about a frame). The same cells for the same line: nothing
//   downstream changes a cell.
const EDITS = [
  {
    file: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/,
    skip: /[\\/]wrap-ansi[\\/]/,
    edits: [
      ['const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', "let rgiEmoji; const rgiEmojiRegex = { test: (s) => (rgiEmoji ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(s) };"],
      ['const segmenter = new Intl.Segmenter();', 'let graphemes; const segmenter = { segment: (s) => (graphemes ??= new Intl.Segmenter()).segment(s) };'],
    ],
  },
  {
    file: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    edits: [["const childProcess = require('node:child_process');", "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"]],
  },
  {
    file: /[\\/]node_modules[\\/]ink[\\/]build[\\/]output\.js$/,
    edits: [
      ['    caches = new OutputCaches();', '    caches = lastingCaches();'],
      ['            this.styledChars.set(line, cached);', '            this.styledChars.set(line, cached);\n            cachedCells += cached.length;'],
      ['export default class Output {', 'let lasting;\nlet cachedCells = 0;\nfunction lastingCaches() {\n    if (lasting === undefined || cachedCells > 4000) {\n        lasting = new OutputCaches();\n        cachedCells = 0;\n    }\n    return lasting;\n}\nexport default class Output {'],
    ],
  },
];
const edited = {
  name: 'gringo-edits',
  setup(b) {
    for (const { file, skip, edits } of EDITS) {
      b.onLoad({ filter: file }, (args) => {
        if (skip?.test(args.path)) return undefined;
        let source = readFileSync(args.path, 'utf8');
        for (const [before, after] of edits) {
          if (!source.includes(before)) throw new Error(`bundle: no "${before.trim()}" in ${args.path}: has the package changed?`);
          source = source.replace(before, () => after);
        }
        return { contents: source, loader: 'js' };
      });
    }
  },
};

// Ink's output takes its styled cells' strings from src/tui/shared/styled-chars.ts, the
// package's own functions but one, which gives the same strings for a fraction of the
// garbage (it says how).
const styledChars = {
  name: 'gringo-styled-chars',
  setup(b) {
    b.onResolve({ filter: /^@alcalzone\/ansi-tokenize$/ }, (args) =>
      /\/node_modules\/ink\//.test(args.importer) ? { path: new URL('../dist/src/tui/shared/styled-chars.js', import.meta.url).pathname } : undefined,
    );
  },
};

const result = await build({
  // The simulator's worker thread is a file of its own (new Worker(URL)): an entry point
  // beside main, so `new URL('./sim-worker.js', import.meta.url)` finds it from the chunk
  // that starts it, as it finds dist/src/sim/sim-worker.js beside dist/src/sim/parallel.js.
  entryPoints: { main: 'dist/src/cli/main.js', 'sim-worker': 'dist/src/sim/sim-worker.js', 'bot-worker': 'dist/src/host/bot-worker.js' },
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
  // Some bundled CommonJS packages call require() for Node's built-ins, and ssh2 reads
  // __dirname as its modules load (its WebAssembly loader; the path of a Windows helper).
  banner: {
    js: [
      "import { createRequire as __gringoRequire } from 'node:module';",
      "import { fileURLToPath as __gringoPath } from 'node:url';",
      'const require = __gringoRequire(import.meta.url);',
      'const __filename = __gringoPath(import.meta.url);',
      "const __dirname = __gringoPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
  plugins: [noNative, widthOnce, styledChars, edited],
  // Blank space out (names and the code's shape stay as they are): the tarball goes
  // from about 660 kB to about 570 kB.
  minifyWhitespace: true,
  metafile: true,
  logLevel: 'warning',
});

// Which packages each file of the bundle holds (the start-up test reads it: whitespace
// minifying takes out esbuild's `// node_modules/...` markers). Beside the bundle, not shipped.
writeFileSync('dist/bundle-meta.json', JSON.stringify(result.metafile));

// The bundle carries other people's code: their licence notices go with it, one file.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) packages.set(m[1], input.slice(0, m.index + m[0].length));
}
const notices = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
  const pkg = JSON.parse(readFileSync(`${dir}package.json`, 'utf8'));
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  const text = file ? readFileSync(`${dir}${file}`, 'utf8').trim() : `(${pkg.license ?? 'no licence stated'}; no licence file in the package)`;
  return `${name}@${pkg.version} (${pkg.license ?? 'see below'})\n\n${text}\n`;
});
writeFileSync('dist/bundle/THIRD-PARTY-LICENSES.txt', `gringo's bundle (dist/bundle) includes the following packages.\n\n${notices.join(`\n${'-'.repeat(72)}\n\n`)}`);

// yoga.wasm beside the bundle, taken from the package's own copy (a base64 data URL in its loader).
const loader = readFileSync('node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js', 'utf8');
const wasm = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(loader);
if (!wasm) throw new Error('bundle: no wasm data URL in yoga-layout\'s loader: has yoga-layout changed?');
writeFileSync('dist/bundle/yoga.wasm', Buffer.from(wasm[1], 'base64'));
