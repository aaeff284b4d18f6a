import { CloseButton, Dialog, Portal, useBreakpointValue } from '@chakra-ui/react';
import { useEffect, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { dialogSlotRecipe } from '@chakra-ui/react/theme';
import { notify } from '../a11y/notify.ts';
import { registerRecipes } from '../theme.ts';

registerRecipes({ slotRecipes: { dialog: dialogSlotRecipe } });

export interface AppDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** `alertdialog` for confirmations: screen readers read it as an interruption. */
  role?: 'dialog' | 'alertdialog';
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'cover' | 'full';
  /** Where focus goes on open (default: the first focusable element). */
  initialFocusEl?: () => HTMLElement | null;
  finalFocusEl?: RefObject<HTMLElement | null>;
  /** Keep the page behind from scrolling while open (default true). */
  lockScroll?: boolean;
}

/**
 * The shell's dialog frame: a titled modal with a labelled close button, focus
 * trapped inside and returned on close, Escape to close, and a body that
 * scrolls inside the viewport on small phones.
 */
export function AppDialog({ open, onClose, title, children, footer, role = 'dialog', size = 'md', initialFocusEl, finalFocusEl, lockScroll = true }: AppDialogProps) {
  const { t } = useTranslation();
  // Content dialogs fill a phone's screen; small confirmations stay small. Not a
  // responsive `size` prop: the `full` variant's styles (min-height 100dvh) would
  // leak into the larger sizes' media queries.
  const small = size === 'xs' || size === 'sm';
  const responsiveSize = useBreakpointValue({ base: small ? size : ('full' as const), sm: size }) ?? size;
  // the "popup" cue for a dialog the user opened (one that opens by itself before any tap, like the welcome,
  // stays silent); no text: screen readers announce the dialog by its role and title when focus moves in
  useEffect(() => {
    if (open && navigator.userActivation?.hasBeenActive !== false) notify.popup('');
  }, [open]);
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
      {...(initialFocusEl ? { initialFocusEl } : {})}
      {...(finalFocusEl ? { finalFocusEl: () => finalFocusEl.current } : {})}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px={small ? '3' : undefined}>
          <Dialog.Content>
            <Dialog.Header pe="14">
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {/* focusable, so a body that scrolls can be scrolled with the keyboard even when nothing in it takes focus */}
            <Dialog.Body tabIndex={0}>{children}</Dialog.Body>
            {footer && <Dialog.Footer>{footer}</Dialog.Footer>}
            <Dialog.CloseTrigger asChild>
              <CloseButton aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
