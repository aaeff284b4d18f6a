import { CloseButton, Dialog, Portal, useBreakpointValue, useMediaQuery } from '@chakra-ui/react';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { dialogSlotRecipe } from '@chakra-ui/react/theme';
import { notify } from '../a11y/notify.ts';
import { registerRecipes } from '../theme.ts';

registerRecipes({ slotRecipes: { dialog: dialogSlotRecipe } });

/** The attribute of a part of a dialog that handles Escape itself: Escape there does not close the dialog. */
export const OWN_ESCAPE = 'data-own-escape';

export interface AppDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** `alertdialog` for confirmations: screen readers read it as an interruption. */
  role?: 'dialog' | 'alertdialog';
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'cover' | 'full';
  /** Where focus goes on open (default: an alertdialog's first footer button, its safe answer; else the first focusable element). */
  initialFocusEl?: () => HTMLElement | null;
  finalFocusEl?: RefObject<HTMLElement | null>;
  /** Keep the page behind from scrolling while open (default true). */
  lockScroll?: boolean;
  /**
   * false: on a touch screen the dialog opens focused on itself, not on its first text field,
   * so the on-screen keyboard does not cover it before the user chose a field (default true).
   */
  keyboardOnOpen?: boolean;
}

/**
 * The shell's dialog frame: a titled modal with a labelled close button, focus
 * trapped inside and returned on close, Escape to close, and a body that
 * scrolls inside the viewport on small phones.
 */
export function AppDialog({ open, onClose, title, children, footer, role = 'dialog', size = 'md', initialFocusEl, finalFocusEl, lockScroll = true, keyboardOnOpen = true }: AppDialogProps) {
  const { t } = useTranslation();
  // Content dialogs fill a phone's screen; small confirmations stay small. Not a
  // responsive `size` prop: the `full` variant's styles (min-height 100dvh) would
  // leak into the larger sizes' media queries.
  const small = size === 'xs' || size === 'sm';
  // a phone held sideways is wide but short: a centred box would leave its body a sliver
  const [short] = useMediaQuery(['(max-height: 480px)']);
  const byWidth = useBreakpointValue({ base: small ? size : ('full' as const), sm: size }) ?? size;
  const responsiveSize = short && !small ? 'full' : byWidth;
  // the "popup" cue for a dialog the user opened (one that opens by itself before any tap, like the welcome,
  // stays silent); no text: screen readers announce the dialog by its role and title when focus moves in
  useEffect(() => {
    if (open && navigator.userActivation?.hasBeenActive !== false) notify.popup('');
  }, [open]);
  // Focus goes back where it was when the dialog opened. When that is gone: an item of the
  // menu that opened the dialog gives it to the menu's button; an element of another dialog
  // (a deleted pack's delete button) gives it to that dialog, which so stays open; else (a
  // dialog that opened by itself on a fresh page, like the welcome) the page's main region
  // takes it, so a keyboard user goes on from the page, not from its top.
  const opener = useRef<Opener>(NO_OPENER);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current) opener.current = currentOpener();
  wasOpen.current = open;
  const returnFocus = (): HTMLElement | null => {
    const chosen = finalFocusEl?.current;
    if (chosen?.isConnected) return chosen;
    const { element, menuButton, dialog } = opener.current;
    for (const candidate of [element, menuButton, dialog]) if (candidate?.isConnected) return candidate;
    return document.getElementById('main');
  };
  const body = useScrollable();
  // a confirmation or an error opens on its footer's first button: every confirmation puts the
  // safe answer first (No, Cancel; an error's Close), not the corner's close button or a destructive Yes
  const footerRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const touch = !keyboardOnOpen && typeof matchMedia !== 'undefined' && matchMedia('(pointer: coarse)').matches;
  const initial = touch
    ? () => contentRef.current
    : (initialFocusEl ?? (role === 'alertdialog' && footer ? () => footerRef.current?.querySelector('button') ?? null : undefined));
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (!e.open) onClose();
      }}
      role={role}
      size={responsiveSize}
      scrollBehavior="inside"
      preventScroll={lockScroll}
      lazyMount
      unmountOnExit
      {...(initial ? { initialFocusEl: initial } : {})}
      finalFocusEl={returnFocus}
      // a control that uses Escape itself (an inline rename cancels) keeps it from the dialog
      onEscapeKeyDown={(e) => {
        if (e.target instanceof Element && e.target.closest(`[${OWN_ESCAPE}]`)) e.preventDefault();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px={small ? '3' : undefined}>
          <Dialog.Content ref={contentRef}>
            <Dialog.Header pe="14">
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {/* focusable while it scrolls, so it can be scrolled with the keyboard even when nothing in it takes focus */}
            <Dialog.Body ref={body.ref} tabIndex={body.scrolls ? 0 : undefined}>
              {children}
            </Dialog.Body>
            {footer && <Dialog.Footer ref={footerRef}>{footer}</Dialog.Footer>}
            <Dialog.CloseTrigger asChild>
              <CloseButton aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * Whether an element scrolls along `axis` (its content is taller, or wider, than
 * the space it has), checked after every render and whenever it or its content
 * changes size (content that arrives later, such as a loaded list): only then
 * should it be a stop of its own for the Tab key, so it can be scrolled with
 * the keyboard (a dialog's body; a wide table on a phone).
 */
export function useScrollable(axis: 'x' | 'y' = 'y'): { ref: (el: HTMLDivElement | null) => void; scrolls: boolean } {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [scrolls, setScrolls] = useState(false);
  const overflows = (e: HTMLDivElement): boolean => (axis === 'y' ? e.scrollHeight > e.clientHeight + 1 : e.scrollWidth > e.clientWidth + 1);
  useLayoutEffect(() => {
    if (el) setScrolls(overflows(el));
  });
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const check = () => setScrolls(overflows(el));
    const sizes = new ResizeObserver(check);
    const watch = () => {
      sizes.disconnect();
      sizes.observe(el);
      for (const child of el.children) sizes.observe(child);
      check();
    };
    const children = new MutationObserver(watch);
    children.observe(el, { childList: true });
    watch();
    return () => {
      sizes.disconnect();
      children.disconnect();
    };
  }, [el]);
  return { ref: setEl, scrolls };
}

/** Where a dialog was opened from: the focused element, and what can stand in for it once it is gone. */
interface Opener {
  /** Null when nothing (the page's body) had the focus. */
  element: HTMLElement | null;
  /** The button of the menu the element was an item of. */
  menuButton: HTMLElement | null;
  /** The dialog the element was in. */
  dialog: HTMLElement | null;
}

const NO_OPENER: Opener = { element: null, menuButton: null, dialog: null };

function openerOf(active: EventTarget | null): Opener {
  if (!(active instanceof HTMLElement) || active === document.body) return NO_OPENER;
  const menu = active.closest<HTMLElement>('[role="menu"]');
  const menuButton = menu?.id ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`) : null;
  return { element: active, menuButton, dialog: active.closest<HTMLElement>('[role="dialog"], [role="alertdialog"]') };
}

/**
 * The element that had the focus last, as an opener. A menu item chosen with the keyboard
 * leaves nothing focused when its menu closes; a dialog whose code loads only then opens a
 * moment later and finds the page's body focused, not the item.
 */
let lastFocused: Opener = NO_OPENER;
if (typeof document !== 'undefined') document.addEventListener('focusin', (e) => (lastFocused = openerOf(e.target)), true);

/** The opener of a dialog opening now: the focused element, or the one focused last. */
function currentOpener(): Opener {
  const active = document.activeElement;
  return active && active !== document.body ? openerOf(active) : lastFocused;
}
