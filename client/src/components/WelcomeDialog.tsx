import { Box, Button, Heading, HStack, List, Spinner, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useCatalogue } from '../stores/catalogue.ts';
import { useSettings } from '../stores/settings.ts';
import { AppDialog } from './AppDialog.tsx';
import { HowToPlay } from './HowToPlay.tsx';
import { WelcomeIllustration } from './illustrations/WelcomeIllustration.tsx';
import { listSlotRecipe } from '@chakra-ui/react/theme';
import { registerRecipes } from '../theme.ts';

registerRecipes({ slotRecipes: { list: listSlotRecipe } });

/**
 * What there is to play with, as it is: the hits in the packs (a hit in two
 * packs is one hit), and whether they come with audio (`withAudio`: the
 * download indicator's count, unknown until the server says).
 */
export function catalogueText(t: TFunction, hits: number, packs: number, withAudio: number | undefined): string {
  const values = { hits: t('count.hits', { count: hits }), packs: t('count.packs', { count: packs }) };
  if (withAudio === undefined || hits === 0) return t('welcome.catalogue', values);
  if (withAudio === 0) return t('welcome.catalogue_cards', values);
  return t('welcome.catalogue_audio', { ...values, audio: Math.min(withAudio, hits) });
}

/**
 * The welcome dialog (docs/product.md#screens): shown until dismissed (the stored welcome flag),
 * reopened from the menu. Says what Hitline is, how many hits and packs there
 * are and whether they have audio (a spinner until the packs load), and how to play.
 */
export function WelcomeDialog() {
  const { t } = useTranslation();
  const dismissed = useSettings((s) => s.welcome);
  const setWelcome = useSettings((s) => s.setWelcome);
  const packCount = useCatalogue((s) => s.packs.length);
  const packedHits = useCatalogue((s) => s.packedHits);
  const withAudio = useCatalogue((s) => s.progress?.available);
  const packsLoaded = useCatalogue((s) => s.packsLoaded);
  const loadPacks = useCatalogue((s) => s.loadPacks);
  const open = !dismissed;

  useEffect(() => {
    if (open && !packsLoaded) void loadPacks();
  }, [open, packsLoaded, loadPacks]);

  const close = (): void => setWelcome(true);
  const features = t('welcome.features', { returnObjects: true }) as unknown;

  return (
    // No scroll lock: it opens by itself on a first visit, in the busiest second of
    // the start, and locking measures the whole page in one long task (budget P10);
    // the page behind, the lobby, is short, and on a phone the dialog covers it.
    <AppDialog
      open={open}
      onClose={close}
      title={t('welcome.title')}
      size="lg"
      lockScroll={false}
      footer={<Button onClick={close}>{t('welcome.close')}</Button>}
    >
      <Box display="flex" justifyContent="center" mb="4" color="fg.muted">
        <WelcomeIllustration width="300" style={{ height: 'auto', maxWidth: '100%' }} />
      </Box>
      <Text mb="4">{t('welcome.intro')}</Text>
      <List.Root ps="5" mb="6" gap="1">
        <List.Item>
          {packsLoaded ? (
            catalogueText(t, packedHits, packCount, withAudio)
          ) : (
            <HStack as="span" gap="2">
              <Spinner size="xs" aria-hidden="true" />
              <span>{t('welcome.catalogue_loading')}</span>
            </HStack>
          )}
        </List.Item>
        {Array.isArray(features) && features.map((f) => <List.Item key={String(f)}>{String(f)}</List.Item>)}
      </List.Root>
      <Box>
        <Heading as="h3" size="md" mb="2">
          {t('how_to_play.title')}
        </Heading>
        <HowToPlay headingLevel={4} />
      </Box>
    </AppDialog>
  );
}
