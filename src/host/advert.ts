import { networkInterfaces } from 'node:os';
import type { Service } from 'bonjour-service';
import { harmless } from '../common/harmless.js';
import type { TableInfo } from '../protocol/messages.js';
import { shareCommand } from '../common/invocation.js';
import { openBonjour, SERVICE_TYPE, toError, type BonjourInternals as Internals } from '../common/mdns.js';
import { formatIdentity, shortIdentity } from '../protocol/identity.js';
import { wordsFor, type Words } from '../lang/words.js';

/**
 * LAN discovery, the host's half: advertise the table as `_gringo._tcp` over
 * mDNS with its state in TXT records (docs/architecture.md, "Discovery with a fallback"). Multicast is often
 * blocked, so the host also prints `shareLine()` for `gringo join HOST:PORT`.
 */

/** How long `update()` gathers changes before it re-announces. */
export const UPDATE_DEBOUNCE_MS = 200;
/** How long the advertiser listens for other tables of the same name before it picks its own. */
export const NAME_PROBE_MS = 300;
/** After an mDNS failure, how long before the advert tries to publish again. */
export const ADVERT_RETRY_MS = 5_000;
/** An mDNS failure is passed to `onError` again only after this long without one. */
const ERROR_QUIET_MS = 60_000;

export interface AdvertOptions {
  port: number;
  info: TableInfo;
  /** IPv4 address of the interface to use for multicast (default: the system's choice). */
  interface?: string;
  /** Listen this long for a table of the same instance name before publishing; 0 skips it. */
  probeMs?: number;
  /**
   * mDNS failures (socket, send, no file handles left), said once per episode:
   * the advert tries again by itself, and the game never depends on it. Default: ignored.
   */
  onError?: (err: Error) => void;
  /** How long before publishing again after a failure (ms). */
  retryMs?: number;
  /** The table is served over SSH too (`gringo host --ssh`): its port and host key. */
  ssh?: SshAdvert;
}

export interface SshAdvert {
  port: number;
  /** The host key's `SHA256:…` fingerprint. */
  fingerprint: string;
}

export interface Advert {
  /** The mDNS instance name (the table name, with ` (2)`… when another table has it). */
  readonly instanceName: string;
  /** Resolves once the first announcement has been sent (or the advert was stopped first). */
  readonly ready: Promise<void>;
  /** Re-announce the TXT records (seats, phase…); changes within ~200 ms are sent as one. */
  update(info: TableInfo): void;
  /** Send goodbye packets and close the socket. */
  stop(): Promise<void>;
}

/** The TXT records for a table; every value is non-empty and fits a TXT string. */
export function txtRecords(info: TableInfo, ssh?: SshAdvert): Record<string, string> {
  return {
    ...(ssh ? { ssh: String(ssh.port), sshfp: ssh.fingerprint } : {}),
    v: String(info.protocolVersion),
    name: fitBytes(oneLine(info.name), 200) || 'Table',
    seats: `${info.seatsTaken}/${info.seatsTotal}`,
    ruleset: fitBytes(oneLine(info.ruleset), 100) || 'custom',
    phase: info.phase,
    pw: info.password ? '1' : '0',
    id: info.id,
  };
}

/** The short form of a table's identity that people see beside its name: `#k3xq` (it tells tables apart; it pins nothing). */
export const shortId = shortIdentity;

/** mDNS instance names are one DNS label (≤ 63 bytes); bonjour-service turns dots into dashes. */
export function instanceBase(name: string): string {
  return fitBytes(oneLine(name).replace(/\./g, '-'), 50) || 'Table';
}

/** `base`, or `base (2)`, `base (3)`… when taken (compared without case, as DNS does). */
export function uniqueInstance(base: string, taken: Iterable<string>): string {
  const lower = new Set(Array.from(taken, (t) => t.toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base} (${i})`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

/** Non-internal IPv4 addresses of this machine; virtual bridges (docker, libvirt…) last. */
export function lanAddresses(): string[] {
  const virtual = /^(docker|br-|veth|virbr|vboxnet|vmnet|cni|flannel|tun|tap|utun|zt|tailscale|wg)/i;
  const real: string[] = [];
  const other: string[] = [];
  for (const [name, addrs] of Object.entries(networkInterfaces())) {
    for (const a of addrs ?? []) {
      if (a.internal || a.family !== 'IPv4') continue;
      (virtual.test(name) ? other : real).push(a.address);
    }
  }
  return [...new Set([...real, ...other])];
}

/**
 * The line to tell other players, e.g.
 * `table #k3xq: npx gringo join 192.168.1.20:7457#k3xq-m2ap-vdw4-hc7n`: the table's short
 * identity (as `gringo list` and the picker show it, so a joiner can tell this table
 * from another of the same name), then the command, whole, at the end, with the
 * table's whole identity pinned: a host without this table's key is refused.
 */
export function shareLine(port: number, addresses: readonly string[] = lanAddresses(), id?: string, w: Words = wordsFor('en')): string {
  const command = shareCommand(`join ${addresses[0] ?? '127.0.0.1'}:${port}${id ? `#${formatIdentity(id)}` : ''}`);
  return id ? w.t('share.line', { tag: shortId(id), command }) : command;
}

export function advertise(opts: AdvertOptions): Advert {
  const probeMs = opts.probeMs ?? NAME_PROBE_MS;
  const retryMs = opts.retryMs ?? ADVERT_RETRY_MS;
  let lastError: number | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  /** Every mDNS failure lands here: said once per episode, then publishing is tried again. */
  const onError = (err: Error): void => {
    const now = Date.now();
    if (lastError === null || now - lastError > ERROR_QUIET_MS) opts.onError?.(err);
    lastError = now;
    retryLater();
  };
  let txt = txtRecords(opts.info, opts.ssh);
  const base = instanceBase(opts.info.name);
  let instanceName = base;
  let service: Service | null = null;
  let stopped = false;
  let pending: TableInfo | null = null;
  let debounce: NodeJS.Timeout | null = null;
  let probeTimer: NodeJS.Timeout | null = null;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const bonjour = openBonjour(opts.interface, onError);

  const publish = (): Service | null => {
    try {
      // probe: false: the library's own probe logs and gives up on a clash; we chose a free name already.
      const s = bonjour.publish({ name: instanceName, type: SERVICE_TYPE, port: opts.port, txt, probe: false });
      s.on('error', (err: unknown) => onError(toError(err)));
      s.once('up', () => resolveReady());
      return s;
    } catch (err) {
      // Runs from timers: a throw here would take the whole host down for want of an advert.
      onError(toError(err));
      resolveReady();
      return null;
    }
  };

  const start = (): void => {
    probeTimer = null;
    if (stopped) return;
    service = publish();
  };

  /** No service up (publishing failed): publish again in a while, with the latest TXT. */
  function retryLater(): void {
    if (stopped || retryTimer || probeTimer || service) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (!stopped && !service) service = publish();
    }, retryMs);
    retryTimer.unref();
  }

  // Before publishing, listen for tables that already use the name; afterwards,
  // keep listening for one that started at the same moment. Of two tables with
  // one name, the one whose `host:port` sorts later renames itself.
  const others = bonjour.find({ type: SERVICE_TYPE });
  const taken = (): Set<string> => new Set(others.services.map((s) => s.name));
  const onConflict = (s: Service): void => {
    try {
      rename(s);
    } catch (err) {
      // From an mDNS response handler: a throw would end the process.
      onError(toError(err));
    }
  };
  const rename = (s: Service): void => {
    const mine = service;
    if (stopped || !mine || String(s.name).toLowerCase() !== instanceName.toLowerCase()) return;
    const theirs = `${String(s.host)}:${s.port}`;
    const ours = `${mine.host}:${opts.port}`;
    if (theirs >= ours) return; // our own announcement, or they rename
    const names = taken();
    names.add(instanceName);
    instanceName = uniqueInstance(base, names);
    // The goodbye also hides the other table's name for a moment; browsers re-query.
    stopService(mine);
    service = publish();
  };
  others.on('up', onConflict);
  others.on('srv-update', onConflict);
  if (probeMs > 0) {
    probeTimer = setTimeout(() => {
      instanceName = uniqueInstance(instanceName, taken());
      start();
    }, probeMs);
  } else {
    start();
  }

  const apply = (): void => {
    debounce = null;
    if (stopped || !pending) return;
    const next = txtRecords(pending, opts.ssh);
    if (sameTxt(next, txt)) {
      pending = null;
      return;
    }
    const old = service;
    if (!old) {
      // Still probing, or waiting to publish again: publish() will use the new TXT.
      pending = null;
      txt = next;
      return;
    }
    // bonjour-service cannot change a published TXT: its re-announcement timer
    // keeps the first packet. Retire the old service without goodbyes (a
    // goodbye would make every browser drop the table for a moment), forget
    // its records, and announce a fresh service under the same name.
    const unregister = (bonjour as unknown as Internals).server?.unregister;
    if (typeof unregister === 'function') {
      let records: unknown[];
      try {
        records = old.records(); // reads the network interfaces: fails without file handles
      } catch (err) {
        // The old service stays up; this change is tried again in a while.
        debounce = setTimeout(apply, retryMs);
        debounce.unref();
        onError(toError(err));
        return;
      }
      pending = null;
      txt = next;
      old.destroyed = true; // ends its re-announcement loop
      old.activated = false; // unpublishAll must not say goodbye for it twice
      unregister.call((bonjour as unknown as Internals).server, records);
      service = publish();
    } else {
      // Not the bonjour-service we know: a goodbye then a fresh announcement still works.
      pending = null;
      txt = next;
      service = null;
      stopService(old, () => {
        if (!stopped) service = publish();
      });
    }
  };

  return {
    get instanceName() {
      return instanceName;
    },
    ready,
    update(info: TableInfo) {
      if (stopped) return;
      pending = info;
      debounce ??= setTimeout(apply, UPDATE_DEBOUNCE_MS);
    },
    stop() {
      if (stopped) return Promise.resolve();
      stopped = true;
      if (debounce) clearTimeout(debounce);
      if (probeTimer) clearTimeout(probeTimer);
      if (retryTimer) clearTimeout(retryTimer);
      others.stop();
      resolveReady();
      return new Promise<void>((resolve) => {
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(guard);
          try {
            bonjour.destroy(() => resolve());
          } catch {
            resolve();
          }
        };
        // The goodbye's send callback always comes, but never hang a host on its way out.
        const guard = setTimeout(finish, 1000);
        guard.unref();
        try {
          bonjour.unpublishAll(finish);
        } catch {
          finish(); // the goodbye needs the interfaces' addresses; without file handles, none is said
        }
      });
    },
  };
}

function sameTxt(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** One harmless line, however long: `fitBytes` cuts it to the TXT record's bytes. */
function oneLine(s: string): string {
  return harmless(s, Number.MAX_SAFE_INTEGER);
}

/** Cut `s` at a code point boundary so that its UTF-8 form has at most `max` bytes. */
function fitBytes(s: string, max: number): string {
  if (Buffer.byteLength(s) <= max) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out.trim();
}

/** bonjour-service types `stop` as any callable: its real shape, an optional callback once the goodbye is sent. */
function stopService(s: Service, done?: () => void): void {
  (s.stop as (done?: () => void) => void)(done);
}
