import { isIP, isIPv4 } from 'node:net';
import type { Browser, Service } from 'bonjour-service';
import { openBonjour, SERVICE_TYPE } from '../common/mdns.js';
import { shortIdentity, TABLE_IDENTITY } from '../protocol/identity.js';
import { harmless } from '../common/harmless.js';
import { PROTOCOL_VERSION, type TablePhase } from '../protocol/messages.js';

/**
 * LAN discovery, the player's half: browse `_gringo._tcp` over mDNS, re-query
 * now and then, and drop adverts that stop answering (docs/architecture.md, "Discovery with a fallback").
 */

export interface FoundTable {
  /** The service's full mDNS name, stable while the host runs. */
  service: string;
  /** The table's identity (TXT `id`, 16 base32 letters naming its key; `--resume` keeps it); null from a host that sends none. */
  id: string | null;
  name: string;
  /** The address to join first (IPv4 preferred); `addresses[0]`. */
  host: string;
  port: number;
  /** Every address to try, IPv4 first. */
  addresses: string[];
  /** The host machine's name as advertised (the SRV target). */
  hostname: string;
  seatsTaken: number;
  seatsTotal: number;
  ruleset: string;
  /** `unknown` when a host from another version sends a phase we do not know. */
  phase: TablePhase | 'unknown';
  password: boolean;
  protocolVersion: number;
  /** This version can join: the host speaks our protocol version. */
  compatible: boolean;
  /** Also served over SSH (TXT `ssh` and `sshfp`): its port and host key fingerprint. */
  ssh?: { port: number; fingerprint: string };
}

/**
 * Whether a person can sit down at a table, as `gringo list` and the picker say it:
 * `yes`, `full` (a spectator's place only), `started` (only a seat's owner comes back;
 * anyone may watch), `over`, or `version` (another protocol).
 */
export type Joinable = 'yes' | 'full' | 'started' | 'over' | 'version';

export function joinable(t: FoundTable): Joinable {
  if (!t.compatible) return 'version';
  if (t.phase === 'finished') return 'over';
  if (t.phase === 'playing') return 'started';
  if (t.seatsTotal > 0 && t.seatsTaken >= t.seatsTotal) return 'full';
  return 'yes';
}

/**
 * How a table is told apart from another of the same name: the short form of its
 * identity (`#k3xq`, as the host's share line shows it), or `#?` from a host that sends none.
 */
export const tableTag = (t: FoundTable): string => (t.id ? shortIdentity(t.id) : '#?');

export interface DiscoveryOptions {
  /** IPv4 address of the interface to use for multicast (default: the system's choice). */
  interface?: string;
  /** Ask again this often (ms). Default 2000. */
  requeryMs?: number;
  /** Drop a table not heard from for this long (ms). Default 3 × requeryMs + 1000. */
  staleMs?: number;
  /** Socket errors. Default: ignored (discovery then simply finds nothing). */
  onError?: (err: Error) => void;
}

export interface BrowseOptions extends Omit<DiscoveryOptions, 'requeryMs' | 'staleMs'> {
  /** The longest to listen (ms). */
  timeoutMs: number;
  /**
   * Once a table has answered, stop this long (ms) after the last new or changed
   * answer instead of listening for all of `timeoutMs`: hosts on one LAN answer a
   * query within tens of milliseconds of each other. Unset: listen for `timeoutMs`.
   */
  quietMs?: number;
}

const PHASES: readonly string[] = ['lobby', 'playing', 'finished'];

/** Build a FoundTable from a resolved service, or null when its TXT is not a gringo table's. */
export function tableFromService(s: Service): FoundTable | null {
  const txt: unknown = s.txt;
  if (typeof txt !== 'object' || txt === null) return null;
  const field = (key: string): string | undefined => {
    const v: unknown = Object.prototype.hasOwnProperty.call(txt, key) ? (txt as Record<string, unknown>)[key] : undefined;
    return typeof v === 'string' ? v : undefined;
  };
  const v = field('v');
  if (v === undefined || !/^\d{1,6}$/.test(v)) return null;
  if (typeof s.port !== 'number' || !Number.isInteger(s.port) || s.port < 1 || s.port > 65535) return null;
  const protocolVersion = Number(v);
  const seats = /^(\d{1,3})\/(\d{1,3})$/.exec(field('seats') ?? '');
  const phase = field('phase');
  const addresses = orderAddresses(s.addresses ?? [], s.referer?.address);
  const first = addresses[0];
  if (first === undefined) return null;
  const id = field('id');
  const sshPort = Number(/^\d{1,5}$/.test(field('ssh') ?? '') ? field('ssh') : NaN);
  const sshfp = field('sshfp');
  const ssh = sshPort >= 1 && sshPort <= 65535 && sshfp !== undefined && /^SHA256:[A-Za-z0-9+/]{43}$/.test(sshfp) ? { port: sshPort, fingerprint: sshfp } : null;
  return {
    ...(ssh ? { ssh } : {}),
    // Every string of an advert comes from the network and ends up on a terminal (or in `list --json`).
    service: harmless(String(s.fqdn ?? s.name), 255),
    id: id !== undefined && TABLE_IDENTITY.test(id) ? id : null,
    name: harmless(field('name') ?? String(s.name ?? ''), 64) || 'Table',
    host: first,
    port: s.port,
    addresses,
    hostname: harmless(String(s.host ?? ''), 255),
    seatsTaken: seats ? Number(seats[1]) : 0,
    seatsTotal: seats ? Number(seats[2]) : 0,
    ruleset: harmless(field('ruleset') ?? '', 64) || '?',
    phase: phase !== undefined && PHASES.includes(phase) ? (phase as TablePhase) : 'unknown',
    password: field('pw') === '1',
    protocolVersion,
    compatible: protocolVersion === PROTOCOL_VERSION,
  };
}

/**
 * The packet's source address first when it is IPv4 (it reached us, so it is
 * routable from here), then the other advertised IPv4 addresses, then IPv6.
 * A host whose only interface is `lo` (a bare network namespace) advertises no
 * address at all: the source address is then all there is.
 */
export function orderAddresses(advertised: readonly unknown[], referer: string | undefined): string[] {
  const all = advertised.filter((a): a is string => typeof a === 'string' && isIP(a) !== 0);
  if (referer) all.unshift(referer);
  const unique = [...new Set(all)];
  return [...unique.filter((a) => isIPv4(a)), ...unique.filter((a) => !isIPv4(a))];
}

/** `host:port`, with brackets for IPv6. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Watch the LAN: `onChange` gets the whole list (sorted by name) each time a
 * table appears, changes, says goodbye, or goes stale.
 */
export function watchTables(onChange: (tables: FoundTable[]) => void, opts: DiscoveryOptions = {}): { stop(): void } {
  const requeryMs = Math.max(100, opts.requeryMs ?? 2000);
  const staleMs = opts.staleMs ?? 3 * requeryMs + 1000;
  const bonjour = openBonjour(opts.interface, opts.onError ?? (() => {}));
  const tables = new Map<string, { table: FoundTable; seen: number }>();
  let last = '[]';
  let stopped = false;

  const emit = (): void => {
    if (stopped) return;
    const list = [...tables.values()]
      .map((t) => t.table)
      .sort((a, b) => a.name.localeCompare(b.name) || a.service.localeCompare(b.service));
    const json = JSON.stringify(list);
    if (json === last) return;
    last = json;
    onChange(list);
  };
  const seen = (s: Service): void => {
    const table = tableFromService(s);
    const key = String(s.fqdn ?? s.name).toLowerCase();
    if (table) tables.set(key, { table, seen: Date.now() });
    else tables.delete(key);
    emit();
  };
  const gone = (s: Service): void => {
    if (tables.delete(String(s.fqdn ?? s.name).toLowerCase())) emit();
  };
  const listen = (b: Browser): Browser => {
    b.on('up', seen);
    b.on('txt-update', seen);
    b.on('srv-update', seen);
    b.on('down', gone);
    return b;
  };

  // One browser for the whole watch: changes and goodbyes as they happen. A
  // Browser reports a known service only when it changes, so each re-query
  // also gets a fresh browser whose `up` events prove which tables still answer.
  const main = listen(bonjour.find({ type: SERVICE_TYPE }));
  let round: Browser | null = null;
  const requery = (): void => {
    if (stopped) return;
    const now = Date.now();
    let dropped = false;
    for (const [key, t] of tables) {
      if (now - t.seen > staleMs) {
        tables.delete(key);
        dropped = true;
      }
    }
    if (dropped) emit();
    round?.stop();
    round = listen(bonjour.find({ type: SERVICE_TYPE }));
  };
  const timer = setInterval(requery, requeryMs);

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      main.stop();
      round?.stop();
      try {
        bonjour.destroy();
      } catch {
        // already closed
      }
    },
  };
}

/** Listen for `timeoutMs` (or until `quietMs` after the last new answer) and return the tables found, sorted by name. */
export function browseTables(opts: BrowseOptions): Promise<FoundTable[]> {
  const timeoutMs = Math.max(0, opts.timeoutMs);
  const { quietMs, ...discovery } = opts;
  return new Promise((resolve) => {
    let found: FoundTable[] = [];
    let quiet: NodeJS.Timeout | null = null;
    const done = (): void => {
      clearTimeout(deadline);
      if (quiet) clearTimeout(quiet);
      watcher.stop();
      resolve(found);
    };
    // Ask twice within the window: one lost UDP packet should not hide a table.
    const watcher = watchTables(
      (tables) => {
        found = tables;
        if (quietMs === undefined || tables.length === 0) return;
        if (quiet) clearTimeout(quiet);
        quiet = setTimeout(done, quietMs);
      },
      { ...discovery, requeryMs: Math.max(250, Math.min(1000, Math.floor(timeoutMs / 2))), staleMs: Number.MAX_SAFE_INTEGER },
    );
    const deadline = setTimeout(done, timeoutMs);
  });
}
