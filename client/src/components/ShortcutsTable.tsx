import { Box, Kbd, Table } from '@chakra-ui/react';
import { kbdRecipe } from '@chakra-ui/react/theme';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from '../a11y/shortcuts.ts';
import { registerRecipes } from '../theme.ts';
import { useScrollable } from './AppDialog.tsx';

registerRecipes({ recipes: { kbd: kbdRecipe } });

/**
 * One key cap per key ("Alt" + "Shift" + "U"), kept on one line: a combination
 * never breaks. On a phone's width only the last key shows (the caption says that
 * every shortcut is Alt+Shift plus a key), so the key column stays on screen
 * instead of scrolling away sideways; screen readers still hear the whole combination.
 */
function Keys({ modifiers, last }: { modifiers: string[]; last: string }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <Box as="span" srOnly={{ base: true, sm: false }}>
        {modifiers.map((k) => (
          <Fragment key={k}>
            <Kbd>{k}</Kbd>+
          </Fragment>
        ))}
      </Box>
      {/* normal word spacing: the recipe's tight one runs "Pfeil runter" together */}
      <Kbd wordSpacing="normal">{last}</Kbd>
    </span>
  );
}

/** The keyboard shortcuts as a table of section, action and keys (docs/product.md#screens). */
export function ShortcutsTable() {
  const { t } = useTranslation();
  const area = useScrollable('x');
  const keyLabel = (key: string): string => (key.length === 1 ? key : t(`shortcuts.key_names.${key}`, { defaultValue: key }));
  return (
    // a key never breaks: should the table still not fit (a very narrow screen, a large font), it scrolls sideways within itself
    <Table.ScrollArea ref={area.ref} {...(area.scrolls ? { tabIndex: 0, role: 'group', 'aria-label': t('shortcuts.caption') } : {})}>
      {/* a little less room round the cells on a phone: with a wide system face (DejaVu Sans on Linux) a German key named in words fits at 360 px */}
      <Table.Root size="sm" variant="line" css={{ '& th, & td': { whiteSpace: 'normal', verticalAlign: 'top', paddingInline: { base: '1.5', sm: '2' } } }}>
        <Table.Caption captionSide="top" textAlign="start" color="fg.muted" mb="2" whiteSpace="normal">
          {/* (the caption wraps: the table's own no-wrap would widen the table to its length) */}
          {t('shortcuts.caption')}
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader scope="col">{t('shortcuts.section')}</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">{t('shortcuts.action')}</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">{t('shortcuts.keys')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {SHORTCUTS.map((s) => (
            <Table.Row key={s.id}>
              <Table.Cell>{t(`shortcuts.sections.${s.section}`)}</Table.Cell>
              <Table.Cell>{t(`shortcuts.actions.${s.id}`)}</Table.Cell>
              <Table.Cell>
                <Keys modifiers={['Alt', keyLabel('Shift')]} last={s.id === 'player_info' ? t('shortcuts.digits') : keyLabel(s.keys[0])} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
