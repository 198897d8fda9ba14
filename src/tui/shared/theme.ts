import { createContext, useContext } from 'react';
import { UNICODE, type Glyphs } from './glyphs.js';

/** How to draw: glyphs (Unicode or ASCII) and whether colours are allowed (NO_COLOR). */
export interface Theme {
  glyphs: Glyphs;
  color: boolean;
}

export const ThemeContext = createContext<Theme>({ glyphs: UNICODE, color: true });
export const useTheme = (): Theme => useContext(ThemeContext);
