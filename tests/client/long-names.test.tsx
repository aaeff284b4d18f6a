import { act, screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotificationArea } from '../../client/src/components/NotificationArea.tsx';
import { loadNamespace } from '../../client/src/i18n.ts';
import { PackList } from '../../client/src/routes/hits/PackChooser.tsx';
import { useNotifications } from '../../client/src/stores/notifications.ts';
import { renderApp, signInCurator } from './render.tsx';

/**
 * Names that are one long word (a pack name of 100 letters, the most the
 * server takes; a hit title of 300) must break inside their box: the pack
 * list's rows keep "Only this", "Rename" and "Delete" beside or below the name
 * instead of pushing them out of the dialog, and a toast wraps its text
 * instead of running off the screen. Without layout here, these check the
 * styles that do it (what the browser check saw: 964 px of list in a 464 px
 * dialog, toasts thousands of pixels wide).
 */

const LONG_PACK = 'P'.repeat(100);
const LONG_TITLE = 'X'.repeat(300);
const packs = [
  { id: '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01', name: '1950s', hits: 40 },
  { id: '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a02', name: LONG_PACK, hits: 0 },
];

const style = (el: Element): CSSStyleDeclaration => getComputedStyle(el);
/** min-width: 0, however the DOM spells it. */
const zeroMin = (el: Element): void => expect(['0', '0px']).toContain(style(el).minWidth);

beforeAll(async () => {
  await loadNamespace('hits');
});

describe('the pack list with a 100-letter pack name', () => {
  beforeEach(signInCurator);

  it('lets the name break anywhere and keeps the row actions in the row', () => {
    renderApp(<PackList packs={packs} mode="select" selected={[]} onToggle={() => undefined} links manage label="Filter by pack" />);
    const list = screen.getByRole('list', { name: 'Filter by pack' });
    // the grid's one column may shrink below its content's width
    expect(style(list).gridTemplateColumns).toBe('minmax(0, 1fr)');

    const checkbox = screen.getByRole('checkbox', { name: `${LONG_PACK} (0 hits)` });
    const row = checkbox.closest('li');
    expect(row).not.toBeNull();
    const rowEl = row as HTMLElement;
    zeroMin(rowEl);
    expect(style(rowEl).flexWrap).toBe('wrap');

    // the label: the whole name (nothing cut off for screen readers), allowed to break anywhere and shrink
    const label = rowEl.querySelector('[data-part=label]') as HTMLElement;
    expect(label.textContent).toBe(`${LONG_PACK} (0 hits)`);
    expect(style(label).overflowWrap).toBe('anywhere');
    zeroMin(label);
    const root = rowEl.querySelector('[data-part=root]') as HTMLElement;
    zeroMin(root);

    // the three actions are in the same row, in a group that wraps rather than overflows
    const only = within(rowEl).getByRole('link', { name: `Only this (pack ${LONG_PACK})` });
    const rename = within(rowEl).getByRole('button', { name: `Rename ${LONG_PACK}` });
    const del = within(rowEl).getByRole('button', { name: `Delete ${LONG_PACK}` });
    const group = only.parentElement as HTMLElement;
    expect(rename.parentElement).toBe(group);
    expect(del.parentElement).toBe(group);
    expect(group.parentElement).toBe(rowEl);
    expect(style(group).flexWrap).toBe('wrap');

    // set on the list's wrapper too, so every row inherits it
    expect(style(list.parentElement as HTMLElement).overflowWrap).toBe('anywhere');
  });

  it('breaks long names in browse mode too', () => {
    renderApp(<PackList packs={packs} mode="browse" label="Packs of the hit" />);
    const link = screen.getByRole('link', { name: `${LONG_PACK} (0 hits)` });
    expect(style(link).overflowWrap).toBe('anywhere');
    zeroMin(link);
  });
});

describe('toasts with long words', () => {
  beforeEach(() => {
    useNotifications.setState({ toasts: [] });
  });

  it('wrap inside the toast, which is never wider than the screen', () => {
    renderApp(<NotificationArea />);
    const title = `Hit created: QA Artist – ${LONG_TITLE}.`;
    act(() => {
      useNotifications.getState().toast({ kind: 'success', title });
      useNotifications.getState().toast({ kind: 'success', title: `Pack ${LONG_PACK} created.` });
    });
    const area = screen.getByRole('region', { name: 'Notifications' });
    expect(style(area).overflowWrap).toBe('anywhere');
    // 100vw - 1rem (happy-dom resolves the units against its 1024 px window)
    expect(['calc(100vw - 1rem)', 'calc(1024px - 16px)']).toContain(style(area).maxWidth);
    const notes = within(area).getAllByRole('note');
    expect(notes.map((n) => n.textContent)).toEqual([title, `Pack ${LONG_PACK} created.`]);
    for (const note of notes) {
      const content = note.querySelector('.chakra-alert__content') as HTMLElement;
      zeroMin(content);
    }
  });
});
