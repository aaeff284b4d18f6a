import { Box, Button, chakra, Field, Fieldset, Flex, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import type { HitBodyInput, PackPayload } from '../../../../shared/protocol/catalogue.ts';
import { afterCreate, hitBody, MAX_OFFSET, validateHit, type FieldError, type FieldName, type HitFormValues } from './hit-form.ts';
import { latestHitYear } from '../../../../shared/rules/constants.ts';
import { FieldInput } from '../../components/FieldInput.tsx';
import { CreatePackButton, PackList } from './PackChooser.tsx';
import { sortPacks } from './packs.ts';
import './recipes.ts';
import { useCanWritePacks, useHitsT } from './use-hits.ts';
import { parseVideoUrl } from './video-url.ts';
import { VideoPlayer } from './VideoPlayer.tsx';

/** The fields in the order of the form, and their inputs' names. */
const FIELD_ORDER: readonly FieldName[] = ['title', 'artist', 'year', 'belongs_to', 'videoUrl', 'offset'];
const INPUT_NAMES: Record<FieldName, string> = { title: 'title', artist: 'artist', year: 'year', belongs_to: 'belongs_to', videoUrl: 'video_url', offset: 'playback_offset' };

export interface HitFormProps {
  initial: HitFormValues;
  packs: readonly PackPayload[];
  submitLabel: string;
  /** Saves; resolves true on success (the form then resets, when `resetAfterSave`). */
  onSubmit: (body: HitBodyInput, audio: File | null) => Promise<boolean>;
  onCancel?: () => void;
  /** Create: after a save the form empties but keeps the packs, and focus returns to the first field. */
  resetAfterSave?: boolean;
  /** The first field, for the caller to focus. */
  firstFieldRef?: RefObject<HTMLInputElement | null>;
}

/**
 * The hit editor (docs/product.md#screens Create hit / Hit detail edit mode): title, artist,
 * year, belongs_to, pack checkboxes (natural order), a video URL (Save stays
 * disabled while it is not one of the accepted YouTube forms) with a preview
 * from the offset, the playback offset, and an optional audio file that is
 * uploaded after the hit is saved (docs/api.md#b9).
 */
export function HitForm({ initial, packs, submitLabel, onSubmit, onCancel, resetAfterSave = false, firstFieldRef }: HitFormProps) {
  const t = useHitsT();
  const canWritePacks = useCanWritePacks();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [audio, setAudio] = useState<File | null>(null);
  // a file input cannot be cleared through React state: a new key makes a fresh one
  const [fileKey, setFileKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const ownFirst = useRef<HTMLInputElement>(null);
  const first = firstFieldRef ?? ownFirst;

  const hintId = useId();
  const errors = validateHit(values);
  const valid = Object.keys(errors).length === 0;
  /** A field's message: once the field was edited, or after a save of the form. */
  const shown = (field: FieldName): FieldError | undefined => {
    const e = errors[field];
    if (!e) return undefined;
    return e === 'required' && !touched[field] ? undefined : e;
  };
  // a missing value is pointed out once the field was edited, or at a save: not when the focus
  // merely passes by (tabbing through, or a dialog taking it), which would be read as noise
  const set = (field: FieldName) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setTouched((s) => (s[field] ? s : { ...s, [field]: true }));
  };
  const ytId = parseVideoUrl(values.videoUrl);
  const chosenNames = sortPacks(packs.filter((p) => values.packs.includes(p.id))).map((p) => p.name);

  const submit = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    const body = hitBody(values);
    if (!body) {
      // Save is only marked disabled, so it can be reached and says why: every problem shows, the first field takes the focus
      setTouched({ title: true, artist: true, year: true, belongs_to: true, videoUrl: true, offset: true });
      const firstBad = FIELD_ORDER.find((f) => errors[f]);
      const input = firstBad && e.currentTarget.elements.namedItem(INPUT_NAMES[firstBad]);
      if (input instanceof HTMLInputElement) input.focus();
      return;
    }
    setBusy(true);
    const ok = await onSubmit(body, audio);
    setBusy(false);
    if (!ok || !resetAfterSave) return;
    setValues(afterCreate(values));
    setTouched({});
    setAudio(null);
    setFileKey((k) => k + 1);
    first.current?.focus();
  };

  const field = (name: FieldName, label: ReactNode, input: ReactNode, help?: string, required = false) => {
    const error = shown(name);
    return (
      <Field.Root invalid={!!error} required={required}>
        <Field.Label>
          {label}
          {required && <Field.RequiredIndicator />}
        </Field.Label>
        {input}
        {help && !error && <Field.HelperText>{help}</Field.HelperText>}
        {/* red.fg, not the recipe's fg.error: small text needs 4.5:1 in both schemes */}
        {error && <Field.ErrorText color="red.fg">{t(`form.errors.${error}`, { max: latestHitYear() })}</Field.ErrorText>}
      </Field.Root>
    );
  };

  return (
    <chakra.form onSubmit={(e: FormEvent<HTMLFormElement>) => void submit(e)} noValidate>
      <Stack gap="5">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          {field(
            'title',
            t('fields.title'),
            <FieldInput ref={first} name="title" value={values.title} autoComplete="off" onChange={set('title')} />,
            undefined,
            true,
          )}
          {field(
            'artist',
            t('fields.artist'),
            <FieldInput name="artist" value={values.artist} autoComplete="off" onChange={set('artist')} />,
            undefined,
            true,
          )}
          {field(
            'year',
            t('fields.year'),
            <FieldInput name="year" type="number" inputMode="numeric" min={1} max={latestHitYear()} step={1} value={values.year} onChange={set('year')} />,
            undefined,
            true,
          )}
          {field(
            'belongs_to',
            t('fields.belongs_to'),
            <FieldInput name="belongs_to" value={values.belongs_to} autoComplete="off" onChange={set('belongs_to')} />,
            t('form.belongs_to_help'),
          )}
          {field(
            'videoUrl',
            t('fields.video_url'),
            <FieldInput name="video_url" type="url" inputMode="url" value={values.videoUrl} autoComplete="off" spellCheck={false} onChange={set('videoUrl')} />,
            t('form.video_url_help'),
          )}
          {field(
            'offset',
            t('form.offset_label'),
            <FieldInput name="playback_offset" type="number" inputMode="numeric" min={0} max={MAX_OFFSET} step={1} value={values.offset} onChange={set('offset')} />,
            t('form.offset_help'),
          )}
        </SimpleGrid>

        {ytId && <VideoPlayer ytId={ytId} offset={Number(values.offset) || 0} label={t('video.preview_label')} />}

        <Fieldset.Root>
          <Flex justify="space-between" align="center" gap="2" wrap="wrap">
            <Fieldset.Legend fontWeight="medium">{t('fields.packs')}</Fieldset.Legend>
            {canWritePacks && <CreatePackButton onCreated={(p) => setValues((v) => ({ ...v, packs: [...v.packs, p.id] }))} />}
          </Flex>
          {/* the list scrolls: the checked packs are named above it, so an edit shows them at a glance */}
          <Text textStyle="sm" color="fg.muted">
            {chosenNames.length > 0 ? t('form.packs_chosen', { names: chosenNames.join(', ') }) : t('form.packs_chosen_none')}
          </Text>
          <Fieldset.Content mt="1">
            <Box maxH="18rem" overflowY="auto" borderWidth="1px" borderRadius="l2" px="3" py="1">
              <PackList
                packs={packs}
                mode="select"
                selected={values.packs}
                label={t('fields.packs')}
                columns
                // packs are made here (the button above): renamed and deleted here too
                manage
                create={false}
                onDeleted={(id) => setValues((v) => ({ ...v, packs: v.packs.filter((p) => p !== id) }))}
                onToggle={(id, checked) => setValues((v) => ({ ...v, packs: checked ? [...v.packs.filter((p) => p !== id), id] : v.packs.filter((p) => p !== id) }))}
              />
            </Box>
          </Fieldset.Content>
        </Fieldset.Root>

        <Field.Root>
          <Field.Label>{t('fields.audio_file')}</Field.Label>
          <Input key={fileKey} name="audio" type="file" accept="audio/*,.mp3,.ogg,.opus,.flac,.wav,.m4a,.aac,.webm" p="1.5" onChange={(e) => setAudio(e.target.files?.[0] ?? null)} />
          <Field.HelperText>{t('form.audio_help')}</Field.HelperText>
        </Field.Root>

        <HStack gap="2" wrap="wrap">
          <Button type="submit" colorPalette="accent" aria-disabled={!valid || undefined} aria-describedby={valid ? undefined : hintId} loading={busy}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button variant="outline" onClick={onCancel} disabled={busy}>
              {t('common.cancel')}
            </Button>
          )}
        </HStack>
        {!valid && (
          <Text id={hintId} color="fg.muted" textStyle="sm">
            {errors.videoUrl ? t('form.blocked_by_video') : Object.values(errors).every((e) => e === 'required') ? t('form.incomplete') : t('form.fix_fields')}
          </Text>
        )}
      </Stack>
    </chakra.form>
  );
}
