import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Splash } from '../../client/src/components/Splash.tsx';

/**
 * The loading screen exists twice: as the static shell in index.html (painted
 * before any script runs) and as its React twin. They must look alike and say
 * the same (docs/product.md#screens: a spinner with a loading label until the user is known).
 */

const root = join(import.meta.dirname, '..', '..');
const html = readFileSync(join(root, 'client', 'index.html'), 'utf8');
const messages = (lng: string) => JSON.parse(readFileSync(join(root, 'locales', `${lng}.json`), 'utf8')) as { app: { name: string; loading: string } };
const shellCss = readFileSync(join(root, 'client', 'src', 'theme-shell.css'), 'utf8');

/** The page's #root as a document fragment. */
function staticShell(): HTMLElement {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return doc.getElementById('root') as HTMLElement;
}

/** Tags, classes, roles and aria-hidden of an element tree: its shape without texts. */
function shape(el: Element): string {
  const attrs = ['class', 'role', 'aria-hidden'].map((a) => (el.hasAttribute(a) ? `${a}=${el.getAttribute(a)}` : '')).filter(Boolean);
  const kids = [...el.children].filter((c) => !c.classList.contains('hl-splash-label')).map(shape);
  return `${el.tagName.toLowerCase()}[${attrs.join(' ')}](${kids.join(',')})`;
}

describe('the static shell', () => {
  it('is the loading screen: a main landmark with a status, the name, a spinner and the label in every language', () => {
    const shell = staticShell();
    expect(shell.children).toHaveLength(1);
    const status = shell.querySelector('main > [role=status]');
    expect(status).not.toBeNull();
    expect(shell.querySelector('.hl-splash-name')?.textContent).toBe(messages('en').app.name);
    expect(shell.querySelector('.hl-splash-name')?.getAttribute('aria-hidden')).toBe('true');
    expect(shell.querySelector('.hl-splash-spinner')?.getAttribute('aria-hidden')).toBe('true');
    for (const lng of ['en', 'de']) {
      expect(shell.querySelector(`.hl-splash-label[lang=${lng}]`)?.textContent, lng).toBe(messages(lng).app.loading);
    }
  });

  it('has the shape of its React twin', () => {
    const { container } = render(<Splash />);
    expect(shape(container.firstElementChild as Element)).toBe(shape(staticShell().firstElementChild as Element));
    expect(container.querySelector('.hl-splash-name')?.textContent).toBe('Hitline');
    expect(container.querySelector('[role=status]')?.textContent).toContain(messages('en').app.loading);
  });

  it('is styled by theme-shell.css, one label per language shown', () => {
    for (const cls of ['hl-splash', 'hl-splash-status', 'hl-splash-name', 'hl-splash-spinner', 'hl-splash-label']) expect(shellCss).toContain(`.${cls}`);
    expect(shellCss).toMatch(/html:lang\(de\) \.hl-splash-label:not\(:lang\(de\)\)/);
  });

  it('gets its scheme and language from boot.js, in the head, before anything paints', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(/<script src="\/boot\.js"><\/script>/);
    expect(html.indexOf('<div id="root">')).toBeLessThan(html.indexOf('<script type="module"'));
  });
});
