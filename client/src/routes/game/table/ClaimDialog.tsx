import '../recipes.ts';
import { Button, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/AppDialog.tsx';
import { useGame } from '../../../stores/game.ts';
import * as actions from '../game-actions.ts';

/**
 * Claiming spends 3 tokens and may end the game: it asks first, so that one
 * tap cannot end a game by mistake. `playerId`: the seat claiming in a Local game, '' for
 * one's own seat, null when closed. "No" comes first and has the focus.
 */
export function ClaimDialog({ playerId, onClose }: { playerId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const name = useGame((s) => (playerId ? (s.game?.players.find((p) => p.id === playerId)?.name ?? '') : ''));
  return (
    <AppDialog
      open={playerId !== null}
      onClose={onClose}
      role="alertdialog"
      size="sm"
      title={t('table:claim_dialog.title')}
      initialFocusEl={() => document.getElementById('claim-no')}
      footer={
        <HStack gap="2" wrap="wrap">
          <Button id="claim-no" variant="outline" onClick={onClose}>
            {t('common.no')}
          </Button>
          <Button
            colorPalette="accent"
            onClick={() => {
              actions.claim(playerId || undefined);
              onClose();
            }}
          >
            {t('table:claim_dialog.yes')}
          </Button>
        </HStack>
      }
    >
      <Text>{name ? t('table:claim_dialog.text_for', { name }) : t('table:claim_dialog.text')}</Text>
    </AppDialog>
  );
}
