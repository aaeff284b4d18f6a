import './recipes.ts';
import { Badge, Box, Button, HStack, Heading, Table, Text, Wrap } from '@chakra-ui/react';
import { useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerPayload } from '../../../../shared/protocol/game.ts';
import { CloseIcon, PlusIcon } from '../../components/icons.tsx';
import { useGame } from '../../stores/game.ts';
import { useSession } from '../../stores/session.ts';
import * as actions from './game-actions.ts';
import { KickDialog } from './KickDialog.tsx';
import { PlayerAvatar } from './table/PlayerAvatar.tsx';
import { TokenChip } from './table/TokenChip.tsx';
import { PlayerHitsDialog } from './PlayerHitsDialog.tsx';
import { usePerspective } from './use-perspective.ts';

/** One empty list: a selector must not return a new array on every call (React would render forever). */
const NO_PLAYERS: readonly PlayerPayload[] = [];

/**
 * The players (docs/product.md#screens), in seat order: name with markers (creator, you, whose
 * turn, offline) and what each does now, tokens, a hits button opening his
 * hits, and for the creator a kick column (disabled for himself; it asks
 * first). Phones keep all four columns by moving the markers and status under
 * the name.
 */
export function PlayerTable({ onAddPlayer }: { onAddPlayer: () => void }) {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players ?? NO_PLAYERS);
  const state = useGame((s) => s.game?.state ?? 'Open');
  const mode = useGame((s) => s.game?.mode);
  const userId = useSession((s) => s.user?.id);
  const { me } = usePerspective();
  const [hitsOf, setHitsOf] = useState<string | null>(null);
  const [kickOf, setKickOf] = useState<PlayerPayload | null>(null);
  // the kick button that opened the dialog, or the heading once that row is gone
  const focusAfterKick = useRef<HTMLElement | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const returnFocus = useMemo<RefObject<HTMLElement | null>>(
    () => ({
      get current() {
        const el = focusAfterKick.current;
        return el?.isConnected ? el : headingRef.current;
      },
    }),
    [],
  );
  // a player who left meanwhile is no longer asked about
  const kickTarget = kickOf && players.some((p) => p.id === kickOf.id) ? kickOf : null;
  if (kickOf && !kickTarget) setKickOf(null);
  const creator = !!me?.creator;
  const canAdd = creator && mode === 'Local' && state === 'Open';

  return (
    <Box as="section" aria-labelledby="players-heading" borderWidth="1px" borderColor="border" borderRadius="panel" bg="bg.panel" boxShadow="raised" p={{ base: '4', md: 'panel' }}>
      <HStack justify="space-between" mb="3" gap="3" wrap="wrap">
        <Heading as="h2" id="players-heading" size="lg" ref={headingRef} tabIndex={-1}>
          {t('game.players.heading')}
        </Heading>
        {canAdd && (
          <Button size="sm" variant="outline" onClick={onAddPlayer}>
            <PlusIcon />
            {t('game.players.add')}
          </Button>
        )}
      </HStack>
      {players.length === 0 ? (
        <Text color="fg.muted">{t('game.players.empty')}</Text>
      ) : (
        <Table.Root size="sm" variant="line" aria-labelledby="players-heading">
          <Table.Header>
            <Table.Row bg="transparent">
              <Table.ColumnHeader scope="col">{t('game.players.column_name')}</Table.ColumnHeader>
              <Table.ColumnHeader scope="col" textAlign="end">
                {t('game.players.column_tokens')}
              </Table.ColumnHeader>
              <Table.ColumnHeader scope="col" textAlign="end">
                {t('game.players.column_hits')}
              </Table.ColumnHeader>
              {creator && (
                <Table.ColumnHeader scope="col" textAlign="end">
                  <Text as="span" srOnly>
                    {t('game.players.column_kick')}
                  </Text>
                </Table.ColumnHeader>
              )}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {players.map((p, seat) => (
              <PlayerRow
                key={p.id}
                player={p}
                seat={seat}
                you={mode !== 'Local' && p.id === userId}
                running={state !== 'Open'}
                kickable={creator}
                self={p.id === me?.id}
                onHits={() => setHitsOf(p.id)}
                onKick={(button) => {
                  focusAfterKick.current = button;
                  setKickOf(p);
                }}
              />
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <PlayerHitsDialog playerId={hitsOf} onClose={() => setHitsOf(null)} />
      <KickDialog
        player={kickTarget}
        returnFocus={returnFocus}
        onClose={() => setKickOf(null)}
        onKick={(p) => {
          actions.kick(p.id);
          focusAfterKick.current = headingRef.current;
          setKickOf(null);
        }}
      />
    </Box>
  );
}

interface RowProps {
  player: PlayerPayload;
  seat: number;
  you: boolean;
  running: boolean;
  kickable: boolean;
  self: boolean;
  onHits: () => void;
  /** Asks before removing the player; `button` gets the focus back if he stays. */
  onKick: (button: HTMLElement) => void;
}

function PlayerRow({ player: p, seat, you, running, kickable, self, onHits, onKick }: RowProps) {
  const { t } = useTranslation();
  // the DJ of a running dj round plays the hits from his device
  const dj = useGame((s) => (s.game?.state !== 'Open' && s.game?.dj_seat?.id === p.id ? s.game.dj_seat : null));
  return (
    <Table.Row bg={p.turn_player ? 'accent.subtle' : 'transparent'} aria-current={p.turn_player ? 'true' : undefined}>
      <Table.Cell py="2" wordBreak="break-word">
        <Text fontWeight={you ? 'bold' : 'medium'} display="flex" alignItems="center" gap="2">
          {/* the seat number is the Alt+Shift digit that speaks this player */}
          <Text as="span" color="fg.muted" fontVariantNumeric="tabular-nums" aria-hidden="true">
            {seat + 1}
          </Text>
          <PlayerAvatar as="span" name={p.name} colorIndex={p.color} avatar={p.avatar} size="sm" />
          <Text as="span" minW="0">
            {p.name}
          </Text>
        </Text>
        <Wrap gap="1" mt="1">
          {p.creator && (
            // outlined: a subtle accent badge vanishes on the turn player's accent row
            <Badge size="sm" colorPalette="accent" variant="outline">
              {t('game.players.creator')}
            </Badge>
          )}
          {you && (
            <Badge size="sm" colorPalette="blue" variant="subtle">
              {t('game.players.you')}
            </Badge>
          )}
          {p.turn_player && (
            <Badge size="sm" colorPalette="orange" variant="surface" fontWeight="bold">
              {t('game.players.turn')}
            </Badge>
          )}
          {dj && (
            <Badge size="sm" colorPalette="gray" variant="outline" data-testid="dj-badge">
              {dj.plays ? t('table:dj.badge') : `${t('table:dj.badge')}, ${t('table:dj.sits_out')}`}
            </Badge>
          )}
          {!p.connected && (
            <Badge size="sm" colorPalette="red" variant="subtle">
              {t('game.players.offline')}
            </Badge>
          )}
        </Wrap>
        {running && (
          <Text fontSize="sm" color="fg.muted" mt="1">
            {actions.playerStatus(p)}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end">
        {/* named by the count alone: the column's header says what it counts */}
        <TokenChip count={p.tokens} size="sm" label={String(p.tokens)} />
      </Table.Cell>
      <Table.Cell textAlign="end">
        <Button size="sm" variant="outline" aria-label={t('game.players.hits_button', { name: p.name, count: p.hits.length })} onClick={onHits}>
          {p.hits.length}
        </Button>
      </Table.Cell>
      {kickable && (
        <Table.Cell textAlign="end">
          <Button size="sm" variant="ghost" colorPalette="red" aria-label={t('game.players.kick', { name: p.name })} disabled={self} onClick={(e) => onKick(e.currentTarget)}>
            <CloseIcon />
          </Button>
        </Table.Cell>
      )}
    </Table.Row>
  );
}
