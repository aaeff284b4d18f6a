import { Button, Link, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { Navigate, Link as RouterLink } from 'react-router';
import type { HitBodyInput } from '../../../../shared/protocol/catalogue.ts';
import { notify } from '../../a11y/notify.ts';
import { Page } from '../../components/Page.tsx';
import { showError } from '../../errors.ts';
import { errorText } from '../../i18n.ts';
import { createHit, uploadAudio } from '../../net/hits.ts';
import { useCatalogue } from '../../stores/catalogue.ts';
import { EMPTY_VALUES } from './hit-form.ts';
import { HitForm } from './HitForm.tsx';
import './recipes.ts';
import { useCanWriteHits, useHitsT } from './use-hits.ts';

/**
 * Create hit (docs/product.md#screens, `/hits/create`): only for write_hits, everyone else is
 * sent to /hits. Saving creates the hit, then uploads the chosen audio file
 * for it; the form empties (keeping the packs), focus goes back to the title,
 * and "hit created" is announced.
 */
export function CreateHit() {
  const t = useHitsT();
  const canWrite = useCanWriteHits();
  const packs = useCatalogue((s) => s.packs);
  const first = useRef<HTMLInputElement>(null);
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);

  useEffect(() => {
    void useCatalogue.getState().loadPacks();
  }, []);

  if (!canWrite) return <Navigate to="/hits" replace />;

  const save = async (body: HitBodyInput, audio: File | null): Promise<boolean> => {
    let id: string;
    try {
      id = (await createHit(body)).id;
    } catch (err) {
      showError(err);
      return false;
    }
    const hit = t('hit_name', { artist: body.artist, title: body.title });
    notify.hitCreated(t('create.created', { hit }));
    setCreated({ id, name: hit });
    void useCatalogue.getState().loadPacks();
    if (audio) {
      try {
        await uploadAudio(id, audio);
        notify.notification(t('audio.uploaded', { hit }), { toast: 'success' });
      } catch (err) {
        // the hit exists; only its audio is missing, which the detail page can fix: the message says so
        showError({ message: t('create.audio_failed', { hit, reason: errorText(err) }) });
      }
    }
    return true;
  };

  return (
    <Page
      title={t('create.title')}
      actions={
        <Button asChild variant="outline">
          <RouterLink to="/hits">{t('create.back')}</RouterLink>
        </Button>
      }
    >
      <Text color="fg.muted">
        {t('create.intro')}{' '}
        <Link asChild color="accent.fg">
          <RouterLink to="/hits/status">{t('status.link')}</RouterLink>
        </Link>
      </Text>
      {created && (
        <Text>
          {t('create.created', { hit: created.name })}{' '}
          <Link asChild color="accent.fg">
            <RouterLink to={`/hits/${encodeURIComponent(created.id)}`}>{t('create.open_created')}</RouterLink>
          </Link>
        </Text>
      )}
      <HitForm initial={EMPTY_VALUES} packs={packs} submitLabel={t('common.save')} onSubmit={save} resetAfterSave firstFieldRef={first} />
    </Page>
  );
}
