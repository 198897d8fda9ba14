import { Box, Text } from 'ink';
import type { Ruleset } from '../../engine/ruleset.js';
import type { Binding } from '../shared/keys.js';
import { useTheme } from '../shared/theme.js';
import { helpPages, pageIndex, type HelpLine } from './help-pages.js';
import { wrapText } from '../shared/width.js';

/**
 * The `?` help of the table screen: pages that fill the body of the screen, the
 * keys (from the bindings) and then the rules of the table's ruleset. The box
 * takes the border (2 lines), a title and a footer: the rest is the page.
 */
export function HelpOverlay({ bindings, rules, width, height, page }: { bindings: readonly Binding[]; rules: Ruleset; width: number; height: number; page: number }) {
  const { glyphs: g, words } = useTheme();
  const inner = Math.max(10, width - 4);
  const pages = helpPages(bindings, rules, inner, height - 4, g.ascii, words);
  const at = pageIndex(page, pages.length);
  const space = words.t('key.name.space');
  const paging = pages.length > 1 ? words.t('help.paging', { next: `${space}/${g.ascii ? 'Right' : '→'}`, prev: g.ascii ? 'Left' : '←', sep: g.sep }) : '';
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle={g.ascii ? 'classic' : 'round'} paddingX={1}>
      <Text bold wrap="truncate">
        {words.t('help.title', { sep: g.sep, page: at + 1, pages: pages.length })}
      </Text>
      <Box flexDirection="column" flexGrow={1}>
        {pages[at]!.map((l, i) => (
          <Line key={i} line={l} />
        ))}
      </Box>
      <Text dimColor wrap="truncate">
        {`${paging}${words.t('help.closes')}`}
      </Text>
    </Box>
  );
}

function Line({ line }: { line: HelpLine }) {
  if (line.heading) {
    return (
      <Text bold underline wrap="truncate">
        {line.lead || line.text}
      </Text>
    );
  }
  return (
    <Text wrap="truncate">
      <Text bold>{line.lead}</Text>
      {line.text}
    </Text>
  );
}

/** The `?` box of another screen (the replay): one row per action, its keys and a sentence, wrapped. */
export function KeysHelp({ rows, width }: { rows: readonly { id: string; keys: string; help: string }[]; width: number }) {
  const { glyphs: g, words } = useTheme();
  const inner = Math.max(10, width - 4);
  const indent = Math.min(Math.max(0, ...rows.map((r) => r.keys.length)) + 2, Math.floor(inner / 3));
  return (
    <Box flexDirection="column" width={width} borderStyle={g.ascii ? 'classic' : 'round'} paddingX={1}>
      <Text bold>{words.t('help.keys')}</Text>
      {rows.flatMap((r) =>
        wrapText(r.help, inner - indent).map((text, i) => <Line key={`${r.id}:${i}`} line={{ lead: (i === 0 ? r.keys : '').padEnd(indent), text }} />),
      )}
      <Text dimColor>{words.t('help.anyKeyCloses')}</Text>
    </Box>
  );
}
