import { Box, Button, Field, Flex, NativeSelect, useBreakpointValue } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { pageItems } from './pagination.ts';
import './recipes.ts';
import { browseHref, PAGE_SIZES, type BrowseState } from './url-state.ts';
import { useHitsT } from './use-hits.ts';

/** One pager control: a link to another page, or a disabled button where there is none (first page's "previous"). */
function PageLink({ to, label, current, children }: { to: BrowseState | null; label: string; current?: boolean; children: ReactNode }) {
  if (!to || current) {
    return (
      <Button
        size="sm"
        variant={current ? 'solid' : 'ghost'}
        colorPalette={current ? 'accent' : 'gray'}
        disabled={!current}
        aria-label={label}
        {...(current ? { 'aria-current': 'page' as const } : {})}
      >
        {children}
      </Button>
    );
  }
  return (
    <Button asChild size="sm" variant="ghost">
      <RouterLink to={browseHref(to)} aria-label={label}>
        {children}
      </RouterLink>
    </Button>
  );
}

/**
 * The pager (docs/product.md#screens): first, previous, numbered pages with ellipses, next,
 * last; links, because each page is an address. Phones show the current page
 * alone between the first and last (no neighbours) and skip the first/last
 * arrows, which the numbers 1 and N already cover, so it fits 360 px.
 */
export function Pager({ page, pages, state }: { page: number; pages: number; state: BrowseState }) {
  const t = useHitsT();
  const narrow = useBreakpointValue({ base: true, md: false }) ?? false;
  const at = (p: number): BrowseState => ({ ...state, page: p });
  return (
    <Box as="nav" aria-label={t('pager.label')}>
      <Flex as="ul" gap="1" wrap="wrap" align="center" listStyleType="none" m="0" p="0">
        {!narrow && (
          <li>
            <PageLink to={page > 1 ? at(1) : null} label={t('pager.first')}>
              «
            </PageLink>
          </li>
        )}
        <li>
          <PageLink to={page > 1 ? at(Math.min(page - 1, pages)) : null} label={t('pager.previous')}>
            ‹
          </PageLink>
        </li>
        {pageItems(page, pages, narrow ? 0 : 1).map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <PageLink to={at(item)} label={t('pager.page', { page: item })} current={item === page}>
                {item}
              </PageLink>
            </li>
          ) : (
            <Box as="li" key={item} px="1" color="fg.muted" aria-hidden="true">
              …
            </Box>
          ),
        )}
        <li>
          <PageLink to={page < pages ? at(page + 1) : null} label={t('pager.next')}>
            ›
          </PageLink>
        </li>
        {!narrow && (
          <li>
            <PageLink to={page < pages ? at(pages) : null} label={t('pager.last')}>
              »
            </PageLink>
          </li>
        )}
      </Flex>
    </Box>
  );
}

/** docs/product.md#limits: hits per page, 10, 50, 100, 500 or 1000. */
export function PageSizeSelect({ size, onChange }: { size: number; onChange: (size: number) => void }) {
  const t = useHitsT();
  return (
    <Field.Root w="auto">
      <Field.Label>{t('pager.size')}</Field.Label>
      <NativeSelect.Root size="sm" w="auto">
        <NativeSelect.Field name="size" value={String(size)} minH="44px" onChange={(e) => onChange(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
