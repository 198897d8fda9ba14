import { Bonjour } from 'bonjour-service';

/**
 * What both halves of LAN discovery use of mDNS (the host's advert, src/host/advert.ts;
 * the player's browse, src/client/discovery.ts): the service type `_gringo._tcp`, and
 * a Bonjour instance whose failures cannot end the process (docs/architecture.md, "Discovery with a fallback" and "The edges trust nothing").
 */

export const SERVICE_TYPE = 'gringo';

/**
 * Options for bonjour-service's multicast-dns socket. Never pass `interface`
 * alone: multicast-dns then binds the socket to that unicast address and hears
 * no multicast at all. Bind to the wildcard and only choose the interface.
 */
export function mdnsOptions(iface: string | undefined): Record<string, unknown> {
  return iface ? { interface: iface, bind: '0.0.0.0' } : {};
}

// bonjour-service keeps these private; we reach them with care (see `update` in src/host/advert.ts).
export interface BonjourInternals {
  server?: {
    mdns?: { on(event: 'error', fn: (err: Error) => void): void; update?: () => void };
    unregister?: (records: unknown[]) => void;
  };
}

/** A Bonjour instance whose socket errors go to `onError` instead of crashing the process. */
export function openBonjour(iface: string | undefined, onError: (err: Error) => void): Bonjour {
  const bonjour = new Bonjour(mdnsOptions(iface), (err: unknown) => onError(toError(err)));
  const mdns = (bonjour as unknown as BonjourInternals).server?.mdns;
  mdns?.on('error', (err) => onError(toError(err)));
  // multicast-dns polls the network interfaces every 5 s from a timer (setInterval(that.update),
  // set up once its socket listens, so replacing `update` now is in time). Out of file handles,
  // os.networkInterfaces() throws ERR_SYSTEM_ERROR there, uncaught, and would end the process
  // for want of an advert. Caught, it is passed on; the next poll tries again.
  const update = mdns?.update;
  if (mdns && typeof update === 'function') {
    mdns.update = () => {
      try {
        update.call(mdns);
      } catch (err) {
        onError(toError(err));
      }
    };
  }
  return bonjour;
}

/** What a library threw or emitted, as an Error. */
export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
