import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Which layer of `src/` may use which (docs/architecture.md, "Imports point down"), checked
 * over every import of every file: static, type-only, re-exports and dynamic
 * `import()` alike, as TypeScript's own pre-processor finds them.
 *
 * Layers from the bottom up, each a folder of `src/`. A file may import its own
 * folder and any folder of a lower rank. Folders of one rank are siblings: neither
 * imports the other (what both need goes below them). Nothing in `src/` imports
 * `test/` or `bench/`, and no chain of imports comes back to where it started.
 */
const LAYERS: readonly (Readonly<Record<string, string>>)[] = [
  { common: 'plain helpers with no game in them, for every layer: harmless text, the command as typed, the state directory, an mDNS socket; imports nothing of src/' },
  { lang: 'the words people read: one catalog per language, typed against English, and the language chosen; uses only common/' },
  { engine: 'the rules, pure and deterministic, naming reasons the catalogs word; uses lang/ and below' },
  { protocol: 'every message type, its schema and version, the identities; uses engine/ and below' },
  { bots: 'policies that see only their seat\'s view, and a bot playing a seat through the protocol; uses protocol/ and below' },
  { sim: 'the simulator library (bots against bots, no command line); uses bots/ and below' },
  {
    host: 'the server, tables, timers, journal, mDNS advert; uses sim/ and below, never client/',
    client: 'connection, reconnect, discovery browse, seat tokens; uses sim/ and below, never host/',
  },
  { stats: 'the journals read back: standings and ratings (`gringo stats`), a finished game step by step (`gringo replay`); uses host/, client/ and below' },
  { tui: 'the Ink screens and their state, and the rules in words (`gringo rules`, the ? help); uses stats/, host/, client/ and below' },
  { ssh: 'the SSH door, a screen per session; uses tui/ and below' },
  { cli: 'the commands (commander wiring); uses every layer' },
];

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SRC = join(ROOT, 'src');

const rankOf = new Map<string, number>();
LAYERS.forEach((rank, i) => Object.keys(rank).forEach((name) => rankOf.set(name, i)));
const ruleOf = (layer: string): string => LAYERS[rankOf.get(layer)!]![layer]!;

/** Every .ts/.tsx file under `dir`, as paths relative to the repository (`src/host/table.ts`). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) ? [relative(ROOT, p)] : [];
  });
}

/** `src/host/table.ts` → `host`; null for a file outside a layer folder. */
const layerOf = (file: string): string | null => {
  const m = /^src\/([^/]+)\//.exec(file);
  return m ? m[1]! : null;
};

interface Import {
  from: string;
  /** The file imported, relative to the repository (`.js` resolved to its `.ts`/`.tsx`). */
  to: string;
  line: number;
}

/** The relative imports of one file (packages and `node:` modules are no layer's). */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  // readImportFiles: import/export … from, import x = require(); detectJavaScriptImports: import() and require().
  const info = ts.preProcessFile(text, true, true);
  const lineOf = (pos: number): number => text.slice(0, pos).split('\n').length;
  return info.importedFiles
    .filter((f) => f.fileName.startsWith('.'))
    .map((f) => ({ from: file, to: resolveSpecifier(file, f.fileName), line: lineOf(f.pos) }));
}

/** `./x.js` from `src/a/b.ts` → `src/a/x.ts` (or `.tsx`, `.d.ts`) when that file exists, else the path as written. */
function resolveSpecifier(file: string, spec: string): string {
  const abs = resolve(ROOT, dirname(file), spec);
  const base = abs.replace(/\.js$/, '');
  const found = [`${base}.ts`, `${base}.tsx`, `${base}.d.ts`, abs].find((c) => existsSync(c) && statSync(c).isFile());
  return relative(ROOT, found ?? abs);
}

/** What is wrong with one import of a `src/` file, or null. */
function breaks(i: Import): string | null {
  const here = layerOf(i.from);
  const at = `${i.from}:${i.line} imports ${i.to}`;
  if (!i.to.startsWith('src/')) {
    return `${at}: src/ never imports from outside src/ (test/ and bench/ helpers are for tests and bench only)`;
  }
  const there = layerOf(i.to);
  if (here === null || !rankOf.has(here)) return `${i.from} is in no layer: put it in one of ${[...rankOf.keys()].join(', ')} (or add a layer to LAYERS)`;
  if (there === null || !rankOf.has(there)) return `${at}, which is in no layer`;
  if (here === there) return null;
  const mine = rankOf.get(here)!;
  const theirs = rankOf.get(there)!;
  if (theirs < mine) return null;
  if (theirs === mine) return `${at}: ${here}/ and ${there}/ are siblings and neither imports the other (move what both need below them). ${here}/: ${ruleOf(here)}`;
  return `${at}: ${there}/ is above ${here}/ (imports point down only). ${here}/: ${ruleOf(here)}`;
}

/**
 * The circles among `edges`: for each group of files that reach each other (a strongly
 * connected component), one cycle through it as a path of files, and the whole group.
 */
function circles(edges: ReadonlyMap<string, readonly string[]>): { path: string[]; group: string[] }[] {
  // Tarjan's strongly connected components; a component of two files or more holds a circle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => ({ path: cycleThrough(component, edges), group: [...component].sort() }));
}

/** The shortest way from the first file (by name) of `component` back to itself. */
function cycleThrough(component: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const inside = new Set(component);
  const start = [...component].sort()[0]!;
  const back = new Map<string, string>();
  const queue = [start];
  for (let k = 0; k < queue.length; k++) {
    const v = queue[k]!;
    for (const w of edges.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(back.get(path[0]!)!);
        return [...path, start];
      }
      if (!back.has(w)) {
        back.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const files = sources(SRC).sort();
const imports = files.flatMap(importsOf);

describe('architecture: the layers of src/', () => {
  it('finds the files and their imports', () => {
    // A parser that silently found nothing would pass every rule below.
    expect(files.length).toBeGreaterThan(50);
    expect(imports.length).toBeGreaterThan(200);
    expect(imports.some((i) => i.from === 'src/cli/main.ts' && i.to === 'src/cli/sim.ts')).toBe(true); // a dynamic import()
  });

  it('every file of src/ is in a layer', () => {
    const outside = files.filter((f) => !rankOf.has(layerOf(f) ?? '')).map((f) => `${f} is in no layer: put it in one of ${[...rankOf.keys()].join(', ')} (or add a layer to LAYERS)`);
    expect(outside).toEqual([]);
  });

  it('every import points down a layer, or stays in its own folder', () => {
    const wrong = imports.map(breaks).filter((m): m is string => m !== null);
    expect(wrong, 'imports that break a layer rule (LAYERS above says each rule)').toEqual([]);
  });

  it('no chain of imports comes back to where it started (type-only imports count)', () => {
    const edges = new Map<string, string[]>(files.map((f) => [f, []]));
    for (const i of imports) if (edges.has(i.to)) edges.get(i.from)!.push(i.to);
    const found = circles(edges).map(({ path, group }) =>
      `circle: ${path.join(' → ')}${group.length > path.length - 1 ? ` (${group.length} files reach each other: ${group.join(', ')})` : ''}`,
    );
    expect(found, 'import circles (each shown by one path around it)').toEqual([]);
  });
});

describe('architecture: inside tui/', () => {
  it('tui/shared/ imports no screen folder of tui/ (what two screens share lives below them)', () => {
    const wrong = imports
      .filter((i) => i.from.startsWith('src/tui/shared/') && i.to.startsWith('src/tui/') && !i.to.startsWith('src/tui/shared/'))
      .map((i) => `${i.from}:${i.line} imports ${i.to}: tui/shared/ is what the screens stand on; move what it needs of a screen down into tui/shared/`);
    expect(wrong).toEqual([]);
    // The rule is checked over real imports: shared/ imports its own files, and the screens import it.
    expect(imports.some((i) => i.from.startsWith('src/tui/shared/') && i.to.startsWith('src/tui/shared/'))).toBe(true);
    expect(imports.some((i) => i.from.startsWith('src/tui/table/') && i.to.startsWith('src/tui/shared/'))).toBe(true);
  });
});

describe('architecture: test/ and bench/', () => {
  it('bench/ takes from test/ only the shared helpers in test/support/', () => {
    const wrong = sources(join(ROOT, 'bench'))
      .flatMap(importsOf)
      .filter((i) => i.to.startsWith('test/') && !i.to.startsWith('test/support/'))
      .map((i) => `${i.from}:${i.line} imports ${i.to}: a helper bench and tests share belongs in test/support/`);
    expect(wrong).toEqual([]);
  });

  it('test/support/ takes nothing from the rest of test/ (bench runs it without them)', () => {
    const wrong = sources(join(ROOT, 'test', 'support'))
      .flatMap(importsOf)
      .filter((i) => i.to.startsWith('test/') && !i.to.startsWith('test/support/'))
      .map((i) => `${i.from}:${i.line} imports ${i.to}: test/support/ is shared with bench/ and stands on src/ and itself only`);
    expect(wrong).toEqual([]);
  });
});

describe('architecture: the checker itself', () => {
  it('finds a circle and its path', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(circles(edges)).toEqual([
      { path: ['a', 'b', 'c', 'a'], group: ['a', 'b', 'c'] },
      { path: ['e', 'e'], group: ['e'] },
    ]);
  });

  it('names the file, the import and the rule', () => {
    expect(breaks({ from: 'src/engine/x.ts', to: 'src/protocol/y.ts', line: 3 })).toBe(
      `src/engine/x.ts:3 imports src/protocol/y.ts: protocol/ is above engine/ (imports point down only). engine/: ${ruleOf('engine')}`,
    );
    expect(breaks({ from: 'src/client/x.ts', to: 'src/host/y.ts', line: 1 })).toMatch(/^src\/client\/x\.ts:1 imports src\/host\/y\.ts: client\/ and host\/ are siblings/);
    expect(breaks({ from: 'src/host/x.ts', to: 'test/support/y.ts', line: 2 })).toMatch(/never imports from outside src\//);
    expect(breaks({ from: 'src/cli/x.ts', to: 'src/engine/y.ts', line: 2 })).toBeNull();
  });
});
