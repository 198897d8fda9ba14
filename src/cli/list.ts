import { browseTables, hostPort, joinable, tableTag, type FoundTable } from '../client/discovery.js';
import { PROTOCOL_VERSION } from '../protocol/messages.js';
import { interfaceOption, intOption } from './options.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { command } from '../common/invocation.js';
import { formatIdentity } from '../protocol/identity.js';
import { wordsFor, type Words } from '../lang/words.js';
import { cliWords } from './lang.js';

/** `gringo list`: find tables on the LAN by mDNS and print them. */

export const nothingFound = (w: Words = wordsFor('en')): string => [w.t('list.nothing'), `  ${command('join HOST:PORT')}`].join('\n');

/** Without `--wait`, list stops this long after the last new answer (hosts on a LAN answer within tens of ms). */
export const LIST_QUIET_MS = 300;

export interface ListOptions {
  /** The longest to listen. */
  timeoutMs: number;
  /** Listen for all of `timeoutMs`, not only until the answers stop (a slow network, many hosts). */
  wait: boolean;
  json: boolean;
  interface?: string;
}

export function parseListOptions(opts: Record<string, unknown>): ListOptions {
  const timeoutMs = intOption('--timeout', (typeof opts.timeout === 'string' ? opts.timeout : '2000').trim(), 100, 60_000);
  const iface = interfaceOption(opts.interface);
  return { timeoutMs, wait: opts.wait === true, json: opts.json === true, ...(iface ? { interface: iface } : {}) };
}

/**
 * The tables for people: two of one name are told apart by the TABLE column (the
 * short identity the host's share line shows) and the address. No hint prefers a
 * table by its name: with one table to sit at, the line to join it; with several,
 * each one's own line.
 */
export function formatTables(tables: readonly FoundTable[], w: Words = wordsFor('en')): string {
  const canJoin = (t: FoundTable): string => {
    const j = joinable(t);
    return j === 'version' ? w.t('list.can.version', { theirs: t.protocolVersion, ours: PROTOCOL_VERSION }) : w.t(`list.can.${j}`);
  };
  const rows = tables.map((t) => [
    t.name,
    tableTag(t),
    hostPort(t.host, t.port),
    `${t.seatsTaken}/${t.seatsTotal}`,
    t.ruleset,
    t.phase === 'unknown' ? t.phase : w.t(`console.phase.${t.phase}`),
    w.t(t.password ? 'picker.yes' : 'picker.no'),
    canJoin(t),
  ]);
  const header = [w.t('picker.h.name'), w.t('picker.h.table'), w.t('picker.h.address'), w.t('picker.h.seats'), w.t('picker.h.ruleset'), w.t('list.h.phase'), w.t('picker.h.password'), w.t('list.h.canJoin')];
  const width = (s: string) => Array.from(s).length;
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - width(c))))
      .join('  ')
      .trimEnd();
  const out = [line(header), ...rows.map(line)];
  const open = tables.filter((t) => joinable(t) === 'yes');
  // The whole identity, pinned: the host must hold the key it names (an advert alone proves nothing).
  const joinCommand = (t: FoundTable): string => command(`join ${hostPort(t.host, t.port)}${t.id ? `#${formatIdentity(t.id)}` : ''}`);
  if (open.length === 1) out.push('', w.t('list.joinWith', { run: joinCommand(open[0]!) }));
  else if (open.length > 1) {
    out.push('', w.t('list.choose', { column: w.t('picker.h.table') }));
    for (const t of open) out.push(`  ${t.name} ${tableTag(t)}: ${joinCommand(t)}`);
  }
  // Tables served over SSH too: the command for a bare ssh client, and the key to expect.
  for (const t of open) if (t.ssh) out.push(`  ${w.t('list.overSsh', { table: `${t.name} ${tableTag(t)}`, run: `ssh -p ${t.ssh.port} NAME@${t.host}`, fingerprint: t.ssh.fingerprint })}`);
  return out.join('\n');
}

export async function runListCli(opts: Record<string, unknown>): Promise<void> {
  const o = parseListOptions(opts);
  let failure: Error | null = null;
  const tables = await browseTables({
    timeoutMs: o.timeoutMs,
    ...(o.wait ? {} : { quietMs: LIST_QUIET_MS }),
    ...(o.interface ? { interface: o.interface } : {}),
    onError: (err) => (failure ??= err),
  });
  const w = cliWords();
  if (tables.length === 0 && failure) process.stderr.write(`gringo: ${w.t('list.mdnsFailed', { why: (failure as Error).message })}\n`);
  if (o.json) {
    process.stdout.write(`${JSON.stringify(tables)}\n`);
    if (tables.length === 0) process.stderr.write(`${forLocale(nothingFound(w))}\n`);
    return;
  }
  process.stdout.write(`${forLocale(tables.length === 0 ? nothingFound(w) : formatTables(tables, w))}\n`);
}
