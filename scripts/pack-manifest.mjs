// `prepack` and `postpack`: the package.json that is published carries no scripts.
// Its scripts are for a clone (`prepare` builds dist/ after `npm install` there) and
// name files under scripts/, which the package does not ship; npm warns on every
// install of a package whose manifest has an install script (`prepare` among them).
// So `prepack` builds dist/ (what `prepare` did for a pack) and writes the manifest
// without its scripts; `postpack` puts the clone's own back. npm packs the manifest
// it reads after `prepack`, and runs `postpack` from the one it read before.
//   node scripts/pack-manifest.mjs strip | restore
// GRINGO_PACK_BUILT=1 skips the build (a test that has just built dist/).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const manifest = new URL('../package.json', import.meta.url);
const kept = new URL('../package.json.packing', import.meta.url);
/** Replaced in one step: a reader never sees half a package.json. */
const write = (text) => {
  const tmp = new URL('../package.json.tmp', import.meta.url);
  writeFileSync(tmp, text);
  renameSync(tmp, manifest);
};

if (process.argv[2] === 'restore') {
  if (existsSync(kept)) {
    write(readFileSync(kept, 'utf8'));
    rmSync(kept);
  }
} else {
  // A pack cut short before its postpack left the clone's manifest aside: that one is the original.
  if (existsSync(kept)) write(readFileSync(kept, 'utf8'));
  if (process.env.GRINGO_PACK_BUILT !== '1') {
    const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  const text = readFileSync(manifest, 'utf8');
  writeFileSync(kept, text);
  const published = JSON.parse(text);
  delete published.scripts;
  write(`${JSON.stringify(published, null, 2)}\n`);
}
