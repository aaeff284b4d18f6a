import './recipes.ts';
import { Box, Button, Field, HStack, Input, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { YearSchema } from '../../../../shared/protocol/game.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { useGame } from '../../stores/game.ts';
import * as actions from './game-actions.ts';
import { disputers, disputesLeft, proposedYear } from './dispute-logic.ts';
import { useDisputeDialog } from './dispute-store.ts';
import { DisputeEvidence, useEvidence } from './DisputeEvidence.tsx';
import { usePerspective } from './use-perspective.ts';

/**
 * "Wrong year?" (docs/product.md#disputes): the revealed card, the evidence
 * about its year, the rule of thumb, the year to propose (prefilled with the
 * earliest year an outside source gives that differs from the card's) and,
 * on a Local game's shared screen, which seat disputes. Sending it pauses the
 * game for the table's vote.
 */
export function DisputeDialog() {
  const { t } = useTranslation();
  const open = useDisputeDialog((s) => s.open);
  const seat = useDisputeDialog((s) => s.seat);
  const close = useDisputeDialog((s) => s.close);
  const game = useGame((s) => s.game);
  const perspective = usePerspective();
  const card = game?.disputable?.hit ?? null;
  const evidence = useEvidence(game?.id ?? '', card?.id ?? '', open && !!card);
  const seats = game ? disputers(game, perspective) : [];
  const [chosen, setChosen] = useState<string | null>(null);
  const [year, setYear] = useState('');
  const [touched, setTouched] = useState(false);
  const [problem, setProblem] = useState(false);
  const yearRef = useRef<HTMLInputElement>(null);

  // the field starts with what the sources suggest, until the player types
  const suggested = evidence.status === 'ready' && card ? proposedYear(evidence.evidence, card.year) : null;
  const shown = touched ? year : suggested !== null ? String(suggested) : year;
  const who = seats.find((p) => p.id === (chosen ?? seat)) ?? seats[0];

  const onClose = (): void => {
    setTouched(false);
    setYear('');
    setChosen(null);
    setProblem(false);
    close();
  };
  // the card went away (the window closed, somebody else disputed first): nothing to dispute any more,
  // and the dialog must not come back by itself with the next card
  const active = open && !!card && !!game && !!who;
  useEffect(() => {
    if (open && !active) onClose();
  });

  const submit = (e?: FormEvent): void => {
    e?.preventDefault();
    if (!card || !who) return;
    const value = Number(shown);
    if (shown.trim() === '' || !YearSchema.safeParse(value).success || value === card.year) {
      setProblem(true);
      yearRef.current?.focus();
      return;
    }
    if (actions.dispute(value, who.id)) onClose();
  };

  if (!game) return null;
  return (
    <AppDialog
      open={active}
      onClose={onClose}
      size="lg"
      title={t('table:dispute.title')}
      initialFocusEl={() => yearRef.current}
      keyboardOnOpen={false}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>
            {t('table:dispute.cancel')}
          </Button>
          <Button type="submit" form="dispute-form" colorPalette="accent">
            {t('table:dispute.submit')}
          </Button>
        </HStack>
      }
    >
      {card && who && (
        <Stack asChild gap="5">
          <form id="dispute-form" onSubmit={submit} noValidate>
            <Text fontWeight="semibold" data-testid="dispute-card">
              {t('table:dispute.card', { title: card.title, artist: card.artist, year: card.year })}
            </Text>
            <DisputeEvidence state={evidence} cardYear={card.year} />
            {seats.length > 1 && (
              <RadioGroup.Root value={who.id} onValueChange={({ value }) => value && setChosen(value)} colorPalette="accent" size="lg">
                <RadioGroup.Label fontWeight="semibold" mb="2">
                  {t('table:dispute.for')}
                </RadioGroup.Label>
                <HStack gap="2" wrap="wrap">
                  {seats.map((p) => (
                    <RadioGroup.Item key={p.id} value={p.id} minH="44px" px="3" borderWidth="1px" borderRadius="full" _checked={{ borderColor: 'accent.solid', bg: 'accent.subtle' }}>
                      <RadioGroup.ItemHiddenInput />
                      <RadioGroup.ItemIndicator />
                      <RadioGroup.ItemText>{t('table:dispute.for_option', { name: p.name, left: disputesLeft(game, p.id), count: game.disputes })}</RadioGroup.ItemText>
                    </RadioGroup.Item>
                  ))}
                </HStack>
              </RadioGroup.Root>
            )}
            <Field.Root invalid={problem} required>
              <Field.Label>{t('table:dispute.year')}</Field.Label>
              <Input
                ref={yearRef}
                type="number"
                inputMode="numeric"
                min={1}
                max={9999}
                step={1}
                maxW="10rem"
                value={shown}
                data-testid="dispute-year"
                onChange={(e) => {
                  setTouched(true);
                  setYear(e.target.value);
                  setProblem(false);
                }}
              />
              {problem ? (
                <Field.ErrorText>{t('table:dispute.year_invalid', { year: card.year })}</Field.ErrorText>
              ) : (
                <Field.HelperText>{t('table:dispute.year_help', { year: card.year })}</Field.HelperText>
              )}
            </Field.Root>
            <Text color="fg.muted" data-testid="disputes-left">
              {t('table:dispute.left', { left: disputesLeft(game, who.id), count: game.disputes })}
            </Text>
          </form>
        </Stack>
      )}
    </AppDialog>
  );
}
