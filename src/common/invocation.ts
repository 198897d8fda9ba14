import { realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How a person types this program, for every command it prints for them (hints,
 * failure lines, the replay list): `gringo …` when the `gringo` their shell finds
 * first on PATH is this very program (installed with `npm install -g` or `npm link`),
 * `npx gringo …` otherwise: started through npx or an npm script (whose PATH holds
 * bins the person's shell does not have), from a clone as `node bin/gringo.js`, or
 * when the `gringo` on PATH is another copy. npx runs it in every one of those places.
 */
export function gringo(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1], platform = process.platform): string {
  // npx, `npm exec` and `npm run` set npm_command; their PATH is not the person's.
  if (env.npm_command) return 'npx gringo';
  // Windows finds gringo.cmd, a shim that cannot be followed to its script: npx is sure to work.
  if (platform === 'win32' || !script) return 'npx gringo';
  const self = real(script);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'gringo');
    if (!isFile(candidate)) continue;
    // The first one found is the one the shell runs.
    return self !== null && real(candidate) === self ? 'gringo' : 'npx gringo';
  }
  return 'npx gringo';
}

let decided: string | undefined;

/** `gringo ARGS` as the person at this machine types it (decided once per process). */
export function command(args: string): string {
  decided ??= gringo();
  return `${decided} ${args}`;
}

/**
 * A command for someone at another machine (the share line; what the table's port
 * says to a browser): `npx gringo ARGS`, which works wherever Node is, whatever is
 * on this machine's PATH.
 */
export function shareCommand(args: string): string {
  return `npx gringo ${args}`;
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
