import { Alert, Button, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { HitSearchReply } from '../../../../shared/protocol/catalogue.ts';
import { PlusIcon } from '../../components/icons.tsx';
import { Page } from '../../components/Page.tsx';
import { errorText } from '../../i18n.ts';
import { onGlobalEvent } from '../../net/events.ts';
import { searchHits } from '../../net/hits.ts';
import { useCatalogue } from '../../stores/catalogue.ts';
import { ExportButton } from './ExportButton.tsx';
import { HitsTable } from './HitsTable.tsx';
import { ImportButton } from './ImportDialog.tsx';
import { PackFilter } from './PackFilter.tsx';
import { PageSizeSelect, Pager } from './Pager.tsx';
import { ReportsLink } from './ReviewQueue.tsx';
import './recipes.ts';
import { SearchBox } from './SearchBox.tsx';
import { SortPriority } from './SortPriority.tsx';
import { browseParams, pageCount, pageStart, parseBrowseState, restart, type BrowseState } from './url-state.ts';
import { useCanWriteHits, useHitsT } from './use-hits.ts';

/** The search last answered: its key, and its error if it failed. */
type Done = { key: string; error?: unknown };

/**
 * Browse hits (docs/product.md#screens): search, sort priority, pack filter, the table and
 * the pager, all read from and written to the address (url-state.ts); for
 * write_hits users also create, export and import.
 */
export function BrowseHits() {
  const t = useHitsT();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseBrowseState(params), [params]);
  const canWrite = useCanWriteHits();
  const packs = useCatalogue((s) => s.packs);
  // the last answer stays shown while the next loads, so the table does not flash
  const [reply, setReply] = useState<HitSearchReply | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    void useCatalogue.getState().loadPacks();
  }, []);

  /** Writes a new state to the address (replace: typing and sorting should not fill the history). */
  const go = useCallback((next: BrowseState, replace = false) => setParams(browseParams(next), { replace }), [setParams]);

  const request = useMemo(
    () => ({ query: state.query, start: pageStart(state), amount: state.size, sortBy: state.sortBy, direction: state.direction, packs: state.packs }),
    [state],
  );
  const key = JSON.stringify(request);

  useEffect(() => {
    const abort = new AbortController();
    searchHits(request, abort.signal).then(
      (answer) => {
        setReply(answer);
        setDone({ key });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setDone({ key, error });
      },
    );
    return () => abort.abort();
    // `key` stands for `request` (a new object on every address change); `reload` reruns the same search
  }, [key, reload]);

  // another curator (or an import) changed the catalogue: the page may be stale
  useEffect(() => onGlobalEvent('hits_changed', () => setReload((n) => n + 1)), []);

  const loading = done?.key !== key;
  const error = !loading && done && 'error' in done ? done.error : null;
  const pages = reply ? pageCount(reply.total, state.size) : 1;

  return (
    <Page
      title={t('browse.title')}
      actions={
        canWrite && (
          <HStack gap="2" wrap="wrap">
            <Button asChild colorPalette="accent">
              <RouterLink to="/hits/create">
                <PlusIcon />
                {t('browse.create')}
              </RouterLink>
            </Button>
            <ExportButton query={state.query} packs={state.packs} />
            <ImportButton onApplied={() => setReload((n) => n + 1)} />
            <ReportsLink />
          </HStack>
        )
      }
    >
      <Stack gap="4">
        <SearchBox value={state.query} onSearch={(query) => go(restart(state, { query }), true)} />
        <Flex gap="4" wrap="wrap" align="flex-end">
          <SortPriority sortBy={state.sortBy} direction={state.direction} onChange={(sortBy, direction) => go(restart(state, { sortBy, direction }), true)} />
          <PackFilter selected={state.packs} packs={packs} onChange={(ids) => go(restart(state, { packs: ids }))} />
          <PageSizeSelect size={state.size} onChange={(size) => go(restart(state, { size }))} />
        </Flex>
        <Text role="status" aria-live="polite" aria-busy={loading} color="fg.muted" minH="1.5em">
          {loading && !reply
            ? t('browse.loading')
            : reply && reply.total === 0
              ? t('browse.none')
              : reply && reply.results.length === 0
                ? t('browse.past_end', { count: reply.total })
                : reply
                  ? t('browse.summary', { start: reply.start, end: reply.end, total: reply.total })
                  : ''}
        </Text>
        {error ? (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('browse.load_failed')}</Alert.Title>
              <Alert.Description>{errorText(error)}</Alert.Description>
            </Alert.Content>
            <Button size="sm" variant="outline" onClick={() => setReload((n) => n + 1)}>
              {t('common.retry')}
            </Button>
          </Alert.Root>
        ) : null}
        {reply && reply.results.length > 0 && <HitsTable hits={reply.results} packs={packs} busy={loading} />}
        {/* one page needs no pager, unless the address points past it */}
        {reply && (pages > 1 || state.page > 1) && <Pager page={state.page} pages={pages} state={state} />}
      </Stack>
    </Page>
  );
}
