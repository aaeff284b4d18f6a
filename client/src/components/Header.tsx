import { Box, Flex, HStack, Link } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { HitStatus } from './HitStatus.tsx';
import { NavMenu } from './NavMenu.tsx';
import { UserMenu } from './UserMenu.tsx';

/** The product's mark: a record with the accent's label (decoration; the name is beside it). */
function Logo() {
  return (
    <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="15" fill="#1b1929" stroke="currentColor" strokeOpacity="0.25" />
      <circle cx="16" cy="16" r="10.5" fill="none" stroke="#fff" strokeOpacity="0.18" />
      <circle cx="16" cy="16" r="6" fill="var(--chakra-colors-accent-solid)" />
      <circle cx="16" cy="16" r="1.6" fill="#1b1929" />
    </svg>
  );
}

/**
 * The navigation bar (docs/product.md#screens): the product name (home), the hit-download
 * indicator, the main menu and the user menu. Sticky, so it stays reachable
 * and never covers the content the way a fixed bar would.
 */
export function Header() {
  const { t } = useTranslation();
  return (
    <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg/85" backdropFilter="blur(10px)" borderBottomWidth="1px" borderColor="border">
      <Flex as="nav" aria-label={t('nav.label')} align="center" gap="2" maxW="7xl" mx="auto" px={{ base: '2', md: '4' }} minH="50px" py="1">
        <Link asChild fontFamily="heading" fontWeight="bold" fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em" px="2" minH="44px" display="inline-flex" alignItems="center" gap="2" color="fg" _hover={{ textDecoration: 'none', color: 'accent.fg' }}>
          <RouterLink to="/">
            <Logo />
            {t('app.name')}
          </RouterLink>
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
