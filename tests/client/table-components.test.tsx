import { ChakraProvider } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../client/src/i18n.ts';
import { HitCard } from '../../client/src/routes/game/table/HitCard.tsx';
import { TableMotion } from '../../client/src/routes/game/table/motion.tsx';
import { avatarGlyph, initials, PlayerAvatar } from '../../client/src/routes/game/table/PlayerAvatar.tsx';
import { TokenChip } from '../../client/src/routes/game/table/TokenChip.tsx';
import { system } from '../../client/src/theme.ts';

afterEach(async () => {
  await applyLanguage('en');
});

/** Renders with the design system, also on rerender. */
const renderApp = (ui: ReactNode) => render(ui, { wrapper: ({ children }) => <ChakraProvider value={system}>{children}</ChakraProvider> });

/** The elements whose inline style turns them in 3D (the flip's). */
const turned = (root: HTMLElement): HTMLElement[] => [...root.querySelectorAll<HTMLElement>('*')].filter((el) => /rotateY|preserve-3d/.test(el.getAttribute('style') ?? ''));

describe('HitCard', () => {
  it('face up: the year, artist and title, named as one image', () => {
    renderApp(<HitCard year={1985} artist="a-ha" title="Take On Me" />);
    const card = screen.getByRole('img', { name: '1985: Take On Me by a-ha' });
    expect(within(card).getByText('1985')).toBeTruthy();
    expect(within(card).getByText('a-ha')).toBeTruthy();
    expect(within(card).getByText('Take On Me')).toBeTruthy();
    expect(card.dataset.card).toBe('face');
  });

  it('keeps long names whole for screen readers (the card only clamps them on screen)', () => {
    const artist = 'Crosby, Stills, Nash & Young with a Very Long Band Name';
    const title = 'Suite: Judy Blue Eyes (Live at the Fillmore East, Remastered 2021)';
    renderApp(<HitCard year={1969} artist={artist} title={title} size="sm" />);
    const card = screen.getByRole('img', { name: `1969: ${title} by ${artist}` });
    expect(within(card).getByText(title).textContent).toBe(title);
  });

  it('face down, the mystery card has no year anywhere, even when it is passed', () => {
    const { container } = renderApp(<HitCard mystery year={1985} artist={null} title={null} />);
    const card = screen.getByRole('img', { name: 'Hidden hit' });
    expect(card.dataset.card).toBe('mystery');
    expect(container.textContent).not.toContain('1985');
  });

  it('in card clue mode shows title and artist, still without the year', () => {
    const { container } = renderApp(<HitCard mystery year={2013} artist="Avicii" title="Wake Me Up" />);
    const card = screen.getByRole('img', { name: 'Hidden hit: Wake Me Up by Avicii' });
    expect(within(card).getByText('Avicii')).toBeTruthy();
    expect(within(card).getByText('Wake Me Up')).toBeTruthy();
    expect(container.textContent).not.toContain('2013');
  });

  it('rings while its audio plays, and says so', () => {
    const { container, rerender } = renderApp(<HitCard mystery playing />);
    expect(screen.getByRole('img', { name: 'Hidden hit, playing' })).toBeTruthy();
    expect(container.querySelector('[data-playing-ring]')).not.toBeNull();
    rerender(<HitCard mystery />);
    expect(screen.getByRole('img', { name: 'Hidden hit' })).toBeTruthy();
    expect(container.querySelector('[data-playing-ring]')).toBeNull();
  });

  it('turns face up when revealed: the year appears and names the card', () => {
    const { container, rerender } = renderApp(<HitCard mystery playing year={1985} artist="a-ha" title="Take On Me" />);
    expect(container.textContent).not.toContain('1985');
    rerender(<HitCard mystery revealed year={1985} artist="a-ha" title="Take On Me" />);
    const card = screen.getByRole('img', { name: '1985: Take On Me by a-ha' });
    expect(card.dataset.card).toBe('revealed');
    expect(within(card).getByText('1985')).toBeTruthy();
    // no more ring once the card is face up
    expect(container.querySelector('[data-playing-ring]')).toBeNull();
  });

  it('flips in 3D, but only fades with reduced motion', () => {
    const moving = renderApp(
      <TableMotion reducedMotion="never">
        <HitCard mystery revealed year={1985} artist="a-ha" title="Take On Me" />
      </TableMotion>,
    );
    expect(turned(moving.container).length).toBeGreaterThan(0);
    moving.unmount();
    const calm = renderApp(
      <TableMotion reducedMotion="always">
        <HitCard mystery revealed year={1985} artist="a-ha" title="Take On Me" />
      </TableMotion>,
    );
    expect(turned(calm.container)).toEqual([]);
    expect(screen.getByRole('img', { name: '1985: Take On Me by a-ha' })).toBeTruthy();
  });

  it('marks the outcome after a reveal, in its name too', () => {
    const { container } = renderApp(<HitCard year={1991} artist="Nirvana" title="Smells Like Teen Spirit" outcome="wrong" />);
    expect(screen.getByRole('img', { name: '1991: Smells Like Teen Spirit by Nirvana, placed wrongly' })).toBeTruthy();
    expect(container.querySelector('[data-outcome="wrong"]')).not.toBeNull();
  });

  it('speaks German, and takes a label of the caller', async () => {
    await applyLanguage('de');
    renderApp(
      <>
        <HitCard year={1985} artist="a-ha" title="Take On Me" />
        <HitCard mystery playing />
        <HitCard year={2001} artist="x" title="y" label="Karte 3 von 5" />
      </>,
    );
    expect(screen.getByRole('img', { name: '1985: „Take On Me“ von a-ha' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Verdeckter Hit, läuft' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Karte 3 von 5' })).toBeTruthy();
  });

  it('has sizes', () => {
    renderApp(
      <>
        <HitCard year={1970} artist="a" title="b" size="sm" label="small" />
        <HitCard year={1970} artist="a" title="b" size="lg" label="large" />
      </>,
    );
    expect(screen.getByRole('img', { name: 'small' }).dataset.size).toBe('sm');
    expect(screen.getByRole('img', { name: 'large' }).dataset.size).toBe('lg');
  });
});

describe('PlayerAvatar', () => {
  it('makes initials from the name', () => {
    expect(initials('Ana Lima')).toBe('AL');
    expect(initials('ben')).toBe('B');
    expect(initials('slowly-cosmic-jaguar')).toBe('SJ');
    expect(initials('Ana Maria de Souza')).toBe('AS');
    expect(initials('  çelik öz von Berg ')).toBe('ÇB');
    expect(initials('')).toBe('?');
    // a letter is a grapheme, not a UTF-16 code unit
    expect(initials('👩‍🎤 Rock')).toBe('👩‍🎤R');
  });

  it('shows the initials, or the emoji the player chose (one character of it)', () => {
    const { container } = renderApp(
      <>
        <PlayerAvatar name="Ana Lima" colorIndex={0} avatar="" />
        <PlayerAvatar name="Ben" colorIndex={1} avatar="🎸" />
      </>,
    );
    const [ana, ben] = [...container.querySelectorAll<HTMLElement>('[data-color-index]')];
    expect(ana?.textContent).toBe('AL');
    expect(ben?.textContent).toBe('🎸');
    expect(avatarGlyph('🎸🎸🎸 ')).toBe('🎸');
  });

  it('is decorative by default (the name is written beside it), or labelled', () => {
    const { container } = renderApp(
      <>
        <PlayerAvatar name="Ana" colorIndex={3} />
        <PlayerAvatar name="Ben" colorIndex={4} labelled />
      </>,
    );
    expect(container.querySelector('[data-color-index="3"]')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByRole('img', { name: 'Ana' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Ben' }).textContent).toBe('B');
  });
});

describe('TokenChip', () => {
  it('shows the count and says it', async () => {
    renderApp(
      <>
        <TokenChip count={3} />
        <TokenChip count={1} size="sm" />
      </>,
    );
    expect(screen.getByRole('img', { name: '3 tokens' }).textContent).toBe('3');
    expect(screen.getByRole('img', { name: '1 token' })).toBeTruthy();
  });

  it('can be decorative, and speaks German', async () => {
    await applyLanguage('de');
    const { container } = renderApp(
      <>
        <TokenChip count={2} decorative />
        <TokenChip count={5} />
      </>,
    );
    expect(container.querySelector('[data-count="2"]')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getAllByRole('img')).toHaveLength(1);
    expect(screen.getByRole('img', { name: '5 Chips' })).toBeTruthy();
  });
});
