import { Heading, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { usePageTitle } from './page-title.ts';

/** A routed screen: the document title (ending with the product name) and its one h1. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Stack gap="6" py={{ base: '4', md: '8' }}>
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'center' }} gap="3">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} fontWeight="bold" letterSpacing="-0.02em">
          {title}
        </Heading>
        {actions}
      </Stack>
      {children}
    </Stack>
  );
}
