import { act, fireEvent, screen } from '@testing-library/react';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { gameLink, InviteButton, qrPath } from '../../client/src/routes/game/InviteButton.tsx';
import { renderApp } from './render.tsx';

/**
 * The invitation: the game's link and its QR code. The code is read back with a
 * QR decoder (jsQR) from the pixels of the path the dialog draws, so a wrong
 * path, size or quiet zone would fail here, not only on a phone's camera.
 */

/** The pixels of a QR path (as the dialog's SVG draws it: a 2-module quiet zone), `scale` pixels per module. */
function pixels({ size, d }: { size: number; d: string }, scale = 4): { data: Uint8ClampedArray; width: number } {
  const width = (size + 4) * scale;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const m of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    const [col, row] = [Number(m[1]) + 2, Number(m[2]) + 2];
    for (let y = row * scale; y < (row + 1) * scale; y++)
      for (let x = col * scale; x < (col + 1) * scale; x++) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  }
  return { data, width };
}

describe('invite', () => {
  it('the QR code reads back as the game link', async () => {
    const link = gameLink('AbCd1234');
    expect(link).toBe(`${window.location.origin}/game/AbCd1234`);
    const path = await qrPath(link);
    const { data, width } = pixels(path);
    expect(jsQR(data, width, width)?.data).toBe(link);
  });

  it('the dialog shows the link to copy and a labelled QR code; a Private game says the link is the only way in', async () => {
    renderApp(<InviteButton gameId="AbCd1234" mode="Private" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Invite' })));
    const dialog = await screen.findByRole('dialog', { name: 'Invite players' });
    expect((screen.getByRole('textbox', { name: 'Game link' }) as HTMLInputElement).value).toBe(`${window.location.origin}/game/AbCd1234`);
    expect(dialog.textContent).toContain('only people with this link can find it');
    expect(await screen.findByRole('img', { name: 'QR code of the game link' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
  });
});
