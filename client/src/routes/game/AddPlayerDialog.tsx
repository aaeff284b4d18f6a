import './recipes.ts';
import { FieldInput } from '../../components/FieldInput.tsx';
import { Button, Field, Stack } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalPlayerNameSchema } from '../../../../shared/protocol/game.ts';
import { MAX_PLAYERS, NAME_MAX, NAME_MIN } from '../../../../shared/rules/constants.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useGame } from '../../stores/game.ts';
import { EmojiChoice } from './EmojiChoice.tsx';
import * as actions from './game-actions.ts';

/** Characters, not UTF-16 units, as the engine counts them (32 emoji are a valid name). */
const nameLength = (name: string): number => [...name.trim()].length;

/**
 * Adds a local player (docs/product.md#screens, #validation): a name of 1 to 32 characters, not empty,
 * and an emoji. "Add, then another" keeps the dialog open for
 * the next seat, so a table is seated in one go.
 */
export function AddPlayerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [avatar, setAvatar] = useState('');
  const [touched, setTouched] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // the engine's rule (names differ in more than case), said here instead of after a round trip
  const taken = useGame((s) => !!s.game?.players.some((p) => p.name.toLocaleLowerCase() === name.trim().toLocaleLowerCase()));
  // the room's own rule (the shared schema): a name it would refuse is said here, with the dialog open
  const lengthOk = nameLength(name) >= NAME_MIN && nameLength(name) <= NAME_MAX;
  const wellFormed = LocalPlayerNameSchema.safeParse(name.trim()).success;
  const valid = wellFormed && !taken;

  const full = useGame((s) => (s.game?.players.length ?? 0) >= MAX_PLAYERS - 1);

  const reset = (): void => {
    setName('');
    setAvatar('');
    setTouched(false);
  };

  const close = (): void => {
    reset();
    onClose();
  };

  /** Adds the seat; `next`: the dialog stays for the next one. */
  const add = (next: boolean): void => {
    setTouched(true);
    if (!valid) {
      inputRef.current?.focus();
      return;
    }
    // not sent (no connection): the dialog stays open with the name, to be sent again
    if (!actions.addPlayer(name, avatar)) return;
    if (!next) {
      close();
      return;
    }
    reset();
    inputRef.current?.focus();
  };

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    add(false);
  };

  return (
    <AppDialog
      open={open}
      onClose={close}
      size="sm"
      title={t('game.add_player.title')}
      initialFocusEl={() => inputRef.current}
      footer={
        <>
          {/* the last free seat: nobody can come after it */}
          {!full && (
            <Button variant="outline" onClick={() => add(true)} aria-disabled={!valid || undefined}>
              {t('people:add.another')}
            </Button>
          )}
          <Button type="submit" form="add-player-form" colorPalette="accent" aria-disabled={!valid || undefined}>
            {t('game.add_player.submit')}
          </Button>
        </>
      }
    >
      <form id="add-player-form" onSubmit={submit} noValidate>
        <Stack gap="5">
          <Field.Root required invalid={touched && !valid}>
            <Field.Label>{t('game.add_player.name')}</Field.Label>
            <FieldInput
              ref={inputRef}
              value={name}
              maxLength={NAME_MAX * 2}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                // said once something was typed, not on blur: closing the dialog blurs the field
                setTouched(true);
              }}
            />
            {touched && !valid ? (
              <Field.ErrorText>{name.trim() === '' ? t('game.add_player.empty') : !lengthOk ? t('game.add_player.hint', { min: NAME_MIN, max: NAME_MAX }) : !wellFormed ? t('game.add_player.unusable') : t('errors.name_taken')}</Field.ErrorText>
            ) : (
              <Field.HelperText>{t('game.add_player.hint', { min: NAME_MIN, max: NAME_MAX })}</Field.HelperText>
            )}
          </Field.Root>
          <EmojiChoice value={avatar} onChange={setAvatar} name={name} legend={t('people:avatar.legend_seat')} />
        </Stack>
      </form>
    </AppDialog>
  );
}
