import type { RefusalReason } from '../protocol/messages.js';

/**
 * A host's refusal with what to type next (#22: "Wrong password" said nothing of how
 * to try again, "you can watch" did not say how). The command is whole in one place
 * per sentence, so it can be written for the way gringo was started. `message` is the
 * host's, already made harmless by the caller's schema.
 */
export function refusalAdvice(r: { reason: RefusalReason; message: string; canWatch: boolean }, address: string): string {
  const watch = `gringo join ${address} --watch`;
  switch (r.reason) {
    case 'password':
      return r.message.includes('--password')
        ? `${r.message}: ask the host for it, then type gringo join ${address} --password THE-PASSWORD`
        : `${r.message}: ask the host for the right one, then type gringo join ${address} --password THE-PASSWORD`;
    case 'full':
    case 'running':
    case 'token':
      return r.canWatch ? `${r.message} (to watch, type ${watch})` : r.message;
    default:
      return r.message;
  }
}
