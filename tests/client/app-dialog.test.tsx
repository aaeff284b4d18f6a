import { act, fireEvent, screen } from '@testing-library/react';
import { Menu } from '@chakra-ui/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { onNotification, type Notification } from '../../client/src/a11y/notify.ts';
import { AppDialog } from '../../client/src/components/AppDialog.tsx';
import { renderApp } from './render.tsx';

const activation = (hasBeenActive: boolean | undefined): void => {
  Object.defineProperty(navigator, 'userActivation', { configurable: true, value: hasBeenActive === undefined ? undefined : { hasBeenActive, isActive: hasBeenActive } });
};

afterEach(() => activation(undefined));

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open settings
      </button>
      <AppDialog open={open} onClose={() => setOpen(false)} title="Settings">
        body
      </AppDialog>
    </>
  );
}

describe('AppDialog', () => {
  it('plays the popup cue when the user opens it, not when it opens by itself before any tap', async () => {
    const seen: Notification[] = [];
    const off = onNotification((n) => seen.push(n));
    try {
      activation(false);
      const first = renderApp(<AppDialog open onClose={() => undefined} title="Welcome">hello</AppDialog>);
      await screen.findByRole('dialog', { name: 'Welcome' });
      expect(seen.filter((n) => n.type === 'popup')).toEqual([]);
      first.unmount();

      activation(true);
      renderApp(<Opener />);
      expect(seen.filter((n) => n.type === 'popup')).toEqual([]);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Open settings' })));
      await screen.findByRole('dialog', { name: 'Settings' });
      expect(seen.filter((n) => n.type === 'popup')).toEqual([{ type: 'popup', text: '', interrupt: false, sfx: 'popup' }]);
    } finally {
      off();
    }
  });

  it('a confirmation (alertdialog) opens on its first footer button, the safe answer', async () => {
    renderApp(
      <AppDialog
        open
        onClose={() => undefined}
        title="Delete the hit?"
        role="alertdialog"
        footer={
          <>
            <button type="button">No</button>
            <button type="button">Yes</button>
          </>
        }
      >
        It cannot be undone. <a href="#help">What does this mean?</a>
      </AppDialog>,
    );
    await screen.findByRole('alertdialog', { name: 'Delete the hit?' });
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'No' }));
  });

  it('gives the focus back to its opener, or to the main region when it opened by itself', async () => {
    function Page({ auto }: { auto: boolean }) {
      const [open, setOpen] = useState(auto);
      return (
        <main id="main" tabIndex={-1}>
          <button type="button" onClick={() => setOpen(true)}>
            Open settings
          </button>
          <AppDialog open={open} onClose={() => setOpen(false)} title="Settings">
            <button type="button">Inside</button>
          </AppDialog>
        </main>
      );
    }
    const closeWithEscape = async () => {
      const dialog = await screen.findByRole('dialog', { name: 'Settings' });
      await act(async () => fireEvent.keyDown(dialog, { key: 'Escape', code: 'Escape' }));
      await act(async () => new Promise((r) => setTimeout(r, 50)));
      expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    };
    // opened by itself, nothing focused before
    const first = renderApp(<Page auto />);
    await closeWithEscape();
    expect(document.activeElement?.id).toBe('main');
    first.unmount();

    // opened from its button: the button again
    renderApp(<Page auto={false} />);
    const opener = screen.getByRole('button', { name: 'Open settings' });
    opener.focus();
    await act(async () => fireEvent.click(opener));
    await closeWithEscape();
    expect(document.activeElement).toBe(opener);
  });

  it('inside another dialog, gives the focus to that dialog when its opener is gone, and that dialog stays open', async () => {
    function Nested() {
      const [outer, setOuter] = useState(true);
      const [inner, setInner] = useState(false);
      const [items, setItems] = useState(['Pack A', 'Pack B']);
      return (
        <main id="main" tabIndex={-1}>
          <AppDialog open={outer} onClose={() => setOuter(false)} title="Packs">
            {items.map((name) => (
              <button key={name} type="button" onClick={() => setInner(true)}>
                Delete {name}
              </button>
            ))}
          </AppDialog>
          <AppDialog
            open={inner}
            onClose={() => setInner(false)}
            title="Delete pack?"
            role="alertdialog"
            footer={
              <button
                type="button"
                onClick={() => {
                  setItems((list) => list.slice(1));
                  setInner(false);
                }}
              >
                Yes
              </button>
            }
          >
            Sure?
          </AppDialog>
        </main>
      );
    }
    renderApp(<Nested />);
    const outer = await screen.findByRole('dialog', { name: 'Packs' });
    // the outer dialog hides the page behind it a frame after opening; a person is slower than that
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    const remove = screen.getByRole('button', { name: 'Delete Pack A' });
    remove.focus();
    await act(async () => fireEvent.click(remove));
    await screen.findByRole('alertdialog', { name: 'Delete pack?' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Yes' })));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Packs' })).toBe(outer);
    expect(outer.contains(document.activeElement)).toBe(true);
  });

  it('opened from a menu item, gives the focus back to the menu button, every time', async () => {
    function WithMenu() {
      const [open, setOpen] = useState(false);
      return (
        <main id="main" tabIndex={-1}>
          <Menu.Root onSelect={({ value }) => value === 'settings' && setOpen(true)}>
            <Menu.Trigger asChild>
              <button type="button">Menu</button>
            </Menu.Trigger>
            <Menu.Positioner>
              <Menu.Content>
                <Menu.Item value="settings">Settings</Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Menu.Root>
          <AppDialog open={open} onClose={() => setOpen(false)} title="Settings">
            <button type="button">Inside</button>
          </AppDialog>
        </main>
      );
    }
    renderApp(<WithMenu />);
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    for (let round = 0; round < 2; round++) {
      // as with the keyboard: Enter opens the menu with its first item highlighted, Enter chooses it
      menuButton.focus();
      await act(async () => fireEvent.keyDown(menuButton, { key: 'Enter', code: 'Enter' }));
      await screen.findByRole('menuitem', { name: 'Settings' });
      await act(async () => new Promise((r) => setTimeout(r, 20)));
      const menu = screen.getByRole('menu');
      // how the dialog finds the menu's button once the item is gone
      expect(menuButton.getAttribute('aria-controls')).toBe(menu.id);
      await act(async () => fireEvent.keyDown(menu, { key: 'Enter', code: 'Enter' }));
      const dialog = await screen.findByRole('dialog', { name: 'Settings' });
      await act(async () => new Promise((r) => setTimeout(r, 50)));
      await act(async () => fireEvent.keyDown(dialog, { key: 'Escape', code: 'Escape' }));
      await act(async () => new Promise((r) => setTimeout(r, 50)));
      expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
      expect(document.activeElement, `round ${round + 1}`).toBe(menuButton);
    }
  });

  it('opening only after the chosen menu item is gone (its code loaded lazily), still gives the focus to the menu button', async () => {
    function LateDialog() {
      const [menuOpen, setMenuOpen] = useState(true);
      const [open, setOpen] = useState(false);
      return (
        <main id="main" tabIndex={-1}>
          <button type="button" aria-controls="late-menu">
            Menu
          </button>
          {menuOpen && (
            <div role="menu" id="late-menu">
              <button type="button" role="menuitem" onClick={() => setMenuOpen(false)}>
                Settings
              </button>
            </div>
          )}
          <button type="button" onClick={() => setOpen(true)} hidden>
            loaded
          </button>
          <AppDialog open={open} onClose={() => setOpen(false)} title="Settings">
            <button type="button">Inside</button>
          </AppDialog>
        </main>
      );
    }
    renderApp(<LateDialog />);
    const item = screen.getByRole('menuitem', { name: 'Settings' });
    item.focus();
    await act(async () => fireEvent.click(item));
    // the item is gone and nothing has the focus when the dialog opens
    expect(document.activeElement).toBe(document.body);
    await act(async () => fireEvent.click(screen.getByText('loaded')));
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    await act(async () => fireEvent.keyDown(dialog, { key: 'Escape', code: 'Escape' }));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Menu' }));
  });

  it('is a Tab stop of its own only while its body scrolls', async () => {
    renderApp(
      <AppDialog open onClose={() => undefined} title="Short">
        <button type="button">Only control</button>
      </AppDialog>,
    );
    await screen.findByRole('dialog', { name: 'Short' });
    const body = screen.getByRole('button', { name: 'Only control' }).parentElement!;
    expect(body.hasAttribute('tabindex')).toBe(false);
    // jsdom lays nothing out: make the body report more content than room
    Object.defineProperty(body, 'scrollHeight', { configurable: true, value: 900 });
    Object.defineProperty(body, 'clientHeight', { configurable: true, value: 300 });
    await act(async () => body.append(document.createElement('p')));
    expect(body.getAttribute('tabindex')).toBe('0');
  });
});
