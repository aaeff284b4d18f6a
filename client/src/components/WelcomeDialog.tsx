import { Box, Button, Heading, HStack, List, Spinner, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { totalHits, useCatalogue } from '../stores/catalogue.ts';
import { useSettings } from '../stores/settings.ts';
import { AppDialog } from './AppDialog.tsx';
import { HowToPlay } from './HowToPlay.tsx';
import { WelcomeIllustration } from './illustrations/WelcomeIllustration.tsx';
import { listSlotRecipe } from '@chakra-ui/react/theme';
import { registerRecipes } from '../theme.ts';

registerRecipes({ slotRecipes: { list: listSlotRecipe } });

/**
 * The welcome dialog (spec §2): shown until dismissed (the stored welcome flag),
 * reopened from the menu. Says what Hitline is, how many hits and packs there
 * are (a spinner until the packs load) and how to play.
 */
export function WelcomeDialog() {
  const { t } = useTranslation();
  const dismissed = useSettings((s) => s.welcome);
  const setWelcome = useSettings((s) => s.setWelcome);
  const packs = useCatalogue((s) => s.packs);
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
            t('welcome.catalogue', { hits: t('count.hits', { count: totalHits(packs) }), packs: t('count.packs', { count: packs.length }) })
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
