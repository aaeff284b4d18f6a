import { Box, Button, Checkbox, chakra, Field, Flex, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { FieldInput } from '../../components/FieldInput.tsx';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { Link as RouterLink } from 'react-router';
import type { PackPayload } from '../../../../shared/protocol/catalogue.ts';
import { textProblem } from '../../../../shared/rules/names.ts';
import { notify } from '../../a11y/notify.ts';
import { AppDialog, OWN_ESCAPE } from '../../components/AppDialog.tsx';
import { PlusIcon } from '../../components/icons.tsx';
import { showError } from '../../errors.ts';
import { createPack, deletePack, renamePack } from '../../net/hits.ts';
import { useCatalogue } from '../../stores/catalogue.ts';
import { packHref, packsOf, sortPacks } from './packs.ts';
import './recipes.ts';
import { useCanWritePacks, useHitsT } from './use-hits.ts';

/**
 * The pack chooser (docs/product.md#screens "Pack chooser dialog"): packs in natural order by
 * name, in selection mode (a checkbox per pack labelled with its name and
 * hit count) or browse mode (a link per pack to /hits/?pack={id}). Users with
 * write_packs also get the create-pack dialog and, in selection mode, rename
 * and delete (with a yes/no confirmation) per pack: in the pack filter and in
 * the hit form, where packs are made. A deleted pack's hits stay in the
 * catalogue (docs/api.md#endpoints), without that pack.
 */

const MAX_NAME = 100;

/** What is wrong with a pack name as typed (a pasted text is kept whole and refused, not cut short), if anything. */
function nameProblem(name: string): 'empty' | 'too_long' | 'hidden' | null {
  const text = name.trim();
  if (text === '') return 'empty';
  if (text.length > MAX_NAME) return 'too_long';
  // the server's rule for shown text (no direction or invisible characters)
  return textProblem(text) ? 'hidden' : null;
}

/** The message of a name's problem under its field (an empty name only disables the button). */
function NameError({ name }: { name: string }) {
  const t = useHitsT();
  const problem = nameProblem(name);
  if (problem === 'too_long') return <Field.ErrorText color="red.fg">{t('packs.name_too_long', { max: MAX_NAME })}</Field.ErrorText>;
  if (problem === 'hidden') return <Field.ErrorText color="red.fg">{t('packs.name_hidden')}</Field.ErrorText>;
  return null;
}

const shownInvalid = (name: string): boolean => nameProblem(name) === 'too_long' || nameProblem(name) === 'hidden';

/** Re-reads the packs after a change (the global stream would too, a moment later). */
const refreshPacks = (): Promise<void> => useCatalogue.getState().loadPacks();

/** The create-pack dialog: one name field and a create button (disabled while empty). */
export function CreatePackButton({ onCreated }: { onCreated?: (pack: PackPayload) => void }) {
  const t = useHitsT();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    // the dialog is drawn elsewhere in the page, but React still passes its submit up to the hit form around the button
    e.stopPropagation();
    if (nameProblem(name) || busy) return;
    setBusy(true);
    try {
      const pack = await createPack(name.trim());
      await refreshPacks();
      notify.notification(t('packs.created', { name: pack.name }), { toast: 'success' });
      setName('');
      setOpen(false);
      onCreated?.(pack);
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button ref={opener} size="sm" variant="outline" onClick={() => setOpen(true)}>
        <PlusIcon />
        {t('packs.create')}
      </Button>
      <AppDialog open={open} onClose={() => setOpen(false)} title={t('packs.create_title')} size="sm" finalFocusEl={opener}>
        <chakra.form onSubmit={(e: FormEvent) => void submit(e)} noValidate>
          <Stack gap="4">
            <Field.Root required invalid={shownInvalid(name)}>
              <Field.Label>
                {t('packs.name')}
                <Field.RequiredIndicator />
              </Field.Label>
              <FieldInput name="pack_name" value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} />
              <NameError name={name} />
            </Field.Root>
            <Button type="submit" colorPalette="accent" alignSelf="flex-start" disabled={nameProblem(name) !== null} loading={busy}>
              {t('packs.create_submit')}
            </Button>
          </Stack>
        </chakra.form>
      </AppDialog>
    </>
  );
}

/**
 * Rename in place: the row becomes a name field with Save and Cancel. Not a
 * `<form>`: the list also sits inside the hit form, and forms do not nest; Return
 * in the field saves the rename, never the form around it.
 */
function RenameForm({ pack, onDone }: { pack: PackPayload; onDone: () => void }) {
  const t = useHitsT();
  const [name, setName] = useState(pack.name);
  const [busy, setBusy] = useState(false);
  const submit = async (): Promise<void> => {
    const next = name.trim();
    if (nameProblem(name) || busy) return;
    if (next === pack.name) return onDone();
    setBusy(true);
    try {
      await renamePack(pack.id, next);
      await refreshPacks();
      notify.notification(t('packs.renamed', { name: next }), { toast: 'success' });
      onDone();
    } catch (err) {
      showError(err);
      setBusy(false);
    }
  };
  return (
    <chakra.div
      // Escape cancels the rename only, not the dialog around it
      {...{ [OWN_ESCAPE]: '' }}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === 'Enter' && !e.nativeEvent.isComposing && e.target instanceof HTMLInputElement) {
          e.preventDefault();
          e.stopPropagation();
          void submit();
        }
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onDone();
      }}
      flex="1"
    >
      <Flex gap="2" wrap="wrap" align="flex-end">
        <Field.Root flex="1" minW="10rem" invalid={shownInvalid(name)}>
          <Field.Label srOnly>{t('packs.rename_label', { name: pack.name })}</Field.Label>
          <FieldInput size="sm" value={name} autoFocus onChange={(e) => setName(e.target.value)} />
          <NameError name={name} />
        </Field.Root>
        <Button size="sm" colorPalette="accent" disabled={nameProblem(name) !== null} loading={busy} onClick={() => void submit()}>
          {t('common.save')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </Flex>
    </chakra.div>
  );
}

/** The yes/no confirmation of a pack deletion. */
function DeletePackDialog({ pack, onClose, onDeleted }: { pack: PackPayload | null; onClose: () => void; onDeleted?: ((id: string) => void) | undefined }) {
  const t = useHitsT();
  const [busy, setBusy] = useState(false);
  const confirm = async (): Promise<void> => {
    if (!pack) return;
    setBusy(true);
    try {
      await deletePack(pack.id);
      await refreshPacks();
      notify.notification(t('packs.deleted', { name: pack.name }), { toast: 'success' });
      onDeleted?.(pack.id);
      onClose();
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AppDialog
      open={pack !== null}
      onClose={onClose}
      role="alertdialog"
      size="sm"
      title={t('packs.delete_title')}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>
            {t('common.no')}
          </Button>
          <Button colorPalette="red" loading={busy} onClick={() => void confirm()}>
            {t('common.yes')}
          </Button>
        </HStack>
      }
    >
      <Text overflowWrap="anywhere">{pack ? t('packs.delete_question', { name: pack.name, count: pack.hits }) : ''}</Text>
    </AppDialog>
  );
}

export interface PackListProps {
  packs: readonly PackPayload[];
  mode: 'select' | 'browse';
  /** Selection mode: the chosen pack ids. */
  selected?: readonly string[];
  onToggle?: (id: string, checked: boolean) => void;
  /** Selection mode: also a link per pack that browses only that pack. */
  links?: boolean;
  /** Offer create (and, in selection mode, rename and delete) when the user may write packs. */
  manage?: boolean;
  /** With `manage`: the create button above the list (default); false where the caller shows its own. */
  create?: boolean;
  /** A pack was deleted here (a form that had it chosen lets it go). */
  onDeleted?: (id: string) => void;
  /** The accessible name of the list. */
  label: string;
  /** Lay the packs out in columns on wide screens (the hit form, where rows have nothing but a checkbox). */
  columns?: boolean;
  /** Called when a pack link is followed (a dialog closes, or it would stay open over the new list). */
  onNavigate?: () => void;
}

/** The pack list itself, for dialogs and the hit form. */
export function PackList({ packs, mode, selected = [], onToggle, links = false, manage = false, create = true, onDeleted, label, columns = false, onNavigate }: PackListProps) {
  const t = useHitsT();
  const canWritePacks = useCanWritePacks() && manage;
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PackPayload | null>(null);
  // a finished rename (saved, cancelled, Escape) gives the focus back to its pack's Rename button
  const renameButtons = useRef(new Map<string, HTMLButtonElement>());
  const [refocus, setRefocus] = useState<string | null>(null);
  useEffect(() => {
    if (refocus === null) return;
    renameButtons.current.get(refocus)?.focus();
    setRefocus(null);
  }, [refocus]);
  const chosen = new Set(selected);
  const manageable = canWritePacks;
  const sorted = sortPacks(packs);

  // A pack name can be one 100-letter word: it breaks anywhere (inherited by
  // every row), so the list never gets wider than its dialog or form.
  return (
    <Stack gap="3" overflowWrap="anywhere" minW="0">
      {canWritePacks && create && (
        <Box>
          <CreatePackButton />
        </Box>
      )}
      {sorted.length === 0 ? (
        <Text color="fg.muted">{t('packs.none')}</Text>
      ) : (
        <Box
          as="ul"
          display="grid"
          gridTemplateColumns={columns ? { base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } : 'minmax(0, 1fr)'}
          columnGap="4"
          rowGap="1"
          aria-label={label}
          listStyleType="none"
          m="0"
          p="0"
        >
          {sorted.map((pack) => (
            <Flex as="li" key={pack.id} gap="2" align="center" wrap="wrap" minH="44px" minW="0">
              {mode === 'browse' ? (
                <Link asChild color="accent.fg" minH="44px" minW="0" maxW="full" overflowWrap="anywhere" display="inline-flex" alignItems="center">
                  <RouterLink to={packHref(pack.id)} onClick={onNavigate}>
                    {t('packs.entry', { name: pack.name, count: pack.hits })}
                  </RouterLink>
                </Link>
              ) : renaming === pack.id ? (
                <RenameForm
                  pack={pack}
                  onDone={() => {
                    setRenaming(null);
                    setRefocus(pack.id);
                  }}
                />
              ) : (
                <>
                  {/* on a phone the name takes the whole row and the actions go below it */}
                  <Checkbox.Root
                    flex={manageable || links ? { base: '1 0 100%', sm: '1 1 0' } : '1'}
                    minW="0"
                    minH="44px"
                    colorPalette="accent"
                    checked={chosen.has(pack.id)}
                    onCheckedChange={(e) => onToggle?.(pack.id, e.checked === true)}
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label minW="0" overflowWrap="anywhere">
                      {t('packs.entry', { name: pack.name, count: pack.hits })}
                    </Checkbox.Label>
                  </Checkbox.Root>
                  {(links || canWritePacks) && (
                    <HStack gap="1" wrap="wrap" ms={{ base: '6', sm: '0' }}>
                      {links && (
                        <Button asChild size="xs" variant="ghost">
                          <RouterLink to={packHref(pack.id)} onClick={onNavigate}>
                            {t('packs.only')}
                            {/* the name for screen readers, after the visible words (WCAG 2.5.3 label in name) */}
                            <Box as="span" srOnly>
                              {' '}
                              {t('packs.only_hidden', { name: pack.name })}
                            </Box>
                          </RouterLink>
                        </Button>
                      )}
                      {canWritePacks && (
                        <>
                          <Button
                            ref={(el: HTMLButtonElement | null) => {
                              if (el) renameButtons.current.set(pack.id, el);
                              else renameButtons.current.delete(pack.id);
                            }}
                            size="xs"
                            variant="ghost"
                            aria-label={t('packs.rename_label', { name: pack.name })}
                            onClick={() => setRenaming(pack.id)}
                          >
                            {t('packs.rename')}
                          </Button>
                          <Button size="xs" variant="ghost" colorPalette="red" aria-label={t('packs.delete_label', { name: pack.name })} onClick={() => setDeleting(pack)}>
                            {t('packs.delete')}
                          </Button>
                        </>
                      )}
                    </HStack>
                  )}
                </>
              )}
            </Flex>
          ))}
        </Box>
      )}
      <DeletePackDialog pack={deleting} onClose={() => setDeleting(null)} onDeleted={onDeleted} />
    </Stack>
  );
}

/** Browse mode for one hit's packs (the table's packs button). */
export function PackListDialog({
  open,
  onClose,
  title,
  ids,
  packs,
  finalFocusEl,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  ids: readonly string[];
  packs: readonly PackPayload[];
  finalFocusEl?: RefObject<HTMLElement | null>;
}) {
  const t = useHitsT();
  return (
    <AppDialog open={open} onClose={onClose} title={title} size="sm" {...(finalFocusEl ? { finalFocusEl } : {})}>
      {ids.length === 0 ? <Text color="fg.muted">{t('packs.hit_has_none')}</Text> : <PackList packs={packsOf(ids, packs)} mode="browse" label={title} onNavigate={onClose} />}
    </AppDialog>
  );
}
