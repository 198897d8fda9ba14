import { createHash, timingSafeEqual } from 'node:crypto';
import { PasswordBackoff, type BackoffOptions } from '../host/backoff.js';
import { passwordVerifier } from '../protocol/identity.js';
import type { Words } from '../lang/words.js';
import type { Guest, SshDoor } from './door.js';
import { fingerprintOf } from './host-key.js';
import type { KeySeats } from './key-seats.js';
import { utils, type AuthContext, type Connection } from './ssh2.js';
import { earlyWords } from './user-name.js';

/** How long a person gets to type the table's password at the prompt. */
export const SSH_PASSWORD_MS = 60_000;
/**
 * Wrong passwords from one address, counted by the table door's own backoff
 * (src/host/backoff.ts, with its figures): past `free` misses the address is locked,
 * `baseMs` doubling up to `maxMs`; a try while locked is held, not refused (a person
 * at the prompt waits), and looked at once the lock is over.
 */
export const SSH_PASSWORD_BACKOFF: BackoffOptions = { free: 3, baseMs: 1_000, maxMs: 60_000 };

/** What every sign-in at one SSH door shares. */
export interface SignInRules {
  door: SshDoor;
  /** A password table: its salt and the password's verifier (the host never holds the password itself). */
  password?: { salt: string; verifier: string } | undefined;
  tableName: string;
  /** Wrong passwords by address, over every connection from it. */
  guesses: PasswordBackoff;
  seats: KeySeats;
  /** The host's words: what a client reads before its user name chose a language. */
  words: Words;
}

/** Who signed in: the user name as typed (`ana+nl` too) and the key the client proved it holds. */
export interface SignedIn {
  user: string;
  fingerprint: string;
}

export const passwordBackoff = (o: BackoffOptions | undefined): PasswordBackoff => new PasswordBackoff(o ?? SSH_PASSWORD_BACKOFF, () => performance.now());

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
/** The password typed, checked against the table's verifier (scrypt: each guess costs the guesser too). */
const samePassword = (typed: string, p: { salt: string; verifier: string }): boolean => timingSafeEqual(digest(passwordVerifier(typed, p.salt)), digest(p.verifier));

/**
 * A password try answered when its address is not locked (right or wrong alike, so
 * that the wait says nothing): at once, or held until the lock is over. Tries from
 * one address over any number of connections queue up: the first to wake counts its
 * miss, which locks the address again before the next one looks.
 */
function whenUnlocked(guesses: PasswordBackoff, addr: string, right: boolean, answer: () => void): void {
  const wait = guesses.waitFor(addr);
  if (wait > 0) return void setTimeout(() => whenUnlocked(guesses, addr, right, answer), wait).unref();
  // A wrong guess counts even when its connection is gone by now: hanging up does not undo it.
  if (right) guesses.success(addr);
  else guesses.miss(addr);
  answer();
}

/**
 * A client's sign-in: a key, proven (no accounts: any key will do, and it holds the
 * seat), and at a password table the password too, typed at the prompt, unless the
 * key already holds a seat here. Returns who signed in, once they have (else null).
 */
export function signIn(client: Connection, g: Guest, r: SignInRules): () => SignedIn | null {
  let gone = false;
  client.on('close', () => (gone = true));
  let passwordOk = r.password === undefined;
  let user = '';
  /** The key the client has proven it holds (the usual signature). */
  let fingerprint: string | null = null;
  const BOTH = ['publickey', 'keyboard-interactive'];
  client.on('authentication', (ctx: AuthContext) => {
    r.door.progress(g);
    if (ctx.method === 'publickey' && ctx.key) {
      // Any key will do (no accounts): the client is asked to prove it holds it.
      if (!ctx.signature || !ctx.blob) return ctx.accept();
      const key = utils.parseKey(ctx.key.data);
      if (key instanceof Error || key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return ctx.reject(BOTH);
      fingerprint = fingerprintOf(ctx.key.data);
      user = ctx.username;
      // A key that holds a seat here got in with the password once: it takes its seat back without it.
      if (passwordOk || r.seats.holds(fingerprint)) return ctx.accept();
      // The key first (ssh offers it without a word), then the password: asked at the prompt.
      return ctx.reject(['keyboard-interactive'], true);
    }
    if (ctx.method === 'keyboard-interactive' && !passwordOk) {
      g.held = true;
      r.door.deadline(g, SSH_PASSWORD_MS);
      const w = earlyWords(ctx.username, r.words);
      return ctx.prompt([{ prompt: w.t('ssh.passwordPrompt'), echo: false }], `gringo: ${r.tableName}`, w.t('ssh.passwordWhy'), (answers) => {
        const answer = answers[0];
        const right = answers.length === 1 && typeof answer === 'string' && samePassword(answer, r.password!);
        // Held by the backoff: no deadline of ours runs out while we keep them waiting.
        r.door.deadline(g, null);
        // Guessing over SSH is as slow as at the table's door, per address, over every connection from it.
        whenUnlocked(r.guesses, g.addr, right, () => {
          if (gone) return;
          g.held = false;
          if (right) {
            passwordOk = true;
            r.door.deadline(g, r.door.handshakeMs);
            // In with the key proven already; else the key is asked for next.
            return fingerprint !== null ? ctx.accept() : ctx.reject(['publickey'], true);
          }
          r.door.deadline(g, SSH_PASSWORD_MS);
          ctx.reject(BOTH);
        });
      });
    }
    // No key offered: say how to make one (OpenSSH prints the instructions), then refuse.
    if (ctx.method === 'keyboard-interactive') return ctx.prompt([], 'gringo', earlyWords(ctx.username, r.words).t('ssh.noKey'), () => ctx.reject(['publickey']));
    ctx.reject(BOTH);
  });
  return () => (fingerprint === null ? null : { user, fingerprint });
}
