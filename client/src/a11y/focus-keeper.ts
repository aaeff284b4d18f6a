/**
 * Keeps the focus near where it was when the focused element goes away: a
 * button removed or disabled by a state change (a submitted guess, a claim
 * that spent the last tokens, a local game's "Add player" once it starts) or a
 * whole page swapped by a navigation. The browser drops the focus to the
 * page's body then, so a screen reader says nothing and the next Tab starts
 * from the top of the page.
 *
 * The focus goes to the heading of the nearest part of the page that is still
 * there (the guess panel's heading, say); when the whole page changed, to the
 * new page's main heading (or, until that has loaded, the main region, and
 * the heading once it appears). A closing dialog is left alone: it returns the
 * focus itself; in a dialog that stays open, the focus goes to the nearest
 * heading inside it, at worst its title. A focus the user moved away (a click
 * on the page's background) is not a loss: its element is still there and enabled.
 */

/** A new page's main heading takes the focus from the main region this long after the page changed, ms. */
const PAGE_HEADING_WAIT_MS = 3000;
const HEADINGS = 'h1, h2, h3';
// a closing dialog returns the focus itself; in an open one the focus stays inside (keepInDialog)
const DIALOGS = '[role="dialog"], [role="alertdialog"]';
// so do menus and listboxes, to their button, unless that went too (an item that navigated):
// their items are looked after only once the browser rendered the change
const MENUS = '[role="menu"], [role="listbox"]';

/** Set by the installed keeper: a navigation happened (see pageChanged). */
let onPageChange: (() => void) | null = null;

/**
 * Tells the keeper the route changed. When nothing has the focus then (a
 * shortcut pressed on the page's body made a game, say), the new page's main
 * heading takes it, as after a link.
 */
export function pageChanged(): void {
  onPageChange?.();
}

export function installFocusKeeper(doc: Document = document): () => void {
  if (typeof MutationObserver === 'undefined') return () => undefined;
  /** The element that last had the focus, then its ancestors, as they were then. */
  let path: Element[] = [];
  /** Until when a main heading appearing in the main region takes the focus from it. */
  let headingDue = 0;

  const onFocusIn = (e: FocusEvent): void => {
    if (!(e.target instanceof Element)) return;
    const chain: Element[] = [];
    for (let n: Element | null = e.target; n; n = n.parentElement) chain.push(n);
    path = chain;
  };

  const gone = (el: Element): boolean => !el.isConnected || (el as HTMLButtonElement).disabled === true;

  // The focus left to nowhere while its element is still there and usable (a click on
  // the page's background): the user moved it, so that element's later removal is no loss.
  const onFocusOut = (e: FocusEvent): void => {
    if (e.relatedTarget !== null || !(e.target instanceof Element)) return;
    const left = e.target;
    queueMicrotask(() => {
      if (path[0] === left && !gone(left) && (doc.activeElement === doc.body || doc.activeElement === null)) path = [];
    });
  };

  /** The main heading of the page, or the main region until the heading is there. */
  const focusPage = (main: HTMLElement): void => {
    const heading = main.querySelector('h1');
    if (heading) focusHeading(heading);
    else {
      main.focus();
      headingDue = Date.now() + PAGE_HEADING_WAIT_MS;
    }
  };

  const check = (late: boolean): void => {
    const active = doc.activeElement;
    const main = doc.getElementById('main');
    if (main && active === main && Date.now() < headingDue) {
      const heading = main.querySelector('h1');
      if (heading) {
        headingDue = 0;
        focusHeading(heading);
      }
      return;
    }
    const last = path[0];
    if (!last || !gone(last)) return;
    if (active && active !== doc.body && active !== last) return;
    const dialog = path.find((n) => n.matches(DIALOGS));
    if (dialog) {
      if (dialog.isConnected && dialog.getAttribute('data-state') !== 'closed') keepInDialog(dialog, last);
      return;
    }
    if (!late && path.some((n) => n.matches(MENUS))) return;
    let kept = path.find((n) => n.isConnected && n !== last);
    if (!kept || !main) return;
    // a menu's item: back to the menu's button, or near it when the button is disabled now
    const menu = path.find((n) => n.matches(MENUS));
    const button = menu?.id ? doc.querySelector(`[aria-controls="${CSS.escape(menu.id)}"]`) : null;
    if (button?.isConnected) {
      if (!gone(button)) {
        (button as HTMLElement).focus();
        return;
      }
      kept = button;
    }
    if (kept.contains(main) || kept === main) {
      // the page changed
      focusPage(main);
      return;
    }
    // outside the page's main region (a portal, a toast): the page's heading, not the first one of the document
    if (!main.contains(kept)) {
      focusPage(main);
      return;
    }
    for (let n: Element | null = kept; n && n !== main; n = n.parentElement) {
      const heading = n.querySelector(HEADINGS);
      if (heading) {
        focusHeading(heading);
        return;
      }
    }
    main.focus();
  };

  /** A control of an open dialog went away: the nearest heading inside the dialog (its title at worst). */
  const keepInDialog = (dialog: Element, last: Element): void => {
    const kept = path.find((n) => n.isConnected && n !== last && dialog.contains(n)) ?? dialog;
    for (let n: Element | null = kept; n && dialog.contains(n); n = n.parentElement) {
      const heading = n.querySelector(HEADINGS);
      if (heading) {
        focusHeading(heading);
        return;
      }
    }
    (dialog as HTMLElement).focus();
  };

  let frame = 0;
  const observer = new MutationObserver(() => {
    check(false);
    // a disabled button keeps the focus until the browser's next rendering step drops it
    if (typeof requestAnimationFrame !== 'undefined' && frame === 0) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        check(true);
      });
    }
  });
  onPageChange = () => {
    const active = doc.activeElement;
    const main = doc.getElementById('main');
    if (main && (!active || active === doc.body)) focusPage(main);
  };
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  doc.addEventListener('focusin', onFocusIn, true);
  doc.addEventListener('focusout', onFocusOut, true);
  return () => {
    onPageChange = null;
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn, true);
    doc.removeEventListener('focusout', onFocusOut, true);
    if (frame !== 0 && typeof cancelAnimationFrame !== 'undefined') cancelAnimationFrame(frame);
  };
}

/** Focuses a heading, which takes the focus only from a script (tabindex -1), not from Tab. */
function focusHeading(heading: Element): void {
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  (heading as HTMLElement).focus();
}
