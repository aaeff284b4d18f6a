import { Alert, CloseButton, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useNotifications } from '../stores/notifications.ts';

/**
 * The header's notification area: toasts at the top right (docs/product.md#limits), closing
 * by themselves after 5 s. Not a live region: the code that shows a toast also
 * announces it, so screen readers hear it once.
 */
export function NotificationArea() {
  const { t } = useTranslation();
  const toasts = useNotifications((s) => s.toasts);
  const dismiss = useNotifications((s) => s.dismiss);
  if (toasts.length === 0) return null;
  // Never wider than the screen, and long words (a 300-letter title, a
  // 100-letter pack name) break inside the toast instead of running off it.
  return (
    <Stack
      as="section"
      aria-label={t('notifications.label')}
      position="fixed"
      top="60px"
      insetEnd={{ base: '2', md: '4' }}
      insetStart={{ base: '2', sm: 'auto' }}
      zIndex="toast"
      gap="2"
      w={{ base: 'auto', sm: '22rem' }}
      maxW="calc(100vw - 1rem)"
      overflowWrap="anywhere"
    >
      {toasts.map((toast) => (
        <Alert.Root key={toast.id} status={toast.kind} variant="surface" boxShadow="md" alignItems="center" role="note">
          <Alert.Indicator />
          <Alert.Content minW="0">
            <Alert.Title>{toast.title}</Alert.Title>
            {toast.description && <Alert.Description>{toast.description}</Alert.Description>}
          </Alert.Content>
          <CloseButton size="sm" aria-label={t('common.dismiss')} onClick={() => dismiss(toast.id)} />
        </Alert.Root>
      ))}
    </Stack>
  );
}
