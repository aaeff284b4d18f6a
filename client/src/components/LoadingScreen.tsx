import { Center, Spinner, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** docs/product.md#screens: a spinner with a label until the user is known (and while a lazy screen loads). */
export function LoadingScreen({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center minH="50vh" role="status">
      <Stack align="center" gap="3">
        <Spinner size="xl" color="accent.fg" aria-hidden="true" />
        <Text>{label ?? t('common.loading')}</Text>
      </Stack>
    </Center>
  );
}
