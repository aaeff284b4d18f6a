import { act, fireEvent, screen } from '@testing-library/react';
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
});
