import { Kbd, Table } from '@chakra-ui/react';
import { kbdRecipe } from '@chakra-ui/react/theme';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from '../a11y/shortcuts.ts';
import { registerRecipes } from '../theme.ts';
import { useScrollable } from './AppDialog.tsx';

registerRecipes({ recipes: { kbd: kbdRecipe } });

/** One key cap per key ("Alt" + "Shift" + "U"), kept on one line: a combination never breaks. */
function Keys({ keys }: { keys: string[] }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {keys.map((k, i) => (
        <Fragment key={k}>
          {i > 0 && '+'}
          <Kbd>{k}</Kbd>
        </Fragment>
      ))}
    </span>
  );
}

/** The keyboard shortcuts as a table of section, action and keys (spec §2). */
export function ShortcutsTable() {
  const { t } = useTranslation();
  const area = useScrollable('x');
  const keyLabel = (key: string): string => (key.length === 1 ? key : t(`shortcuts.key_names.${key}`, { defaultValue: key }));
  return (
    // a key combination never breaks, so on a narrow phone (German key names) the table scrolls sideways within itself
    <Table.ScrollArea ref={area.ref} {...(area.scrolls ? { tabIndex: 0, role: 'group', 'aria-label': t('shortcuts.caption') } : {})}>
      <Table.Root size="sm" variant="line" css={{ '& th, & td': { whiteSpace: 'normal', verticalAlign: 'top' } }}>
        <Table.Caption captionSide="top" textAlign="start" color="fg.muted" mb="2">
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
                <Keys keys={['Alt', keyLabel('Shift'), s.id === 'player_info' ? t('shortcuts.digits') : keyLabel(s.keys[0])]} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
