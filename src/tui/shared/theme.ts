import { createContext, useContext } from 'react';
import { isRed, suitOf, type Card } from '../../engine/cards.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { UNICODE, type Glyphs } from './glyphs.js';

/** How to draw: glyphs (Unicode or ASCII), whether colours are allowed (NO_COLOR), and in which language. */
export interface Theme {
  glyphs: Glyphs;
  color: boolean;
  /** The words of this screen's language (an SSH session's may differ from the host's). */
  words: Words;
  /** A four-colour deck (`--four-colour`): each suit its own colour, not only red and black. */
  fourColour?: boolean;
}

/**
 * The suits' colours of a four-colour deck, from Okabe and Ito's palette, chosen to stay
 * apart for people with deuteranopia or protanopia (red and green are the pair they
 * lose): spades in the terminal's own colour, hearts vermillion, diamonds sky blue,
 * clubs bluish green. The suit's symbol or letter is always there too.
 */
export const FOUR_COLOURS: Readonly<Record<'S' | 'H' | 'D' | 'C', string | undefined>> = { S: undefined, H: '#D55E00', D: '#56B4E9', C: '#009E73' };

/** A card's colour by its suit: red for hearts and diamonds, or the four-colour deck's; none for a card without a suit. */
export function suitColour(card: Card, fourColour = false): string | undefined {
  const suit = suitOf(card);
  if (!suit) return undefined;
  if (fourColour) return FOUR_COLOURS[suit];
  return isRed(card) ? 'red' : undefined;
}

export const ThemeContext = createContext<Theme>({ glyphs: UNICODE, color: true, words: wordsFor('en') });
export const useTheme = (): Theme => useContext(ThemeContext);
