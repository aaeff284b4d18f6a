import { Box, Button, DataList, Flex, HStack, Link, SimpleGrid, Stack, Text, Wrap } from '@chakra-ui/react';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { FailureCause, FullHitPayload, HitBodyInput } from '../../../../shared/protocol/catalogue.ts';
import { notify } from '../../a11y/notify.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { ErrorPage } from '../../components/ErrorPage.tsx';
import { LoadingScreen } from '../../components/LoadingScreen.tsx';
import { Page } from '../../components/Page.tsx';
import { showError } from '../../errors.ts';
import { errorText } from '../../i18n.ts';
import { ApiError } from '../../net/api.ts';
import { audioStatus, deleteHit, getHit, updateHit, uploadAudio } from '../../net/hits.ts';
import { useCatalogue } from '../../stores/catalogue.ts';
import { useSession } from '../../stores/session.ts';
import { AUDIO_BUSY, AudioStatus } from './AudioStatus.tsx';
import { HitAudioPlayer } from './HitAudioPlayer.tsx';
import { valuesOf } from './hit-form.ts';
import { HitForm } from './HitForm.tsx';
import { HitHistory } from './HitHistory.tsx';
import { packHref, packsOf } from './packs.ts';
import './recipes.ts';
import { ReportProblemButton } from './ReportProblem.tsx';
import { useCanWriteHits, useHitsT } from './use-hits.ts';
import { watchUrl } from './video-url.ts';
import { VideoPlayer } from './VideoPlayer.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A field of the read-only view: label and value share their first line, whatever the value's height. */
const ROW = { alignItems: 'baseline' } as const;
/** Long values (the URL, the audio player) take the whole width on phones: the label goes above them. */
const STACKED = { flexDirection: { base: 'column', sm: 'row' }, alignItems: { base: 'stretch', sm: 'baseline' }, gap: { base: '1', sm: '4' } } as const;
/** One label column wide enough for "Playback offset" and "Startversatz". */
const LABEL = { minW: '8.5rem', flexShrink: 0 } as const;

type Loaded = { status: 'loading' } | { status: 'found'; hit: FullHitPayload } | { status: 'missing' } | { status: 'error'; error: unknown };

/** The delete confirmation (docs/product.md#screens: delete asks, then returns to /hits). */
function DeleteHitDialog({
  open,
  name,
  onClose,
  onConfirm,
  finalFocusEl,
}: {
  open: boolean;
  name: string;
  onClose: () => void;
  onConfirm: () => Promise<void>;
  finalFocusEl: RefObject<HTMLElement | null>;
}) {
  const t = useHitsT();
  const [busy, setBusy] = useState(false);
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      role="alertdialog"
      size="sm"
      finalFocusEl={finalFocusEl}
      title={t('detail.delete_title')}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>
            {t('common.no')}
          </Button>
          <Button
            colorPalette="red"
            loading={busy}
            onClick={() => {
              setBusy(true);
              void onConfirm().finally(() => setBusy(false));
            }}
          >
            {t('common.yes')}
          </Button>
        </HStack>
      }
    >
      <Text>{t('detail.delete_question', { hit: name })}</Text>
    </AppDialog>
  );
}

/**
 * Hit detail (docs/product.md#screens, `/hits/{hitId}`): "artist: title", the fields read-only,
 * pack links and the audio state; for write_hits also the video from the
 * playback offset, Edit (the same form as create, with Cancel and Save) and Delete.
 * An unknown (or malformed) id is the 404 "hit id not found".
 */
export function HitDetail() {
  const t = useHitsT();
  const { hitId = '' } = useParams();
  const navigate = useNavigate();
  const canWrite = useCanWriteHits();
  const canReport = useSession((s) => s.user?.permissions.write_issues ?? false);
  // bumped when the history changed from here (a report sent, an edit saved)
  const [historyVersion, setHistoryVersion] = useState(0);
  const packs = useCatalogue((s) => s.packs);
  const progress = useCatalogue((s) => s.progress);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<{ reason: string; cause: FailureCause } | undefined>(undefined);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const firstField = useRef<HTMLInputElement>(null);

  const load = useCallback(
    async (signal?: AbortSignal): Promise<void> => {
      if (!UUID.test(hitId)) return setLoaded({ status: 'missing' });
      try {
        setLoaded({ status: 'found', hit: await getHit(hitId, signal) });
      } catch (error) {
        if (signal?.aborted) return;
        // The reference server answers a malformed id like an unknown one
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) setLoaded({ status: 'missing' });
        else setLoaded({ status: 'error', error });
      }
    },
    [hitId],
  );

  useEffect(() => {
    const abort = new AbortController();
    setLoaded({ status: 'loading' });
    setEditing(false);
    void load(abort.signal);
    // the loader also fetches all packs (docs/product.md#screens)
    void useCatalogue.getState().loadPacks();
    return () => abort.abort();
  }, [load]);

  const hit = loaded.status === 'found' ? loaded.hit : null;
  const audio = hit?.audio ?? 'none';

  // while the pipeline works on this hit, every progress event may be its change of state
  const watching = hit !== null && AUDIO_BUSY.includes(audio);
  useEffect(() => {
    if (watching) void load();
  }, [progress, watching, load]);

  // a failure's reason is in the pipeline status (write_hits only)
  useEffect(() => {
    setFailure(undefined);
    if (!hit || audio !== 'failed' || !canWrite) return;
    const abort = new AbortController();
    audioStatus(abort.signal).then(
      (s) => setFailure(s.failures.find((f) => f.id === hit.id)),
      () => undefined,
    );
    return () => abort.abort();
  }, [hit, audio, canWrite]);

  useEffect(() => {
    if (editing) firstField.current?.focus();
  }, [editing]);

  if (loaded.status === 'loading') return <LoadingScreen />;
  if (loaded.status === 'missing') return <ErrorPage status={404} message={t('detail.not_found')} />;
  if (loaded.status === 'error') return <ErrorPage status={(loaded.error as { status?: number }).status || 500} message={errorText(loaded.error)} />;
  if (!hit) return null;

  const name = t('hit_name', { artist: hit.artist, title: hit.title });
  const title = t('detail.title', { artist: hit.artist, title: hit.title });
  const hitPacks = packsOf(hit.packs, packs);

  const save = async (body: HitBodyInput, file: File | null): Promise<boolean> => {
    try {
      await updateHit(hit.id, body);
    } catch (err) {
      showError(err);
      return false;
    }
    notify.notification(t('detail.saved', { hit: t('hit_name', { artist: body.artist, title: body.title }) }), { toast: 'success' });
    if (file) {
      try {
        await uploadAudio(hit.id, file);
        notify.notification(t('audio.uploaded', { hit: name }), { toast: 'success' });
      } catch (err) {
        showError(err);
      }
    }
    await load();
    setHistoryVersion((n) => n + 1);
    void useCatalogue.getState().loadPacks();
    stopEditing();
    return true;
  };

  /** Leaves edit mode (saved or cancelled); the focus goes back where editing started. */
  const stopEditing = (): void => {
    setEditing(false);
    setTimeout(() => editButton.current?.focus(), 0);
  };

  const remove = async (): Promise<void> => {
    try {
      await deleteHit(hit.id);
    } catch (err) {
      showError(err);
      return;
    }
    setDeleting(false);
    notify.notification(t('detail.deleted', { hit: name }), { toast: 'success' });
    void useCatalogue.getState().loadPacks();
    void navigate('/hits');
  };

  const none = <Text as="span" color="fg.muted">{t('detail.none')}</Text>;

  return (
    <Page
      title={title}
      actions={
        <Wrap gap="2">
          <Button asChild variant="outline">
            <RouterLink to="/hits">{t('detail.back')}</RouterLink>
          </Button>
          {canReport && !editing && <ReportProblemButton hit={hit} onSent={() => setHistoryVersion((n) => n + 1)} />}
          {canWrite && !editing && (
            <>
              <Button ref={editButton} colorPalette="accent" onClick={() => setEditing(true)}>
                {t('detail.edit')}
              </Button>
              <Button ref={deleteButton} colorPalette="red" variant="outline" onClick={() => setDeleting(true)}>
                {t('detail.delete')}
              </Button>
            </>
          )}
        </Wrap>
      }
    >
      {editing ? (
        <HitForm initial={valuesOf(hit)} packs={packs} submitLabel={t('common.save')} onSubmit={save} onCancel={stopEditing} firstFieldRef={firstField} />
      ) : (
        <SimpleGrid columns={{ base: 1, lg: canWrite ? 2 : 1 }} gap="8" alignItems="start">
          <DataList.Root orientation="horizontal" size="lg">
            <DataList.Item {...ROW}>
              <DataList.ItemLabel {...LABEL}>{t('fields.title')}</DataList.ItemLabel>
              <DataList.ItemValue>{hit.title}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item {...ROW}>
              <DataList.ItemLabel {...LABEL}>{t('fields.artist')}</DataList.ItemLabel>
              <DataList.ItemValue>{hit.artist}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item {...ROW}>
              <DataList.ItemLabel {...LABEL}>{t('fields.year')}</DataList.ItemLabel>
              <DataList.ItemValue>{hit.year}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item {...ROW}>
              <DataList.ItemLabel {...LABEL}>{t('fields.belongs_to')}</DataList.ItemLabel>
              <DataList.ItemValue>{hit.belongs_to || none}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item {...ROW}>
              <DataList.ItemLabel {...LABEL}>{t('fields.packs')}</DataList.ItemLabel>
              <DataList.ItemValue>
                {hitPacks.length === 0 ? (
                  none
                ) : (
                  <Flex as="ul" gap="1" columnGap="4" wrap="wrap" listStyleType="none" m="0" p="0">
                    {hitPacks.map((p) => (
                      <li key={p.id}>
                        <Link asChild color="accent.fg" minH="44px" minW="44px" display="inline-flex" alignItems="center" justifyContent="center">
                          <RouterLink to={packHref(p.id)}>{p.name}</RouterLink>
                        </Link>
                      </li>
                    ))}
                  </Flex>
                )}
              </DataList.ItemValue>
            </DataList.Item>
            {canWrite && (
              <>
                <DataList.Item {...ROW} {...(hit.yt_id ? STACKED : {})}>
                  <DataList.ItemLabel {...LABEL}>{t('fields.video_url')}</DataList.ItemLabel>
                  <DataList.ItemValue wordBreak="break-all">{hit.yt_id ? watchUrl(hit.yt_id) : none}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item {...ROW}>
                  <DataList.ItemLabel {...LABEL}>{t('fields.offset')}</DataList.ItemLabel>
                  <DataList.ItemValue>{t('detail.seconds', { count: hit.playback_offset })}</DataList.ItemValue>
                </DataList.Item>
              </>
            )}
            <DataList.Item {...ROW} {...STACKED}>
              <DataList.ItemLabel {...LABEL}>{t('fields.audio')}</DataList.ItemLabel>
              <DataList.ItemValue>
                <Stack gap="3" w="full">
                  <AudioStatus hitId={hit.id} state={audio} reason={failure?.reason} cause={failure?.cause} canRetry={canWrite} onRetried={() => void load()} />
                  {/* the processed file is for editors only (server/http/audio.ts): players must not look up hidden clips */}
                  {audio === 'ready' && canWrite && <HitAudioPlayer hitId={hit.id} label={t('audio.player_label', { hit: name })} />}
                </Stack>
              </DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
          {/* the video and its offset are the curators' (the server sends "" and 0 to anybody else) */}
          {canWrite && (
            <Box>
              <VideoPlayer ytId={hit.yt_id} offset={hit.playback_offset} label={t('video.label', { hit: name })} />
            </Box>
          )}
        </SimpleGrid>
      )}
      {!editing && <HitHistory hitId={hit.id} version={historyVersion} />}
      <DeleteHitDialog open={deleting} name={name} onClose={() => setDeleting(false)} onConfirm={remove} finalFocusEl={deleteButton} />
    </Page>
  );
}
