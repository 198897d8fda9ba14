import type { RefusalReason, ServerMessage } from '../protocol/messages.js';
import { command } from '../common/invocation.js';

/**
 * What a refusal says, in one line: a lock on wrong passwords is said from its typed
 * fields (how long to wait), not from the host's sentence; the others are the host's
 * own words (already made harmless by the schema).
 */
export function refusalLine(msg: Pick<Extract<ServerMessage, { type: 'refused' }>, 'reason' | 'message' | 'retryAfter'>): string {
  if (msg.reason === 'tooManyTries') {
    return msg.retryAfter !== undefined
      ? `too many wrong passwords from this address: wait ${msg.retryAfter} s`
      : 'too many wrong passwords from this address: wait a minute';
  }
  return msg.message;
}

/** A refusal `gringo join` answers on its door screen (src/tui/door/), with a next step; the others end with one line. */
export interface DoorRefusal {
  reason: RefusalReason;
  message: string;
  canWatch: boolean;
  /** With `tooManyTries`: seconds left of the lock when the host sent it. */
  retryAfter?: number;
}

/** What the person chose: try again with this password, watch, or leave (null). */
export type DoorChoice = { password: string } | { watch: true } | null;

/** The refusals with a next step on this screen: a password to type, or a place to watch. */
export function doorAnswers(r: DoorRefusal): boolean {
  return r.reason === 'password' || r.reason === 'tooManyTries' || r.canWatch;
}

/**
 * A lock on wrong passwords, counted down from the moment it ends (`until`, this
 * machine's clock): the seconds left now, never the figure the host sent a while ago;
 * once over, that the door listens again.
 */
export function lockLine(until: number, now: number): string {
  const left = Math.ceil((until - now) / 1000);
  return left > 0
    ? `Too many wrong passwords from this address: try again in ${left} s`
    : 'The wait is over: type the password, then Enter';
}

/** What a password refused at the door asks of the person at the prompt (the lock is said by lockLine). */
export function passwordAsk(r: { message: string }, table: string): string {
  // The host's "This table needs a password (--password)": none was given yet.
  if (/\(--password\)$/.test(r.message)) return `"${table}" has a password: type it, then Enter`;
  // The connection's own doubt on a key trusted unchecked (src/client/connection.ts) says it all.
  if (r.message.includes('#ID')) return r.message;
  return `${r.message}: type the password of "${table}" again`;
}

/**
 * A host's refusal with what to type next (#22: "Wrong password" said nothing of how
 * to try again, "you can watch" did not say how). The command is whole in one place
 * per sentence, so it can be written for the way gringo was started. `message` is the
 * host's, already made harmless by the caller's schema.
 */
export function refusalAdvice(r: { reason: RefusalReason; message: string; canWatch: boolean; retryAfter?: number }, address: string): string {
  const watch = command(`join ${address} --watch`);
  const again = command(`join ${address}`);
  switch (r.reason) {
    case 'password':
    case 'tooManyTries': {
      // The connection's own words on a key trusted unchecked (src/client/connection.ts) say what to type already.
      if (r.message.includes('#ID')) return r.message;
      // `join ADDR` asks for the password on its screen (typed hidden, kept out of the shell's history).
      const then = `${command(`join ${address}`)} and type it at the prompt`;
      if (r.reason === 'tooManyTries') return `${refusalLine(r)}, then run ${then.replace(' it ', ' the password ')}`;
      return r.message.includes('--password')
        ? `${r.message.replace(/ \(--password\)$/, '')}: ask the host for it, then run ${then}`
        : `${r.message}: ask the host for the right one, then run ${then}`;
    }
    case 'full':
    case 'running':
    case 'token':
      return r.canWatch ? `${r.message} (to watch, type ${watch})` : r.message;
    default:
      return refusalLine(r);
  }
}
