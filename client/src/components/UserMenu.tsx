import { Box, Button, Menu } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { showError } from '../errors.ts';
import { logout } from '../net/users.ts';
import { useSession } from '../stores/session.ts';
import { useUi } from '../stores/ui.ts';
import { notify } from '../a11y/notify.ts';
import { UserIcon } from './icons.tsx';

/**
 * The user menu (docs/product.md#screens). A guest is "known as" his name (a pet name until he
 * changes it here) and may change it, log in or register; a registered user is "logged in as" his name and may log out
 * (back to the lobby) or delete his account (after a confirmation).
 */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const openDialog = useUi((s) => s.openDialog);
  const registered = !!user && !user.virtual;
  const label = !user ? t('user.anonymous') : registered ? t('user.logged_in_as', { name: user.name }) : t('user.known_as', { name: user.name });

  const onSelect = async (value: string): Promise<void> => {
    if (value === 'delete_account' || value === 'rename') {
      openDialog(value);
      return;
    }
    if (value !== 'logout') return;
    try {
      await logout();
      // no cookie now: become a guest again, as any new visitor does
      await useSession.getState().refresh();
      notify.notification(t('user.logged_out'));
      void navigate('/');
    } catch (err) {
      showError(err);
    }
  };

  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit onSelect={({ value }) => void onSelect(value)}>
      <Menu.Trigger asChild>
        <Button variant="ghost" aria-label={label} px={{ base: '2', md: '3' }} maxW={{ base: 'auto', md: '18rem' }}>
          <UserIcon />
          <Box as="span" display={{ base: 'none', md: 'inline' }} truncate>
            {label}
          </Box>
        </Button>
      </Menu.Trigger>
      {/* not portalled: the menu stays inside its landmark for screen readers; mounted when
          first opened (the first page renders three menus: budget P10) */}
      <Menu.Positioner>
        <Menu.Content minW="14rem">
          <Menu.ItemGroup>
            <Menu.ItemGroupLabel>{label}</Menu.ItemGroupLabel>
            {registered ? (
              <>
                <Menu.Item value="logout">{t('user.logout')}</Menu.Item>
                <Menu.Item value="delete_account" color="fg.error">
                  {t('user.delete_account')}
                </Menu.Item>
              </>
            ) : (
              <>
                <Menu.Item value="rename">{t('user.rename')}</Menu.Item>
                <Menu.Item value="login" asChild>
                  <RouterLink to="/login">{t('user.login')}</RouterLink>
                </Menu.Item>
                <Menu.Item value="register" asChild>
                  <RouterLink to="/register">{t('user.register')}</RouterLink>
                </Menu.Item>
              </>
            )}
          </Menu.ItemGroup>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  );
}
