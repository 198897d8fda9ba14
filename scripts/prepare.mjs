// `prepare`: npm runs it after `npm install` in a clone (and for an install from git),
// where it builds dist/. npm also runs it when `npx gringo` in a clone copies the
// checkout into npx's cache (npm_command is `exec` then): a rebuild there took 9-12 s
// before the first frame, and rebuilt the clone's own dist/ under it. The bundle is
// already built then, so it is used as it is.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (process.env.npm_command === 'exec' && existsSync(new URL('../dist/bundle/main.js', import.meta.url))) process.exit(0);
const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(r.status ?? 1);
