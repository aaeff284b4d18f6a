import './recipes.ts';
import { Button, HStack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useGame } from '../../stores/game.ts';
import * as actions from './game-actions.ts';

/** What the game screen asks before doing it: leaving a running game, stopping it. */
export type Confirmation = 'leave' | 'stop';

/**
 * Asks before a step that cannot be undone (docs/product.md#screens: leaving a running game asks
 * 'leave game?', yes or no; stopping a running game ends it for everybody). "No"
 * comes first and has the focus, so Return does no harm.
 */
export function ConfirmDialog({ ask, onClose }: { ask: Confirmation | null; onClose: () => void }) {
  const { t } = useTranslation();
  // the text stays while the dialog fades out
  const last = useRef<Confirmation>('leave');
  if (ask) last.current = ask;
  const what = last.current;
  // the creator of a Local game leaves with every seat at his screen: the game is deleted
  const local = useGame((s) => s.game?.mode === 'Local');
  // a game that ended while "Stop the game?" was open has nothing left to stop: the question goes
  const open = useGame((s) => s.game?.state === 'Open');
  useEffect(() => {
    if (ask === 'stop' && open) onClose();
  }, [ask, open, onClose]);
  const text = what === 'stop' ? t('game.stop_dialog.text') : local ? t('game.leave_dialog.text_local') : t('game.leave_dialog.text');
  return (
    <AppDialog
      open={ask !== null}
      onClose={onClose}
      role="alertdialog"
      size="sm"
      title={t(what === 'stop' ? 'game.stop_dialog.title' : 'game.leave_dialog.title')}
      initialFocusEl={() => document.getElementById('confirm-no')}
      footer={
        <HStack gap="2">
          <Button id="confirm-no" variant="outline" onClick={onClose}>
            {t('common.no')}
          </Button>
          <Button
            colorPalette="red"
            onClick={() => {
              if (what === 'stop') actions.stop();
              else actions.leave();
              onClose();
            }}
          >
            {t('common.yes')}
          </Button>
        </HStack>
      }
    >
      <Text>{text}</Text>
    </AppDialog>
  );
}
