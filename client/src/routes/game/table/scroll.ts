/**
 * Brings the table into view when this device has to act, without ever
 * pushing the mystery card off screen: when the card, or anything else the
 * player needs now (the turn player's row, a list of choices), is not fully
 * visible between the sticky header and the bottom action bar, the page
 * scrolls so that the card's top sits just under the header (its
 * scroll-margin-top clears it): as far as it can while keeping the card, and
 * never further. Only the view moves; the focus stays where it was.
 */
export function keepTableInView(card: HTMLElement | null, needed: readonly (HTMLElement | null)[], bottomInset: number): boolean {
  if (!card?.scrollIntoView) return false;
  const top = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
  const bottom = window.innerHeight - bottomInset;
  const inView = (el: HTMLElement | null): boolean => {
    if (!el) return true;
    const r = el.getBoundingClientRect();
    return r.top >= top - 1 && r.bottom <= bottom + 1;
  };
  if (inView(card) && needed.every(inView)) return false;
  // the card is already as high as it goes: scrolling further would hide it
  const c = card.getBoundingClientRect();
  if (c.top >= top - 1 && c.top <= top + 24 && inView(card)) return false;
  const reduce = typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  card.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
  return true;
}
