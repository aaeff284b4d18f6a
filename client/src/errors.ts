import { errorText } from './i18n.ts';
import { useNotifications } from './stores/notifications.ts';

/**
 * Shows a failure in the error dialog (docs/product.md#errors), in the reader's language: the
 * one way screens report the errors the spec lists there (start, settings save,
 * catalogue writes…).
 */
export function showError(err: unknown): void {
  useNotifications.getState().showError(errorText(err));
}
