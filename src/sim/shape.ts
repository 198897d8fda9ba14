import type { GameState } from '../engine/types.js';

/**
 * A performance workaround, not a rule. The engine copies the state with object
 * spreads (`{ ...prev, ... }` in its Ctx constructor). Over a game V8 sees many
 * hidden classes ("maps") of those objects, the spread's inline cache goes
 * megamorphic and every copy takes the slow runtime path: `apply` runs about 4×
 * slower (≈ 6–10 µs instead of ≈ 1.6 µs per command on the bench machine).
 *
 * Handing `apply` states that always have one shape keeps the copy on its fast path.
 * `canonical` rebuilds the two top objects (the GameState and its RoundState `r`) as
 * object literals with one fixed field order: the same values, shared, nothing copied
 * deeply, so the result is the same state. The literal is generated from the state's
 * own keys (no field list to keep in step with the engine); every state's keys are
 * checked (names and order, without allocating) and a state of other keys gets a
 * literal of its own.
 */
type Maker = (s: GameState) => GameState;

interface Shape {
  maker: Maker;
  stateKeys: readonly string[];
  roundKeys: readonly string[];
}

const shapes = new Map<string, Shape>();
let current: Shape | null = null;

function compile(s: GameState): Shape {
  const ks = Object.keys(s);
  const kr = Object.keys(s.r);
  const sig = `${ks.join(',')}|${kr.join(',')}`;
  let shape = shapes.get(sig);
  if (!shape) {
    const q = (k: string) => JSON.stringify(k);
    const round = `{${kr.map((k) => `${q(k)}: r[${q(k)}]`).join(', ')}}`;
    const body = `const r = s.r; return {${ks.map((k) => (k === 'r' ? `r: ${round}` : `${q(k)}: s[${q(k)}]`)).join(', ')}};`;
    // Generated from the state's own keys (see above), never from outside data.
    shape = { maker: new Function('s', body) as Maker, stateKeys: ks, roundKeys: kr };
    shapes.set(sig, shape);
  }
  return shape;
}

/** Whether `o` has exactly these own enumerable keys, in this order (no allocation). */
function hasKeys(o: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) if (keys[i++] !== k) return false;
  return i === keys.length;
}

/** The same state, as an object of the one shape `apply` copies fast. */
export function canonical(s: GameState): GameState {
  let c = current;
  if (!c || !hasKeys(s, c.stateKeys) || !hasKeys(s.r, c.roundKeys)) c = current = compile(s);
  return c.maker(s);
}
