import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from './page-title.ts';

export interface ErrorPageProps {
  /** HTTP-like status (404 for an unknown route). */
  status?: number;
  /** What went wrong (a status text or an error message). */
  message?: string;
}

/** docs/product.md#screens: "Oops!", "Sorry, an unexpected error has occurred." and the status text or message. */
export function ErrorPage({ status, message }: ErrorPageProps) {
  const { t } = useTranslation();
  usePageTitle(t('error_page.title'));
  const detail = message ?? (status === 404 ? t('error_page.not_found') : undefined);
  return (
    <Stack gap="4" py="10" align="flex-start">
      <Heading as="h1" size="2xl">
        {t('error_page.title')}
      </Heading>
      <Text>{t('error_page.text')}</Text>
      {(status !== undefined || detail) && (
        <Text as="p" fontStyle="italic" color="fg.muted">
          {[status, detail].filter((v) => v !== undefined && v !== '').join(' ')}
        </Text>
      )}
      <Button asChild variant="outline">
        <RouterLink to="/">{t('error_page.back')}</RouterLink>
      </Button>
    </Stack>
  );
}
