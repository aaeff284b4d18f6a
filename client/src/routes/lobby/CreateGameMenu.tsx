import { Button, Menu } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { GameMode } from '../../../../shared/protocol/game.ts';
import { formatKeys, NO_KEYBOARD_HINTS } from '../../a11y/shortcuts.ts';
import { ChevronDownIcon } from '../../components/icons.tsx';

const MODES: { mode: GameMode; key: string }[] = [
  { mode: 'Public', key: 'U' },
  { mode: 'Private', key: 'R' },
  { mode: 'Local', key: 'L' },
];

/**
 * The create-new-game dropdown (docs/product.md#screens): public, private or local. Disabled
 * (with the reason beside it) while nobody is signed in.
 */
export function CreateGameMenu({ disabled, creating, onCreate }: { disabled: boolean; creating: boolean; onCreate: (mode: GameMode) => void }) {
  const { t } = useTranslation();
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit onSelect={({ value }) => onCreate(value as GameMode)}>
      <Menu.Trigger asChild>
        <Button colorPalette="accent" disabled={disabled} loading={creating} loadingText={t('lobby.creating_short')}>
          {t('lobby.create')}
          <ChevronDownIcon />
        </Button>
      </Menu.Trigger>
      {/* not portalled: the menu stays inside its landmark for screen readers; mounted when
          first opened (the first page renders three menus: budget P10) */}
      <Menu.Positioner>
        <Menu.Content minW="16rem">
          {MODES.map(({ mode, key }) => (
            <Menu.Item key={mode} value={mode} aria-keyshortcuts={formatKeys(key)}>
              {t(`lobby.create_${mode}`)}
              {/* the key hint is for keyboards: hidden on a touch screen without a mouse or trackpad
                  (the shortcut itself stays, and aria-keyshortcuts names it to screen readers) */}
              <Menu.ItemCommand css={{ [NO_KEYBOARD_HINTS]: { display: 'none' } }}>
                {/* the keys as the keyboard names them ("Umschalt" in German); aria-keyshortcuts keeps ARIA's names */}
                {`Alt+${t('shortcuts.key_names.Shift')}+${key}`}
              </Menu.ItemCommand>
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  );
}
