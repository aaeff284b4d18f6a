import './recipes.ts';
import { Button, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/AppDialog.tsx';
import * as actions from './game-actions.ts';

/** Spec §2: leaving a running game asks first ('leave game?', yes or no); "no" has the focus. */
export function LeaveDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      role="alertdialog"
      size="sm"
      title={t('game.leave_dialog.title')}
      initialFocusEl={() => document.getElementById('leave-no')}
      footer={
        <HStack gap="2">
          <Button id="leave-no" variant="outline" onClick={onClose}>
            {t('common.no')}
          </Button>
          <Button
            colorPalette="red"
            onClick={() => {
              actions.leave();
              onClose();
            }}
          >
            {t('common.yes')}
          </Button>
        </HStack>
      }
    >
      <Text>{t('game.leave_dialog.text')}</Text>
    </AppDialog>
  );
}
