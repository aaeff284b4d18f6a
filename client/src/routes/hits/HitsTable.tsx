import { Box, Button, Flex, Link, Stack, Table, Text } from '@chakra-ui/react';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { CatalogueHit, PackPayload } from '../../../../shared/protocol/catalogue.ts';
import { PackListDialog } from './PackChooser.tsx';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

/**
 * The result table (docs/product.md#screens): title (a link to the hit), artist, year,
 * belongs_to, and a packs button with the count that opens the hit's packs as
 * links. Scrolls sideways inside its own box on narrow screens.
 */
export function HitsTable({ hits, packs, busy }: { hits: readonly CatalogueHit[]; packs: readonly PackPayload[]; busy: boolean }) {
  const t = useHitsT();
  const [shown, setShown] = useState<CatalogueHit | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);

  /** The packs button; phones, having no column header, say "2 packs" rather than "2". */
  const packsButton = (hit: CatalogueHit, long = false) => (
    <Button
      size="xs"
      variant="outline"
      aria-label={t('table.packs_button', { count: hit.packs.length, title: hit.title })}
      onClick={(e) => {
        opener.current = e.currentTarget;
        setShown(hit);
      }}
    >
      {long ? t('table.packs_short', { count: hit.packs.length }) : hit.packs.length}
    </Button>
  );
  const titleLink = (hit: CatalogueHit) => (
    <Link asChild color="accent.fg" fontWeight="semibold" minH="44px" display="inline-flex" alignItems="center">
      <RouterLink to={`/hits/${encodeURIComponent(hit.id)}`}>{hit.title}</RouterLink>
    </Link>
  );

  return (
    <>
      {/* phones: one entry per hit instead of a table five columns wide */}
      <Stack as="ul" display={{ base: 'flex', md: 'none' }} gap="0" listStyleType="none" m="0" p="0" borderTopWidth="1px" opacity={busy ? 0.6 : 1} aria-label={t('table.caption')}>
        {hits.map((hit) => (
          <Flex as="li" key={hit.id} gap="3" align="center" justify="space-between" borderBottomWidth="1px" py="1">
            <Box minW="0">
              {titleLink(hit)}
              <Text textStyle="sm" color="fg.muted">
                {[hit.artist, hit.year, hit.belongs_to].filter((v) => v !== '').join(' · ')}
              </Text>
            </Box>
            {packsButton(hit, true)}
          </Flex>
        ))}
      </Stack>
      <Table.ScrollArea display={{ base: 'none', md: 'block' }} borderWidth="1px" borderRadius="l2" opacity={busy ? 0.6 : 1} transition="opacity 0.15s">
        <Table.Root size="sm" variant="line" interactive aria-busy={busy}>
          <Table.Caption srOnly>{t('table.caption')}</Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader scope="col">{t('fields.title')}</Table.ColumnHeader>
              <Table.ColumnHeader scope="col">{t('fields.artist')}</Table.ColumnHeader>
              <Table.ColumnHeader scope="col" textAlign="end">
                {t('fields.year')}
              </Table.ColumnHeader>
              <Table.ColumnHeader scope="col">{t('fields.belongs_to')}</Table.ColumnHeader>
              <Table.ColumnHeader scope="col">{t('fields.packs')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {hits.map((hit) => (
              <Table.Row key={hit.id}>
                <Table.Cell minW="10rem">{titleLink(hit)}</Table.Cell>
                <Table.Cell minW="8rem">{hit.artist}</Table.Cell>
                <Table.Cell textAlign="end">{hit.year}</Table.Cell>
                <Table.Cell minW="6rem">{hit.belongs_to}</Table.Cell>
                <Table.Cell>{packsButton(hit)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <PackListDialog
        open={shown !== null}
        onClose={() => setShown(null)}
        title={shown ? t('table.packs_title', { title: shown.title, artist: shown.artist }) : ''}
        ids={shown?.packs ?? []}
        packs={packs}
        finalFocusEl={opener}
      />
    </>
  );
}
