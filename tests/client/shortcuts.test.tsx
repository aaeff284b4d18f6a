import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { announcer } from '../../client/src/a11y/announcer.ts';
import {
  createShortcutMatcher,
  formatKeys,
  installShortcuts,
  KEY_SEQUENCE_TIMEOUT_MS,
  keyName,
  SHORTCUTS,
  useShortcuts,
  type KeyEventLike,
  type ShortcutDef,
} from '../../client/src/a11y/shortcuts.ts';

function key(k: string, code: string, mods: Partial<KeyEventLike> = { altKey: true, shiftKey: true }): KeyEventLike & { prevented: boolean } {
  const e = {
    key: k,
    code,
    altKey: false,
    shiftKey: false,
    ctrlKey: false,
    metaKey: false,
    ...mods,
    prevented: false,
    preventDefault() {
      e.prevented = true;
    },
    stopPropagation() {},
  };
  return e;
}

describe('the shortcut table', () => {
  it('has every key of the spec (and D: dispute a year, docs/product.md#disputes), each bound once', () => {
    const keys = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(
      ['E', 'J', 'Q', 'L', 'R', 'U', 'H', 'S', 'I', 'Y', 'N', 'Enter', 'ArrowDown', 'ArrowUp', 'Backspace', 'D', '1', '2', '3', '4', '5', '6', '7', '8', '9', '0'].sort(),
    );
    expect(SHORTCUTS.filter((s) => s.section === 'lobby').map((s) => s.id).sort()).toEqual(['create_local', 'create_private', 'create_public']);
  });

  it('formats keys for people', () => {
    expect(formatKeys('U')).toBe('Alt+Shift+U');
    expect(formatKeys('G S')).toBe('Alt+Shift+G, S');
    expect(formatKeys('ArrowDown', (k) => (k === 'ArrowDown' ? 'Down' : k))).toBe('Alt+Shift+Down');
  });
});

describe('keyName', () => {
  it('names letters and digits whatever Alt and Shift did to them', () => {
    expect(keyName({ key: 'U', code: 'KeyU' })).toBe('U');
    expect(keyName({ key: '¨', code: 'KeyU' })).toBe('U'); // Alt+Shift+U on a Mac
    expect(keyName({ key: '!', code: 'Digit1' })).toBe('1'); // Shift+1 on a US layout
    expect(keyName({ key: 'Y', code: 'KeyZ' })).toBe('Y'); // the Y key of a German layout
    expect(keyName({ key: 'Enter', code: 'NumpadEnter' })).toBe('Enter');
    expect(keyName({ key: 'ArrowDown', code: 'ArrowDown' })).toBe('ArrowDown');
  });
});

describe('createShortcutMatcher', () => {
  it('fires on Alt+Shift+key, prevents the browser default and passes which alternative matched', () => {
    const handler = vi.fn();
    const m = createShortcutMatcher(SHORTCUTS, (id) => (id === 'player_info' || id === 'create_public' ? handler : undefined));
    const e = key('U', 'KeyU');
    expect(m.handle(e)).toBe(true);
    expect(e.prevented).toBe(true);
    expect(handler).toHaveBeenLastCalledWith({ index: 0, keys: 'U' });
    m.handle(key(')', 'Digit0'));
    expect(handler).toHaveBeenLastCalledWith({ index: 9, keys: '0' }); // player 10
  });

  it('leaves keys without both Alt and Shift (or with Ctrl/Meta) to the page', () => {
    const handler = vi.fn();
    const m = createShortcutMatcher(SHORTCUTS, () => handler);
    for (const mods of [{}, { altKey: true }, { shiftKey: true }, { altKey: true, shiftKey: true, ctrlKey: true }, { altKey: true, shiftKey: true, metaKey: true }]) {
      const e = key('u', 'KeyU', mods);
      expect(m.handle(e)).toBe(false);
      expect(e.prevented).toBe(false);
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('prevents the default of a table key even where no screen handles it', () => {
    const m = createShortcutMatcher(SHORTCUTS, () => undefined);
    const e = key('I', 'KeyI'); // Alt+Shift+I opens a browser dialog in Chrome
    expect(m.handle(e)).toBe(true);
    expect(e.prevented).toBe(true);
  });

  it('does not touch keys outside the table', () => {
    const m = createShortcutMatcher(SHORTCUTS, () => vi.fn());
    const e = key('T', 'KeyT');
    expect(m.handle(e)).toBe(false);
    expect(e.prevented).toBe(false);
    expect(m.handle(key('Shift', 'ShiftLeft'))).toBe(false);
  });

  it('fires once while a key is held down', () => {
    const handler = vi.fn();
    const m = createShortcutMatcher(SHORTCUTS, () => handler);
    m.handle(key('H', 'KeyH'));
    const repeat = key('H', 'KeyH', { altKey: true, shiftKey: true, repeat: true });
    expect(m.handle(repeat)).toBe(true);
    expect(repeat.prevented).toBe(true);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  describe('key sequences', () => {
    const defs: ShortcutDef<'seq' | 'g'>[] = [
      { id: 'seq', section: 'game', keys: ['G S'] },
      { id: 'g', section: 'game', keys: ['X'] },
    ];

    it('fires when the keys follow each other within 1000 ms', () => {
      let now = 0;
      const seq = vi.fn();
      const m = createShortcutMatcher(defs, (id) => (id === 'seq' ? seq : undefined), { now: () => now });
      const g = key('G', 'KeyG');
      expect(m.handle(g)).toBe(true); // a prefix: held back from the browser, nothing fires yet
      expect(g.prevented).toBe(true);
      expect(seq).not.toHaveBeenCalled();
      now += KEY_SEQUENCE_TIMEOUT_MS;
      m.handle(key('S', 'KeyS'));
      expect(seq).toHaveBeenCalledTimes(1);
    });

    it('starts over after a pause longer than the timeout', () => {
      let now = 0;
      const seq = vi.fn();
      const m = createShortcutMatcher(defs, (id) => (id === 'seq' ? seq : undefined), { now: () => now });
      m.handle(key('G', 'KeyG'));
      now += KEY_SEQUENCE_TIMEOUT_MS + 1;
      const s = key('S', 'KeyS');
      expect(m.handle(s)).toBe(false); // S alone means nothing
      expect(seq).not.toHaveBeenCalled();
      // and a fresh sequence still works
      m.handle(key('G', 'KeyG'));
      now += 10;
      m.handle(key('S', 'KeyS'));
      expect(seq).toHaveBeenCalledTimes(1);
    });

    it('a key that breaks a sequence may start its own binding', () => {
      let now = 0;
      const g = vi.fn();
      const m = createShortcutMatcher(defs, (id) => (id === 'g' ? g : undefined), { now: () => now });
      m.handle(key('G', 'KeyG'));
      now += 5;
      m.handle(key('X', 'KeyX'));
      expect(g).toHaveBeenCalledTimes(1);
    });
  });
});

describe('useShortcuts', () => {
  it('calls the handler of the most recent registration, and stops when unmounted', () => {
    const uninstall = installShortcuts();
    const outer = vi.fn();
    const inner = vi.fn();
    const a = renderHook(() => useShortcuts({ create_public: outer, create_local: outer }));
    const b = renderHook(() => useShortcuts({ create_public: inner }));
    const press = (k: string) => {
      const e = new KeyboardEvent('keydown', { key: k, code: `Key${k}`, altKey: true, shiftKey: true, bubbles: true, cancelable: true });
      window.dispatchEvent(e);
      return e;
    };
    const e = press('U');
    expect(e.defaultPrevented).toBe(true);
    expect(inner).toHaveBeenCalledTimes(1);
    expect(outer).not.toHaveBeenCalled();
    press('L');
    expect(outer).toHaveBeenCalledTimes(1);
    b.unmount();
    press('U');
    expect(outer).toHaveBeenCalledTimes(2);
    a.unmount();
    press('U');
    expect(outer).toHaveBeenCalledTimes(2);
    uninstall();
  });

  it('does not act behind an open modal dialog: the key is kept from the browser and the user hears why', () => {
    const uninstall = installShortcuts();
    const handler = vi.fn();
    renderHook(() => useShortcuts({ create_local: handler }));
    const press = () => {
      const e = new KeyboardEvent('keydown', { key: 'L', code: 'KeyL', altKey: true, shiftKey: true, bubbles: true, cancelable: true });
      window.dispatchEvent(e);
      return e;
    };
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    dialog.dataset.state = 'open';
    document.body.append(dialog);
    act(() => announcer.clear());
    expect(press().defaultPrevented).toBe(true);
    expect(handler).not.toHaveBeenCalled();
    expect(announcer.getSnapshot().assertive.map((a) => a.text)).toEqual(['Close the dialog first.']);
    // a dialog closing (still in the page for its animation) does not stop it, nor does a
    // popover (a dialog that is not modal), nor a dialog gone
    dialog.dataset.state = 'closed';
    press();
    expect(handler).toHaveBeenCalledTimes(1);
    dialog.dataset.state = 'open';
    dialog.removeAttribute('aria-modal');
    press();
    expect(handler).toHaveBeenCalledTimes(2);
    dialog.remove();
    press();
    expect(handler).toHaveBeenCalledTimes(3);
    uninstall();
  });

  it('is inactive while disabled', () => {
    const uninstall = installShortcuts();
    const handler = vi.fn();
    renderHook(() => useShortcuts({ create_private: handler }, false));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'R', code: 'KeyR', altKey: true, shiftKey: true }));
    expect(handler).not.toHaveBeenCalled();
    uninstall();
  });
});
