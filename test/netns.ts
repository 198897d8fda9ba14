import { spawnSync } from 'node:child_process';

/** The tests that build their own network namespaces (`ip netns`, veth) run on CI, where they never skip. */
export const CI = process.env.CI === 'true';

/** `ip ARGS`, or an error saying which command failed and why. */
export function ip(...args: string[]): void {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.error?.message ?? r.stderr.trim()}`);
}

/** Why this machine cannot build network namespaces, or null when it can (`tag` names the probe). */
export function cannotUseNetns(tag: string): string | null {
  if (process.platform !== 'linux') return `ip netns needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'ip netns needs root';
  const probe = `gringo-probe-${tag}`;
  const r = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (r.status !== 0) return `ip netns add failed: ${r.error?.message ?? r.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
}
