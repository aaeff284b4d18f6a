import { Box, Flex, HStack, Link } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { HitStatus } from './HitStatus.tsx';
import { NavMenu } from './NavMenu.tsx';
import { UserMenu } from './UserMenu.tsx';

/**
 * The navigation bar (spec §2): the product name (home), the hit-download
 * indicator, the main menu and the user menu. Sticky, so it stays reachable
 * and never covers the content the way a fixed bar would.
 */
export function Header() {
  const { t } = useTranslation();
  return (
    <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg" borderBottomWidth="1px" borderColor="border">
      <Flex as="nav" aria-label={t('nav.label')} align="center" gap="2" maxW="7xl" mx="auto" px={{ base: '2', md: '4' }} minH="50px" py="1">
        <Link asChild fontWeight="bold" fontSize={{ base: 'lg', md: 'xl' }} px="2" minH="44px" display="inline-flex" alignItems="center" color="fg">
          <RouterLink to="/">{t('app.name')}</RouterLink>
        </Link>
        <HStack gap="1" ms="auto">
          <HitStatus />
          <NavMenu />
          <UserMenu />
        </HStack>
      </Flex>
    </Box>
  );
}
