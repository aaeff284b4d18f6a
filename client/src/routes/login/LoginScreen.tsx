import { Button, chakra, Field, Input, Link, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Page } from '../../components/Page.tsx';
import { errorText } from '../../i18n.ts';
import { ApiError } from '../../net/api.ts';
import { login } from '../../net/users.ts';
import { useSession } from '../../stores/session.ts';
import { fieldSlotRecipe, inputRecipe } from '@chakra-ui/react/theme';
import { registerRecipes, FIELD_STYLES, withTouchSizes } from '../../theme.ts';

registerRecipes({ recipes: { input: withTouchSizes(inputRecipe, FIELD_STYLES) }, slotRecipes: { field: fieldSlotRecipe } });

/** docs/product.md#screens, #validation: username and password; submit disabled while either is empty; success goes to the lobby. */
export function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const incomplete = username.trim() === '' || password === '';
  /** Editing a field makes an earlier server error stale: it goes. */
  const edit = (setValue: (value: string) => void) => (e: { target: { value: string } }) => {
    setValue(e.target.value);
    setMessage('');
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (incomplete || busy) return;
    setBusy(true);
    setMessage('');
    try {
      await login({ username: username.trim(), password });
      await useSession.getState().refresh();
      void navigate('/');
    } catch (err) {
      // too many attempts: the server says how long to wait
      const wait = err instanceof ApiError && err.status === 429 ? err.retryAfter : undefined;
      setMessage(wait !== undefined ? t('login.retry_in', { count: Math.max(1, wait) }) : t('auth.error', { message: errorText(err) }));
      setBusy(false);
    }
  };

  return (
    <Page title={t('login.title')}>
      <chakra.form onSubmit={(e: FormEvent) => void submit(e)} maxW="md" noValidate>
        <Stack gap="4">
          <Field.Root required>
            <Field.Label>
              {t('auth.username')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input name="username" autoComplete="username" value={username} onChange={edit(setUsername)} />
          </Field.Root>
          <Field.Root required>
            <Field.Label>
              {t('auth.password')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input name="password" type="password" autoComplete="current-password" value={password} onChange={edit(setPassword)} />
          </Field.Root>
          <Text role="status" aria-live="polite" color="red.fg" minH="1.5em">
            {message}
          </Text>
          <Button type="submit" colorPalette="accent" disabled={incomplete} loading={busy} alignSelf="flex-start">
            {t('login.submit')}
          </Button>
          <Text>
            {t('login.no_account')}{' '}
            <Link asChild color="accent.fg">
              <RouterLink to="/register">{t('login.register_link')}</RouterLink>
            </Link>
          </Text>
        </Stack>
      </chakra.form>
    </Page>
  );
}
