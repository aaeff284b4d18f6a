import { fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { HowToPlay } from '../../client/src/components/HowToPlay.tsx';
import { applyLanguage } from '../../client/src/i18n.ts';
import { renderApp } from './render.tsx';

describe('How to play', () => {
  afterAll(async () => {
    await applyLanguage('en');
  });

  it.each([
    ['en', 'Advanced', /^Cards are played on trust: the year of a song can be looked up/],
    ['de', 'Für Fortgeschrittene', /^Karten sind ein Spiel auf Vertrauen: Das Jahr eines Songs lässt sich nachschlagen/],
  ] as const)('says in %s that card mode trusts the players not to look the year up (issue 25)', async (lang, tab, text) => {
    await applyLanguage(lang);
    renderApp(<HowToPlay />);
    fireEvent.click(screen.getByRole('tab', { name: tab }));
    expect(await screen.findByText(text)).toBeTruthy();
  });
});
