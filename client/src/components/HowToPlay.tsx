import { Box, Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { tabsSlotRecipe } from '@chakra-ui/react/theme';
import { registerRecipes } from '../theme.ts';

registerRecipes({ slotRecipes: { tabs: tabsSlotRecipe } });

interface Section {
  heading: string;
  paragraphs: string[];
}

/** A list of sections from the locale file (arrays keep the rules in one place per language). */
function useSections(key: string): Section[] {
  const { t } = useTranslation();
  const value = t(key, { returnObjects: true }) as unknown;
  return Array.isArray(value) ? (value as Section[]) : [];
}

/**
 * How to play (docs/product.md#screens), Basic (the default tab) and Advanced; shown in the
 * welcome dialog and on its own page. `headingLevel` keeps the outline right
 * wherever it is placed.
 */
export function HowToPlay({ headingLevel = 3 }: { headingLevel?: 2 | 3 | 4 }) {
  const { t } = useTranslation();
  const basic = useSections('how_to_play.basic');
  const advanced = useSections('how_to_play.advanced');
  const as = `h${headingLevel}` as 'h2' | 'h3' | 'h4';

  const render = (sections: Section[]) => (
    <Stack gap="4">
      {sections.map((s) => (
        <Box key={s.heading}>
          <Heading as={as} size="sm" mb="1">
            {s.heading}
          </Heading>
          {s.paragraphs.map((p) => (
            <Text key={p} mb="2">
              {p}
            </Text>
          ))}
        </Box>
      ))}
    </Stack>
  );

  return (
    <Tabs.Root defaultValue="basic" variant="line" lazyMount={false}>
      <Tabs.List aria-label={t('how_to_play.title')}>
        <Tabs.Trigger value="basic">{t('how_to_play.basic_tab')}</Tabs.Trigger>
        <Tabs.Trigger value="advanced">{t('how_to_play.advanced_tab')}</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="basic">{render(basic)}</Tabs.Content>
      <Tabs.Content value="advanced">{render(advanced)}</Tabs.Content>
    </Tabs.Root>
  );
}
