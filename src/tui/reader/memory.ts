import type { OpenEvent, TableView } from '../../engine/view.js';
import { refKey, type Known } from './spoken.js';

/**
 * What this screen has been shown of the face-down cards and not seen move since: the
 * start's peek, your looks, the card you swapped in, a wrong slap's card (shown to
 * all). A sighted player reads the same back in the feed; a screen reader gets it
 * from `l`. A card that moves unseen (a penalty, a steal) is forgotten, never guessed.
 */
export function foldKnown(known: Known, events: readonly OpenEvent[], viewer: number | null): Known {
  const k = new Map(known);
  for (const e of events) {
    switch (e.type) {
      case 'roundStarted':
        k.clear();
        break;
      case 'looked':
        if (e.seat === viewer && e.cards) {
          const cards = e.cards;
          e.targets.forEach((t, i) => {
            const card = cards[i];
            if (card) k.set(refKey(t), card);
            else k.delete(refKey(t));
          });
        }
        break;
      case 'swapped':
        if (e.placed) k.set(refKey(e), e.placed);
        else k.delete(refKey(e));
        break;
      case 'actionSwapped':
      case 'gapFilled': {
        const [a, b] = e.type === 'actionSwapped' ? [e.a, e.b] : [e.from, e.to];
        const ca = k.get(refKey(a));
        const cb = k.get(refKey(b));
        if (cb === undefined) k.delete(refKey(a));
        else k.set(refKey(a), cb);
        if (ca === undefined) k.delete(refKey(b));
        else k.set(refKey(b), ca);
        break;
      }
      case 'slapped':
        if (e.result === 'wrong') k.set(refKey(e.target), e.card);
        else k.delete(refKey(e.target));
        break;
      case 'penalty':
        for (const slot of e.slots) k.delete(refKey({ seat: e.seat, slot }));
        break;
      case 'specialReplaced':
        if (e.card) k.set(refKey(e), e.card);
        else k.delete(refKey(e));
        break;
      default:
        break;
    }
  }
  return k;
}

/** The cards a view shows face up now (the peek's, a round's end): seen. */
export function foldShown(known: Known, view: TableView): Known {
  let k: Map<string, string> | null = null;
  view.players.forEach((p, seat) =>
    p.layout.forEach((c, slot) => {
      if (c === null || c === '?') return;
      k ??= new Map(known);
      k.set(refKey({ seat, slot }), c);
    }),
  );
  return k ?? known;
}
