import '../recipes.ts';
import { Badge, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GuestNameField, guestNameProblem } from '../../../components/GuestNameField.tsx';
import { useGame } from '../../../stores/game.ts';
import { useSession } from '../../../stores/session.ts';
import { EmojiChoice } from '../EmojiChoice.tsx';
import * as actions from '../game-actions.ts';
import { PlayerAvatar } from '../table/PlayerAvatar.tsx';
import { seatChoices } from './controller-logic.ts';

/**
 * A one-device game's phone (docs/rules.md#local): "Which one are you?" lists the
 * name-only seats with their faces (a seat another phone plays is marked; taking
 * it moves it to this phone), and while the game is Open "A new seat" asks a
 * name and an emoji. The seat key of the join link goes with the choice.
 */
export function LocalSeats({ seatKey, canAdd }: { seatKey: string; canAdd: boolean }) {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players);
  const userId = useSession((s) => s.user?.id);
  const [adding, setAdding] = useState(false);
  const choices = seatChoices({ players: players ?? [] }, userId);

  if (adding && canAdd) return <NewSeat seatKey={seatKey} onBack={() => setAdding(false)} />;
  return (
    <Stack gap="4" data-testid="local-seats">
      <Heading as="h1" size="2xl" fontFamily="heading">
        {t('controller.seats_title')}
      </Heading>
      <Text color="fg.muted">{t(choices.length ? 'controller.seats_intro' : canAdd ? 'controller.seats_none' : 'controller.seats_none_closed')}</Text>
      <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
        {choices.map(({ player, elsewhere }) => (
          <li key={player.id}>
            <Button variant="outline" w="full" minH="16" justifyContent="flex-start" gap="3" px="3" onClick={() => actions.control({ key: seatKey, player: player.id })}>
              <PlayerAvatar name={player.name} colorIndex={player.color} avatar={player.avatar} size="md" as="span" />
              <Text as="span" fontSize="lg" fontWeight="semibold" truncate flex="1" textAlign="start">
                {player.name}
              </Text>
              {elsewhere && (
                <Badge colorPalette="orange" variant="subtle" flexShrink={0}>
                  {t('controller.seat_elsewhere')}
                </Badge>
              )}
            </Button>
          </li>
        ))}
      </Stack>
      {canAdd && (
        <Button colorPalette="accent" size="xl" minH="14" onClick={() => setAdding(true)}>
          {t('controller.seat_new')}
        </Button>
      )}
    </Stack>
  );
}

/** A new name-only seat played on this phone: its name and emoji. */
function NewSeat({ seatKey, onBack }: { seatKey: string; onBack: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [avatar, setAvatar] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = touched ? guestNameProblem(name) : null;
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (guestNameProblem(name)) return;
    actions.control({ key: seatKey, name: name.trim(), ...(avatar ? { avatar } : {}) });
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="play-seat-heading">
      <Stack gap="5">
        <Heading as="h1" id="play-seat-heading" size="2xl" fontFamily="heading">
          {t('controller.seat_new')}
        </Heading>
        <GuestNameField
          value={name}
          problem={problem}
          onChange={(value) => {
            setName(value);
            setTouched(true);
          }}
        />
        <EmojiChoice value={avatar} onChange={setAvatar} name={name} legend={t('people:avatar.legend')} />
        <HStack gap="2">
          <Button variant="outline" size="xl" minH="14" onClick={onBack}>
            {t('controller.back')}
          </Button>
          <Button type="submit" colorPalette="accent" size="xl" minH="14" flex="1">
            {t('people:join.submit')}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
