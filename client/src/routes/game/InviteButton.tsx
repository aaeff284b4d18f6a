import './recipes.ts';
import { Alert, Box, Button, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GameMode } from '../../../../shared/protocol/game.ts';
import { notify } from '../../a11y/notify.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useJoinOrigin } from './join-origin.ts';

/** The dark modules of a QR code as one SVG path (a 1×1 square per module), with its size in modules. */
export interface QrPath {
  size: number;
  d: string;
}

/** The QR code of `text` (error correction M), from the qrcode-generator package, loaded when first needed. */
export async function qrPath(text: string): Promise<QrPath> {
  const { default: qrcode } = await import('qrcode-generator');
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  let d = '';
  for (let row = 0; row < size; row++) for (let col = 0; col < size; col++) if (qr.isDark(row, col)) d += `M${col} ${row}h1v1h-1z`;
  return { size, d };
}

/** The game's address, which is its invitation: opening it shows the game and its Join button (`origin`: join-origin.ts). */
export const gameLink = (gameId: string, origin = window.location.origin): string => new URL(`/game/${encodeURIComponent(gameId)}`, origin).href;

/**
 * Invite players (a party: everybody scans the host's screen): the game's link
 * to copy, and its QR code. A Private game is found only through this link.
 */
export function InviteButton({ gameId, mode }: { gameId: string; mode: GameMode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [qr, setQr] = useState<QrPath | 'failed' | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const where = useJoinOrigin();
  const link = gameLink(gameId, where?.origin);

  useEffect(() => {
    if (!open || !where) return;
    let live = true;
    qrPath(link).then(
      (path) => live && setQr(path),
      () => live && setQr('failed'),
    );
    return () => {
      live = false;
    };
  }, [open, link, where]);

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(link);
      notify.notification(t('game.invite.copied'), { toast: 'success' });
    } catch {
      // no clipboard (an insecure page, a refused permission): the link is selected for the user to copy
      field.current?.focus();
      field.current?.select();
      notify.notification(t('game.invite.copy_failed'), { toast: 'warning' });
    }
  };

  return (
    <>
      <Button ref={opener} variant="outline" onClick={() => setOpen(true)}>
        {t('game.invite.button')}
      </Button>
      <AppDialog open={open} onClose={() => setOpen(false)} title={t('game.invite.title')} size="sm" finalFocusEl={opener}>
        <Stack gap="4">
          <Text>{mode === 'Private' ? t('game.invite.help_private') : t('game.invite.help')}</Text>
          {/* the id, to read out: the heading says the game's state instead */}
          <Text>
            {t('game.id')}:{' '}
            <Box as="span" fontFamily="mono" fontWeight="bold">
              {gameId}
            </Box>
          </Text>
          {where?.loopbackOnly && <LoopbackWarning />}
          <Field.Root>
            <Field.Label>{t('game.invite.link')}</Field.Label>
            <HStack gap="2" w="full">
              <Input ref={field} value={link} readOnly onFocus={(e) => e.currentTarget.select()} fontFamily="mono" />
              <Button colorPalette="accent" onClick={() => void copy()} flexShrink={0}>
                {t('game.invite.copy')}
              </Button>
            </HStack>
          </Field.Root>
          {/* dark modules on white with a quiet zone, whatever the colour scheme: phones' cameras need the contrast */}
          <Box bg="white" p="3" borderRadius="l2" alignSelf="center" w="full" maxW="16rem">
            <QrImage qr={qr} label={t('game.invite.qr_label')} />
          </Box>
        </Stack>
      </AppDialog>
    </>
  );
}

/** Phones cannot open the loopback address the link has: how to give them one they can. */
export function LoopbackWarning() {
  const { t } = useTranslation();
  return (
    <Alert.Root status="warning" data-testid="loopback-warning">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{t('game.invite.loopback_warning')}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** A QR code as an SVG filling its box, with a quiet zone; the failure in words, or an empty square while it is made. */
export function QrImage({ qr, label }: { qr: QrPath | 'failed' | null; label: string }) {
  const { t } = useTranslation();
  if (qr === 'failed') {
    return (
      // on the code's white box whatever the scheme: a dark grey that reads on white
      <Text color="#3f3f46" textAlign="center">
        {t('game.invite.qr_failed')}
      </Text>
    );
  }
  if (!qr) return <Box aspectRatio="1" />;
  return (
    <svg viewBox={`-2 -2 ${qr.size + 4} ${qr.size + 4}`} role="img" aria-label={label} shapeRendering="crispEdges" style={{ display: 'block', width: '100%', height: 'auto' }}>
      <rect x="-2" y="-2" width={qr.size + 4} height={qr.size + 4} fill="#fff" />
      <path d={qr.d} fill="#000" />
    </svg>
  );
}
