import { Box, Button, Menu } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { APP_VERSION, copyrightYears, ISSUES_URL, OWNER_URL, SOURCE_URL } from '../about.ts';
import { useSettings } from '../stores/settings.ts';
import { useUi } from '../stores/ui.ts';
import { MenuIcon } from './icons.tsx';

/**
 * The main menu (docs/product.md#screens): lobby, browse hits, welcome, keyboard shortcuts,
 * settings; then the copyright line, source code, version with the changelog,
 * and the issue link. Everything is a menu item, so arrow keys reach it all and
 * a screen reader reads it all.
 */
export function NavMenu() {
  const { t } = useTranslation();
  const setWelcome = useSettings((s) => s.setWelcome);
  const openDialog = useUi((s) => s.openDialog);
  const copyright = t('nav.copyright', { years: copyrightYears() });

  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      lazyMount
      unmountOnExit
      onSelect={({ value }) => {
        if (value === 'welcome') setWelcome(false);
        else if (value === 'shortcuts' || value === 'settings') openDialog(value);
      }}
    >
      <Menu.Trigger asChild>
        <Button variant="ghost" aria-label={t('nav.menu')} px={{ base: '2', md: '3' }}>
          <MenuIcon />
          <Box as="span" display={{ base: 'none', md: 'inline' }}>
            {t('nav.menu')}
          </Box>
        </Button>
      </Menu.Trigger>
      {/* not portalled: the menu stays inside its landmark for screen readers; mounted when
          first opened (the first page renders three menus: budget P10) */}
      <Menu.Positioner>
        <Menu.Content minW="16rem" maxH="calc(100dvh - 60px)" overflowY="auto">
          <Menu.Item value="lobby" asChild>
            <RouterLink to="/">{t('nav.lobby')}</RouterLink>
          </Menu.Item>
          <Menu.Item value="hits" asChild>
            <RouterLink to="/hits">{t('nav.hits')}</RouterLink>
          </Menu.Item>
          <Menu.Item value="welcome">{t('nav.welcome')}</Menu.Item>
          <Menu.Item value="shortcuts">{t('nav.shortcuts')}</Menu.Item>
          <Menu.Item value="settings">{t('nav.settings')}</Menu.Item>
          <Menu.Separator />
          <Menu.ItemGroup>
            <Menu.ItemGroupLabel>{t('nav.about')}</Menu.ItemGroupLabel>
            {OWNER_URL ? (
              <Menu.Item value="owner" asChild>
                <a href={OWNER_URL} target="_blank" rel="noopener noreferrer">
                  {copyright}
                </a>
              </Menu.Item>
            ) : (
              <Menu.Item value="copyright" disabled color="fg.muted" opacity="1">
                {copyright}
              </Menu.Item>
            )}
            {SOURCE_URL && (
              <Menu.Item value="source" asChild>
                <a href={SOURCE_URL} target="_blank" rel="noopener noreferrer">
                  {t('nav.source')}
                </a>
              </Menu.Item>
            )}
            <Menu.Item value="changelog" asChild>
              <RouterLink to="/changelog">{t('nav.version', { version: APP_VERSION })}</RouterLink>
            </Menu.Item>
            {ISSUES_URL && (
              <Menu.Item value="issues" asChild>
                <a href={ISSUES_URL} target="_blank" rel="noopener noreferrer">
                  {t('nav.issues')}
                </a>
              </Menu.Item>
            )}
          </Menu.ItemGroup>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  );
}
