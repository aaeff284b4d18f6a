import { Box, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGame } from '../../../stores/game.ts';
import { LoopbackWarning, QrImage, qrPath, type QrPath } from '../InviteButton.tsx';
import { playLink, useJoinOrigin } from '../join-origin.ts';
import { usePerspective } from '../use-perspective.ts';
import { fetchSeatKey } from './seat-key.ts';

/** The address as people read it: no scheme, no query (the QR code carries the whole of it). */
const readable = (link: string): string => {
  const url = new URL(link);
  return `${url.host}${url.pathname}`;
};

/**
 * The way in for phones, on the TV for the whole game (docs/product.md#screens "TV"): a QR code of
 * the controller view's address and the address written out. `big` while the
 * game is Open (the table is still gathering), a corner while it runs (late
 * joiners never hunt for it). A Local game's code carries its seat key, which
 * only the creator's device has.
 */
export function TvJoin({ big }: { big: boolean }) {
  const { t } = useTranslation();
  const gameId = useGame((s) => s.game?.id ?? '');
  const local = useGame((s) => s.game?.mode === 'Local');
  const creator = !!usePerspective().me?.creator;
  const where = useJoinOrigin();
  const [key, setKey] = useState<string | null>(null);
  const [qr, setQr] = useState<QrPath | 'failed' | null>(null);

  useEffect(() => {
    if (!local || !creator || !gameId) return;
    let live = true;
    void fetchSeatKey(gameId).then((k) => live && setKey(k));
    return () => {
      live = false;
    };
  }, [local, creator, gameId]);

  const link = where ? playLink(where.origin, gameId, key) : null;
  useEffect(() => {
    if (!link) return;
    let live = true;
    qrPath(link).then(
      (p) => live && setQr(p),
      () => live && setQr('failed'),
    );
    return () => {
      live = false;
    };
  }, [link]);

  return (
    <Stack
      as="section"
      aria-labelledby="tv-join-heading"
      data-testid="tv-join"
      data-link={link ?? ''}
      gap={big ? '4' : '2'}
      align="center"
      textAlign="center"
      borderWidth="1px"
      borderRadius="panel"
      bg="bg.panel"
      boxShadow="raised"
      p={big ? '6' : '3'}
    >
      <Text as="h2" id="tv-join-heading" fontFamily="heading" fontWeight="800" fontSize={big ? '3xl' : 'lg'} lineHeight="short">
        {t('tv.join_heading')}
      </Text>
      {/* dark modules on white with a quiet zone, whatever the scheme: cameras need the contrast */}
      <Box bg="white" p={big ? '3' : '2'} borderRadius="l2" w={big ? { base: '14rem', md: '20rem' } : '10rem'} maxW="full">
        <QrImage qr={qr} label={t('tv.qr_label')} />
      </Box>
      {link && (
        <Text fontFamily="mono" fontWeight="bold" fontSize={big ? { base: 'lg', md: '2xl' } : 'sm'} overflowWrap="anywhere" data-testid="tv-join-address">
          {readable(link)}
        </Text>
      )}
      {where?.loopbackOnly && <LoopbackWarning />}
    </Stack>
  );
}
