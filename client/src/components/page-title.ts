import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { announce } from '../a11y/announcer.ts';

/** docs/product.md#screens: every page title ends with the product name. */
export function pageTitle(title: string | undefined, product: string): string {
  return title ? `${title} – ${product}` : product;
}

let firstPage = true;

/**
 * Sets the document title and, after client-side navigation, announces it:
 * screen readers say nothing when a single-page app swaps its content (unless
 * the focus moved to the new page's heading, which they read). `announce:
 * 'once'`: a page whose title follows its content (the game's turn) is
 * announced when it is entered, not on every later change of the title.
 */
export function usePageTitle(title?: string, options: { announce?: 'always' | 'once' } = {}): void {
  const { t } = useTranslation();
  const product = t('app.name');
  const announced = useRef(false);
  const once = options.announce === 'once';
  useEffect(() => {
    document.title = pageTitle(title, product);
    if (firstPage) {
      firstPage = false;
      announced.current = true;
      return;
    }
    if (once && announced.current) return;
    announced.current = true;
    // a page whose heading has the focus is read by it (focus-keeper.ts): no second reading
    const active = document.activeElement;
    const headingFocused = active?.tagName === 'H1' && !!active.closest('#main');
    if (title && !headingFocused) announce(title);
  }, [title, product, once]);
}
