import { Box, Heading, List, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/Page.tsx';
import { listSlotRecipe } from '@chakra-ui/react/theme';
import { registerRecipes } from '../../theme.ts';

registerRecipes({ slotRecipes: { list: listSlotRecipe } });

interface Release {
  version: string;
  date: string;
  changes: string[];
}

/** The changelog (reached from the version line of the menu), newest release first. */
export function ChangelogScreen() {
  const { t } = useTranslation();
  const value = t('changelog.releases', { returnObjects: true }) as unknown;
  const releases = Array.isArray(value) ? (value as Release[]) : [];
  return (
    <Page title={t('changelog.title')}>
      <Stack gap="6">
        {releases.map((r) => (
          <Box as="section" key={r.version} aria-labelledby={`release-${r.version}`}>
            <Heading as="h2" size="lg" id={`release-${r.version}`} mb="2">
              {t('changelog.release', { version: r.version, date: r.date })}
            </Heading>
            <List.Root ps="5" gap="1">
              {r.changes.map((c) => (
                <List.Item key={c}>{c}</List.Item>
              ))}
            </List.Root>
          </Box>
        ))}
      </Stack>
    </Page>
  );
}
