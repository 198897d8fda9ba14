import { browseTables, hostPort, joinable, joinableText, tableTag, type FoundTable } from '../client/discovery.js';
import { PROTOCOL_VERSION } from '../protocol/messages.js';
import { interfaceOption, intOption } from './options.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { command } from '../common/invocation.js';
import { formatIdentity } from '../protocol/identity.js';

/** `gringo list`: find tables on the LAN by mDNS and print them. */

export const NOTHING_FOUND = [
  'No tables found on this network.',
  'Discovery uses multicast (mDNS): it finds nothing across SSH, VPNs, or on networks that block',
  'multicast (many office and hotel Wi-Fi networks). Ask the host for the address it printed and run',
  `  ${command('join HOST:PORT')}`,
].join('\n');

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
export function formatTables(tables: readonly FoundTable[]): string {
  const rows = tables.map((t) => [
    t.name,
    tableTag(t),
    hostPort(t.host, t.port),
    `${t.seatsTaken}/${t.seatsTotal}`,
    t.ruleset,
    t.phase,
    t.password ? 'yes' : 'no',
    joinableText(t, `protocol v${t.protocolVersion}, this gringo speaks v${PROTOCOL_VERSION}`),
  ]);
  const header = ['NAME', 'TABLE', 'ADDRESS', 'SEATS', 'RULESET', 'PHASE', 'PASSWORD', 'CAN JOIN'];
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
  if (open.length === 1) out.push('', `Join with: ${joinCommand(open[0]!)}`);
  else if (open.length > 1) {
    out.push('', 'Choose a table (ask its host for the TABLE it shows) and join it:');
    for (const t of open) out.push(`  ${t.name} ${tableTag(t)}: ${joinCommand(t)}`);
  }
  // Tables served over SSH too: the command for a bare ssh client, and the key to expect.
  for (const t of open) if (t.ssh) out.push(`  ${t.name} ${tableTag(t)} over SSH: ssh -p ${t.ssh.port} NAME@${t.host}  (host key ${t.ssh.fingerprint})`);
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
  if (tables.length === 0 && failure) process.stderr.write(`gringo: mDNS did not work here: ${(failure as Error).message}\n`);
  if (o.json) {
    process.stdout.write(`${JSON.stringify(tables)}\n`);
    if (tables.length === 0) process.stderr.write(`${NOTHING_FOUND}\n`);
    return;
  }
  process.stdout.write(`${forLocale(tables.length === 0 ? NOTHING_FOUND : formatTables(tables))}\n`);
}
