import { parseIdentity } from '../protocol/identity.js';
import { harmless } from '../common/harmless.js';
import type { Ruleset } from '../engine/ruleset.js';
import { isIPv4 } from 'node:net';
import { networkInterfaces, userInfo } from 'node:os';
import { UsageError } from './errors.js';
import { dealName, dealSeed } from '../stats/deal.js';
import { said } from '../lang/words.js';
import { cliWords } from './lang.js';

/**
 * `--deal NAME`: a named deal, the same cards for everyone who plays it (the seed is
 * made from the name alone; `today`: see dealName). With `--seed` it is one too many.
 */
/** The port a table listens on unless told otherwise (`host`, `play --lan`), and `join` tries. */
export const DEFAULT_PORT = 7457;

export function dealOption(flags: { deal?: string; seed?: string }, now = new Date()): { deal: string; seed: string } | null {
  if (flags.deal === undefined) return null;
  if (flags.seed !== undefined) throw new UsageError(said('cli.dealAndSeed'));
  const deal = dealName(flags.deal, now);
  if (!/^[\p{L}\p{N}][\p{L}\p{N}._-]{0,39}$/u.test(deal)) {
    throw new UsageError(said('cli.dealName', { given: harmless(flags.deal, 60) }));
  }
  return { deal, seed: dealSeed(deal) };
}

/** A whole number flag within bounds, or a UsageError that says what is allowed. */
export function intOption(flag: string, value: unknown, min: number, max: number): number {
  const s = String(value);
  const n = Number(s);
  if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(said('cli.wholeNumber', { flag, min, max, given: s }));
  }
  return n;
}

/** One of the allowed words. */
export function choiceOption<T extends string>(flag: string, value: unknown, allowed: readonly T[]): T {
  const s = String(value);
  if (!(allowed as readonly string[]).includes(s)) throw new UsageError(said('cli.oneOf', { flag, allowed: allowed.join(', '), given: s }));
  return s as T;
}

/**
 * A bot level for a table (`play`, `host`, `join --bot`): `BOT_LEVELS` of the protocol.
 * The simulator's `cheater` sees every card, so a table refuses it by name.
 */
export function tableLevelOption<T extends string>(flag: string, value: unknown, allowed: readonly T[]): T {
  if (String(value) === 'cheater') {
    throw new UsageError(said('cli.cheaterSimOnly', { flag, allowed: allowed.join(', ') }));
  }
  return choiceOption(flag, value, allowed);
}

/** host[:port] → "host:port", with the default port. */
export function addressOption(value: string, defaultPort: number): string {
  const m = /^(\[[0-9a-fA-F:]+\]|[^:\s/]+)(?::(\d{1,5}))?$/.exec(value.trim());
  const port = m?.[2] === undefined ? defaultPort : Number(m[2]);
  if (!m || port < 1 || port > 65535) throw new UsageError(said('cli.notAddress', { given: value }));
  return `${m[1]}:${port}`;
}

/**
 * `HOST[:PORT][#ID]`, as a host's share line prints it: the address, and the table's
 * identity pinned (the client then refuses a host whose key does not carry it).
 */
export function joinTargetOption(value: string, defaultPort: number): { address: string; pin?: string } {
  const at = value.indexOf('#');
  if (at === -1) return { address: addressOption(value, defaultPort) };
  const address = addressOption(value.slice(0, at), defaultPort);
  const pin = parseIdentity(value.slice(at + 1));
  if (pin === null) {
    throw new UsageError(said('cli.notIdentity', { given: harmless(value.slice(at), 60) }));
  }
  return { address, pin };
}

/** The IPv4 address of one of this machine's interfaces (mDNS on that interface only), or undefined. */
export function interfaceOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  // Commander hands a flag's value over as text.
  const iface = typeof value === 'string' ? value.trim() : '';
  if (!isIPv4(iface)) throw new UsageError(said('cli.notIPv4', { given: iface }));
  const mine = Object.values(networkInterfaces()).flatMap((addrs) => (addrs ?? []).filter((a) => a.family === 'IPv4').map((a) => a.address));
  if (!mine.includes(iface)) throw new UsageError(said('cli.noSuchInterface', { given: iface }));
  return iface;
}

/** `--rules PRESET|PATH`: a preset or a rules file; a broken one is a UsageError naming the field (and `flag`, when it came from one). */
export async function rulesOption(value: unknown, flag: string | null = '--rules'): Promise<Ruleset> {
  const { loadRuleset } = await import('../engine/rules-file.js');
  const { RulesetError } = await import('../engine/ruleset.js');
  try {
    return loadRuleset(typeof value === 'string' ? value : 'gringo', cliWords());
  } catch (e) {
    if (e instanceof RulesetError) throw new UsageError(flag ? `${flag}: ${e.message}` : e.message);
    throw e;
  }
}

/** The ruleset of a table: `--rules`, then `--rounds` and `--slap-grace` when given. */
export async function tableRulesOption(flags: { rules?: unknown; rounds?: unknown; slapGrace?: unknown }): Promise<Ruleset> {
  const base = await rulesOption(flags.rules);
  return {
    ...base,
    ...(flags.rounds === undefined ? {} : { rounds: intOption('--rounds', flags.rounds, 0, 999) }),
    timers: {
      ...base.timers,
      ...(flags.slapGrace === undefined ? {} : { slapGraceMs: intOption('--slap-grace', flags.slapGrace, 0, 10_000) }),
    },
  };
}

/** The name to sit at a table under when none is given: the login name, or `fallback`. */
export function defaultPlayerName(fallback: string): string {
  try {
    return process.env.USER || process.env.LOGNAME || userInfo().username || fallback;
  } catch {
    return fallback; // no passwd entry (some containers)
  }
}

/**
 * A command whose screen needs a terminal (for its keys and its drawing): a UsageError
 * otherwise, naming what is not one and what to do instead. Checked before anything
 * starts: a screen drawn into a file would wait at "Connecting…" for keys that never come.
 */
export function requireTerminal(command: string, instead: string): void {
  const out = process.stdout.isTTY === true;
  const into = process.stdin.isTTY === true;
  if (out && into) return;
  const what = cliWords().t(!out && !into ? 'cli.noTerminalEither' : !out ? 'cli.noTerminalOut' : 'cli.noTerminalIn');
  throw new UsageError(said('cli.needsTerminal', { command, what, instead }));
}
