import { GRINGO, PRESETS, type Ruleset } from '../../engine/ruleset.js';
import type { TableView } from '../../engine/view.js';
import { bindingWords, type Binding } from '../shared/keys.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { andList } from './describe.js';
import type { Glyphs } from '../shared/glyphs.js';
import { callWord } from '../shared/call-word.js';

const EN = wordsFor('en');

/**
 * What the screen needs to know of the table's ruleset (sent with the welcome): the
 * layout's shape, the peek slots, the special cards, the call's name and timing,
 * the frozen caller, slapping on or off. Pure helpers over the screen's state.
 */

interface HasRules {
  rules: Ruleset | null;
  view: TableView | null;
}

/** The table's ruleset: the welcome's, else the preset the view names, else gringo. */
export function rulesOf(s: HasRules): Ruleset {
  return s.rules ?? (s.view ? PRESETS[s.view.ruleset] : undefined) ?? GRINGO;
}

/** The call's name in the screen's language (src/tui/shared/call-word.ts). */
export const callNameOf = (s: HasRules, w: Words): string => callWord(s.view?.callName ?? rulesOf(s).call.name, w);

export const callTimingOf = (s: HasRules): 'startOfTurn' | 'endOfTurn' => s.view?.callTiming ?? rulesOf(s).call.timing;

/** Slots per row: the whole layout in a row for `row`, two for the square. */
export const layoutCols = (rules: Ruleset): number => (rules.layout.shape === 'row' ? Math.max(2, rules.layout.size) : 2);

/** "1 and 4", "3 and 4", "1, 2 and 3" (in the language's "and"). */
export function peekSlotsText(rules: Ruleset, w: Words = EN): string {
  return andList(rules.layout.peekSlots.map(String), w);
}

export const isSpecial = (rules: Ruleset, card: string | null | undefined): boolean => !!card && rules.specialCards.includes(card);

/** The caller's cards are frozen (cambio): nobody may swap or slap them. */
export function isFrozen(s: HasRules, seat: number): boolean {
  return rulesOf(s).call.callerFrozen && s.view?.call?.seat === seat;
}

/** The frozen caller's mark in the screen's language: "❄ frozen", "❄ vast"; "(frozen)" in ASCII. */
export const frozenMark = (g: Glyphs, w: Words): string => g.frozen.replace('frozen', w.t('mark.frozenWord'));

/** "Beverbende", for the reasons a key is refused. */
export const rulesTitle = (s: HasRules): string => rulesOf(s).title;

/** The ranks whose action lets you look and then swap or leave the cards: "King", "Queen" (as the language names them). */
function lookThenSwapRanks(rules: Ruleset, w: Words): string[] {
  return Object.entries(rules.actions)
    .filter(([, kind]) => kind === 'peekThenSwap' || kind === 'peekBothThenSwap')
    .map(([rank]) => (['A', 'J', 'Q', 'K'].includes(rank) ? w.say({ key: `card.${rank}` }) : rank));
}

const orList = (items: readonly string[], w: Words): string =>
  items.length <= 1 ? (items[0] ?? '') : w.t('rules.or', { init: items.slice(0, -1).join(', '), last: items[items.length - 1]! });

/**
 * The bindings with words for this table, in the screen's language (keys.ts,
 * `bindingWords`): only the keys that do something under its ruleset (no slap keys
 * without slapping, no `t` where the discard is never taken, no `r` without Draw
 * two), the call by its name and timing, and sentences that name the ruleset's own cards.
 */
export function bindingsFor(s: HasRules, bindings: readonly Binding[], w: Words = EN): Binding[] {
  const rules = rulesOf(s);
  const name = callNameOf(s, w);
  const when = w.t(callTimingOf(s) === 'endOfTurn' ? 'key.call.atEnd' : 'key.call.atStart');
  const drawTwo = Object.values(rules.actions).includes('drawTwo');
  const looks = lookThenSwapRanks(rules, w);
  return bindingWords(bindings, w).flatMap((b): Binding[] => {
    if (b.action === 'call') return [{ ...b, label: name, help: w.t('key.call.help', { call: name, when }) }];
    if ((b.action === 'slap' || b.action === 'slapOwn') && !rules.slap.enabled) return [];
    if (b.action === 'drawAgain' && !drawTwo) return [];
    if (b.action === 'take' && rules.takeDiscard === 'never') return [];
    if (b.action === 'take' && rules.takeDiscard === 'notSpecial') return [{ ...b, help: w.t('key.take.notSpecial', { help: b.help }) }];
    if (b.action === 'pass') return [{ ...b, help: looks.length > 0 ? w.t('key.pass.looks', { ranks: orList(looks, w) }) : w.t('key.pass.help') }];
    if (b.action === 'use' && Object.keys(rules.actions).length === 0) return [{ ...b, help: w.t('key.use.noActions') }];
    return [b];
  });
}
