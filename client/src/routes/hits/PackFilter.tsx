import { Badge, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useId, useRef, useState } from 'react';
import type { PackPayload } from '../../../../shared/protocol/catalogue.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { PackList } from './PackChooser.tsx';
import { sortPacks } from './packs.ts';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

/**
 * The pack filter (docs/product.md#screens): a button with the number of chosen packs that
 * opens the pack chooser. Checking packs filters at once (a hit in any chosen
 * pack, docs/api.md#b7); each pack also links to /hits/?pack={id} (browse mode),
 * and curators manage packs there. The chosen packs are listed next to the
 * button, with a way to clear them.
 */
export function PackFilter({ selected, packs, onChange }: { selected: readonly string[]; packs: readonly PackPayload[]; onChange: (ids: string[]) => void }) {
  const t = useHitsT();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const labelId = useId();
  const byId = new Map(packs.map((p) => [p.id, p]));
  const chosen = sortPacks(selected.map((id) => byId.get(id) ?? { id, name: id === '' ? t('filter.no_pack') : t('filter.unknown_pack'), hits: 0 }));

  const toggle = (id: string, checked: boolean): void => {
    const rest = selected.filter((p) => p !== id);
    onChange(checked ? [...rest, id] : rest);
  };

  return (
    <Stack gap="1.5">
      <Text fontWeight="medium" textStyle="sm" id={labelId}>
        {t('filter.label')}
      </Text>
      <Flex gap="2" align="center" wrap="wrap">
        <Button ref={opener} size="sm" variant="outline" aria-describedby={labelId} onClick={() => setOpen(true)}>
          {selected.length === 0 ? t('filter.button_all') : t('filter.button', { count: selected.length })}
        </Button>
        {chosen.map((p) => (
          <Badge key={p.id} size="md" variant="subtle" colorPalette="accent" maxW="full" whiteSpace="normal" overflowWrap="anywhere">
            {p.name}
          </Badge>
        ))}
        {selected.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => onChange([])}>
            {t('filter.clear')}
          </Button>
        )}
      </Flex>
      <AppDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('filter.title')}
        finalFocusEl={opener}
        footer={
          <Flex gap="2" wrap="wrap">
            <Button variant="outline" disabled={selected.length === 0} onClick={() => onChange([])}>
              {t('filter.clear')}
            </Button>
            <Button colorPalette="accent" onClick={() => setOpen(false)}>
              {t('filter.done')}
            </Button>
          </Flex>
        }
      >
        <Stack gap="3">
          <Text color="fg.muted">{t('filter.help')}</Text>
          <PackList packs={packs} mode="select" selected={selected} onToggle={toggle} links manage label={t('filter.title')} onNavigate={() => setOpen(false)} />
        </Stack>
      </AppDialog>
    </Stack>
  );
}
