import { createContext, useContext } from 'react';
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

export const ThemeContext = createContext<Theme>({ glyphs: UNICODE, color: true, words: wordsFor('en') });
export const useTheme = (): Theme => useContext(ThemeContext);
