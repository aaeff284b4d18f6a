import './recipes.ts';
import { Button, HStack, Text } from '@chakra-ui/react';
import { useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerPayload } from '../../../../shared/protocol/game.ts';
import { AppDialog } from '../../components/AppDialog.tsx';

/**
 * Asks the creator before a player is removed (a click on the wrong row
 * cannot be undone: the seat's hits and tokens are gone). "Cancel" has the
 * focus, so Return does no harm; the focus goes back to where it was (the kick
 * button) or, when the row is gone, to `afterKick`.
 */
export function KickDialog({
  player,
  onClose,
  onKick,
  returnFocus,
}: {
  player: PlayerPayload | null;
  onClose: () => void;
  onKick: (player: PlayerPayload) => void;
  /** Where the focus goes when the dialog closes (the caller points it at the kick button, or elsewhere once the row is gone). */
  returnFocus: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  // the name stays while the dialog fades out
  const last = useRef<PlayerPayload | null>(null);
  if (player) last.current = player;
  const name = last.current?.name ?? '';
  return (
    <AppDialog
      open={!!player}
      onClose={onClose}
      role="alertdialog"
      size="sm"
      title={t('game.kick_dialog.title', { name })}
      initialFocusEl={() => document.getElementById('kick-no')}
      finalFocusEl={returnFocus}
      footer={
        <HStack gap="2">
          <Button id="kick-no" variant="outline" onClick={onClose}>
            {t('game.kick_dialog.no')}
          </Button>
          <Button colorPalette="red" onClick={() => player && onKick(player)}>
            {t('game.kick_dialog.yes')}
          </Button>
        </HStack>
      }
    >
      <Text>{t('game.kick_dialog.text', { name })}</Text>
    </AppDialog>
  );
}
