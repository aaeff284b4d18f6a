import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installFocusKeeper, pageChanged } from '../../client/src/a11y/focus-keeper.ts';

/** Lets the keeper's mutation observer (a microtask) and its animation-frame check run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 40));

let uninstall: () => void = () => undefined;
beforeEach(() => {
  document.body.innerHTML = `
    <header><button id="menu">Menu</button></header>
    <main id="main" tabindex="-1">
      <h1>Game</h1>
      <section id="panel"><h2 id="panel-heading">Your turn</h2><div id="controls"><button id="submit">Submit guess</button></div></section>
      <section id="actions"><h2 id="actions-heading">Actions</h2><button id="claim">Claim</button><button id="skip">Skip</button></section>
    </main>
    <div role="dialog" id="dialog"><button id="close">Close</button></div>
    <div id="portal"><div role="menu" id="menu-list"><div role="menuitem" tabindex="-1" id="item">Public game</div></div></div>`;
  uninstall = installFocusKeeper();
});
afterEach(() => uninstall());

const byId = (id: string) => document.getElementById(id) as HTMLElement;

describe('focus keeper', () => {
  it('a removed control gives the focus to the heading of the part of the page that is still there', async () => {
    byId('submit').focus();
    byId('controls').remove();
    await settle();
    expect(document.activeElement?.id).toBe('panel-heading');
    // the heading takes focus from scripts only, not as a Tab stop
    expect(byId('panel-heading').getAttribute('tabindex')).toBe('-1');
  });

  it('a control that becomes disabled does the same', async () => {
    byId('claim').focus();
    (byId('claim') as HTMLButtonElement).disabled = true;
    // jsdom keeps the focus on a disabled button; browsers drop it to the body at their next rendering step
    byId('claim').blur();
    await settle();
    expect(document.activeElement?.id).toBe('actions-heading');
  });

  it('a new page: the main heading, or the main region until the heading is there', async () => {
    byId('submit').focus();
    const main = byId('main');
    main.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'Loading…' }));
    await settle();
    expect(document.activeElement).toBe(main);
    const h1 = Object.assign(document.createElement('h1'), { textContent: 'Lobby' });
    main.append(h1);
    await settle();
    expect(document.activeElement).toBe(h1);
  });

  it('leaves a focus the user moved away, and dialogs, alone', async () => {
    byId('skip').focus();
    byId('skip').blur();
    byId('panel').append(document.createElement('span'));
    await settle();
    expect(document.activeElement).toBe(document.body);
    // and when that element goes later, the focus the user left nowhere stays there
    byId('skip').remove();
    await settle();
    expect(document.activeElement).toBe(document.body);

    byId('close').focus();
    byId('dialog').remove();
    await settle();
    expect(document.activeElement).toBe(document.body);
  });

  it('in a dialog that stays open, a control that went gives the focus to the dialog\'s heading; a closing dialog is left alone', async () => {
    const dialog = byId('dialog');
    dialog.insertAdjacentHTML('afterbegin', '<h2 id="dialog-title">Import</h2><div id="field"><input id="file" type="file"></div>');
    byId('file').focus();
    (byId('file') as HTMLInputElement).disabled = true;
    byId('file').blur();
    await settle();
    expect(document.activeElement?.id).toBe('dialog-title');
    // closing (its exit animation): the dialog gives the focus back to its opener itself
    byId('close').focus();
    dialog.setAttribute('data-state', 'closed');
    byId('close').remove();
    await settle();
    expect(document.activeElement).toBe(document.body);
  });

  it('a menu item that navigated away: its menu button is gone too, so the new page\'s heading takes the focus', async () => {
    byId('item').focus();
    byId('portal').remove();
    const main = byId('main');
    const h1 = Object.assign(document.createElement('h1'), { textContent: 'Game AbCd1234 (open)' });
    main.replaceChildren(h1);
    await settle();
    expect(document.activeElement).toBe(h1);
  });

  it('a menu item whose menu closed: back to the menu\'s button, or to the heading near it when the button is disabled now', async () => {
    const button = Object.assign(document.createElement('button'), { id: 'claim-for', textContent: 'Claim a hit for…' });
    button.setAttribute('aria-controls', 'menu-list');
    byId('actions').append(button);
    byId('item').focus();
    byId('portal').remove();
    await settle();
    expect(document.activeElement).toBe(button);
    // the same, the button disabled by the claim: the heading of its part of the page, not the document's first
    byId('main').append(Object.assign(document.createElement('div'), { id: 'portal2', innerHTML: '<div role="menu" id="menu-list"><div role="menuitem" tabindex="-1" id="item2">Ana</div></div>' }));
    byId('item2').focus();
    button.disabled = true;
    byId('portal2').remove();
    await settle();
    expect(document.activeElement?.id).toBe('actions-heading');
  });

  it('a navigation while nothing has the focus (a shortcut on the page\'s body) focuses the new page\'s heading; else nothing moves', async () => {
    expect(document.activeElement).toBe(document.body);
    pageChanged();
    expect(document.activeElement?.textContent).toBe('Game');
    byId('skip').focus();
    pageChanged();
    expect(document.activeElement?.id).toBe('skip');
  });

  it('does nothing once uninstalled', async () => {
    uninstall();
    byId('submit').focus();
    byId('controls').remove();
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});
