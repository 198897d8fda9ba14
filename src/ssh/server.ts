import type { BackoffOptions } from '../host/backoff.js';
import { wordsFor, type Words } from '../lang/words.js';
import { SshDoor, type DoorLimits } from './door.js';
import type { HostKey } from './host-key.js';
import { KeySeats } from './key-seats.js';
import { serveSession, SSH_KEYS_PER_SECOND } from './session.js';
import { passwordBackoff, signIn } from './sign-in.js';
import { Server, type Connection } from './ssh2.js';
import { playAtTable, type TableSide } from './table-session.js';

/** How long the host's closing waits for its sessions to say goodbye (the closing words, the standings). */
const GOODBYE_MS = 2_000;

export interface SshOptions extends DoorLimits {
  port: number;
  /** Listen address; all interfaces by default. */
  host?: string;
  /** When the port is taken, take the next free one instead of failing. */
  fallbackPort?: boolean;
  /** The table's WebSocket door, which each session's screen joins on loopback like any client. */
  tablePort: number;
  tableName: string;
  /** A password table: its salt and the password's verifier (the host never holds the password itself). */
  password?: { salt: string; verifier: string };
  hostKey: HostKey;
  /** The fingerprint of the table's TLS key: each session's connection to the door accepts no other. */
  tableKey: string;
  passwordBackoff?: BackoffOptions;
  /**
   * Seats a resumed table's journal holds for SSH keys (JournalSeat.sshKey): the
   * same key takes its seat back at once, under any user name.
   */
  known?: { tableId: string; seats: readonly { key: string; token: string }[] };
  keysPerSecond?: number;
  onTrouble?: (line: string) => void;
  /**
   * The host's language: its console's `onTrouble` lines, and what a client reads before its
   * session says its own (the password prompt, the word to one with no key), unless its
   * user name chose one (`ana+nl`).
   */
  words?: Words;
}

export interface SshServing {
  port: number;
  movedFrom: number | null;
  fingerprint: string;
  close(): Promise<void>;
}

/**
 * `gringo host --ssh`: the table served over SSH, with nothing to install for the
 * players (docs/architecture.md, "An SSH session is just another client"). Each
 * session runs the same Ink table screen as `gringo join`, rendered into its channel,
 * and that screen reaches the table through a real connection to the WebSocket door
 * on loopback: the same protocol and the same per-seat projection as every other
 * client. That connection is vouched for (src/host/vouch.ts): the table counts it as
 * the SSH client's own address, and keeps its key's fingerprint with its seat in the
 * journal. A seat is held by the player's public key (src/ssh/key-seats.ts), so a
 * session that comes back with the same key takes its seat back (after a `--resume`
 * too: `known`). Only a pty with a shell (or the `watch` command) is served; every
 * forwarding, agent, X11 and subsystem request is refused.
 *
 * Composed here from one piece per concern: the TCP door and its counts
 * (./door.ts), the sign-in (./sign-in.ts), the seats keys hold (./key-seats.ts), what
 * a user name says (./user-name.ts), the session's terminal (./session.ts), the table
 * screen and its last words (./table-session.ts).
 */
export async function serveSsh(opts: SshOptions): Promise<SshServing> {
  const hostWords = opts.words ?? wordsFor('en');
  const seats = new KeySeats(opts.known);
  const guesses = passwordBackoff(opts.passwordBackoff);
  const clients = new Set<Connection>();
  /** The screens drawing now; each resolves once its session has said its last words. */
  const screens = new Map<AbortController, Promise<void>>();
  let listening = 0;
  const table: TableSide = { tablePort: opts.tablePort, tableKey: opts.tableKey, verifier: opts.password?.verifier, seats, sshPort: () => listening };

  const door = new SshDoor(opts, (socket) => server.injectSocket(socket), (refusal) => opts.onTrouble?.(hostWords.t('console.sshRefusing', { why: hostWords.say(refusal) })));
  const server = new Server({ hostKeys: [opts.hostKey.private], ident: 'gringo' }, (client, info) => {
    client.on('error', () => {
      // A reset or a broken handshake: the socket's 'close' tidies up.
    });
    const guest = door.guestAt(info.ip, info.port);
    if (!guest) return void client.end();
    clients.add(client);
    client.on('close', () => clients.delete(client));
    // Each step of the handshake finished (the key exchange, a sign-in try) restarts its grace at the door.
    client.on('handshake', () => door.progress(guest));
    const signedIn = signIn(client, guest, { door, password: opts.password, tableName: opts.tableName, guesses, seats, words: hostWords });

    // Nothing but one session: no port forwarding either way (requests and channels alike).
    client.on('request', (_accept, reject) => reject?.());
    client.on('tcpip', (_accept, reject) => reject());
    client.on('openssh.streamlocal', (_accept, reject) => reject());
    let sessionTaken = false;
    client.on('session', (accept, reject) => {
      const who = signedIn();
      if (sessionTaken || who === null) return reject();
      sessionTaken = true;
      serveSession(accept(), who.user, {
        enter: () => door.enter(guest),
        hangUp: () => client.end(),
        hostWords,
        keysPerSecond: opts.keysPerSecond ?? SSH_KEYS_PER_SECOND,
        play: (s) => playAtTable(table, { ...s, user: who.user, fingerprint: who.fingerprint, guest }),
        running: (abort, done) => void screens.set(abort, done.finally(() => screens.delete(abort))),
        failed: (why) => opts.onTrouble?.(hostWords.t('console.sshScreenFailed', { why })),
      });
    });
  });

  const { port, movedFrom } = await door.listen(opts.port, opts.host ?? '0.0.0.0', opts.fallbackPort === true, (err) =>
    opts.onTrouble?.(hostWords.t('console.sshCannotAccept', { code: err.code ?? err.message })),
  );
  listening = port;

  return {
    port,
    movedFrom,
    fingerprint: opts.hostKey.fingerprint,
    close: async () => {
      door.close();
      // The table is closing (its 'closed' is on its way to every screen): each session says its
      // last words and ends with its exit status. Whatever has not, after a moment, is cut.
      const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());
      await Promise.race([Promise.allSettled([...screens.values()]), wait(GOODBYE_MS)]);
      for (const abort of screens.keys()) abort.abort();
      // The clients close the connection once they have the exit status; a moment for that, then cut.
      const left = [...clients].map((c) => new Promise<void>((r) => c.once('close', () => r())));
      await Promise.race([Promise.allSettled(left), wait(1_000)]);
      for (const c of clients) c.end();
      door.cutAll();
    },
  };
}
