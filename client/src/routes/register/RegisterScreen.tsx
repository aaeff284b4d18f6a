import { Button, chakra, Field, Input, Link, Stack, Text } from '@chakra-ui/react';
import { FieldInput } from '../../components/FieldInput.tsx';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { notify } from '../../a11y/notify.ts';
import { Page } from '../../components/Page.tsx';
import { errorText } from '../../i18n.ts';
import { CAPTCHA_FRESH_MS, solveCaptcha } from '../../net/captcha.ts';
import { register } from '../../net/users.ts';
import { useSession } from '../../stores/session.ts';
import { fieldSlotRecipe, inputRecipe } from '@chakra-ui/react/theme';
import { registerRecipes, FIELD_STYLES, withTouchSizes } from '../../theme.ts';

registerRecipes({ recipes: { input: withTouchSizes(inputRecipe, FIELD_STYLES) }, slotRecipes: { field: fieldSlotRecipe } });

/** Account rules of the server (docs/api.md#b3), checked here first so the form can say what is wrong. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export interface RegisterFields {
  username: string;
  password: string;
  repeat: string;
}

/** What keeps the form from being sent; empty when it may be. */
export function registerProblems(f: RegisterFields): ('empty' | 'username_length' | 'password_length' | 'mismatch')[] {
  const problems: ('empty' | 'username_length' | 'password_length' | 'mismatch')[] = [];
  const name = f.username.trim();
  if (name === '' || f.password === '' || f.repeat === '') problems.push('empty');
  if (name !== '' && (name.length < USERNAME_MIN || name.length > USERNAME_MAX)) problems.push('username_length');
  if (f.password !== '' && (f.password.length < PASSWORD_MIN || f.password.length > PASSWORD_MAX)) problems.push('password_length');
  if (f.repeat !== '' && f.repeat !== f.password) problems.push('mismatch');
  return problems;
}

/**
 * The registration captcha's solution, solved in the background while `active`
 * (from the moment the screen opens, so that it is usually ready by the time
 * the form is filled in). `take()` hands over a solution, waiting for it if
 * need be, and forgets it: each is accepted once. `renew()` starts the next
 * one, after an attempt that failed.
 */
function useCaptcha(active: boolean): { take: () => Promise<string | null>; renew: () => void } {
  const current = useRef<{ token: Promise<string | null>; at: number; abort: AbortController } | null>(null);
  const renew = useCallback(() => {
    current.current?.abort.abort();
    const abort = new AbortController();
    current.current = { token: solveCaptcha(abort.signal), at: Date.now(), abort };
  }, []);
  useEffect(() => {
    if (active) renew();
    return () => {
      current.current?.abort.abort();
      current.current = null;
    };
  }, [active, renew]);
  const take = useCallback(async () => {
    if (!current.current || Date.now() - current.current.at > CAPTCHA_FRESH_MS) renew();
    const { token } = current.current!;
    current.current = null;
    return token;
  }, [renew]);
  return { take, renew };
}

/**
 * docs/product.md#screens, #validation: username (pre-filled with the guest's name), password and its
 * repetition; submit disabled while a field is empty, a length is off or the
 * passwords differ. Registering turns the guest into the account in place,
 * with the captcha's solution when the server serves one, and goes on to the
 * lobby as logging in does, with a welcome.
 */
export function RegisterScreen() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const [fields, setFields] = useState<RegisterFields>({ username: user?.virtual ? user.name : '', password: '', repeat: '' });
  const [busy, setBusy] = useState(false);
  /** The server's refusal, if any (a success leaves the screen). */
  const [message, setMessage] = useState<string | null>(null);
  const navigate = useNavigate();
  const problems = registerProblems(fields);
  const registered = !!user && !user.virtual;
  const captcha = useCaptcha(!registered);

  // the session may become known after the first render (a direct visit to /register)
  useEffect(() => {
    if (user?.virtual) setFields((f) => (f.username === '' ? { ...f, username: user.name } : f));
  }, [user?.virtual, user?.name]);

  // editing a field makes an earlier server error stale ("username taken" for a name no longer typed): it goes
  const set = (key: keyof RegisterFields) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [key]: e.target.value }));
    setMessage(null);
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (problems.length > 0 || busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const token = await captcha.take();
      await register({ username: fields.username.trim(), password: fields.password, ...(token ? { altcha_token: token } : {}) });
      useSession.getState().syncFromCookie();
      // on to the lobby, as after logging in; the welcome is said there (and shown as a toast)
      notify.notification(t('register.success', { name: fields.username.trim() }), { toast: 'success' });
      void navigate('/');
    } catch (err) {
      // the solution sent may be spent: the next attempt gets a new one
      captcha.renew();
      setMessage(t('auth.error', { message: errorText(err) }));
      setBusy(false);
    }
  };

  return (
    <Page title={t('register.title')}>
      <chakra.form onSubmit={(e: FormEvent) => void submit(e)} maxW="md" noValidate>
        <Stack gap="4">
          {registered && !busy && <Text>{t('register.already', { name: user.name })}</Text>}
          <Field.Root required invalid={problems.includes('username_length')}>
            <Field.Label>
              {t('auth.username')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input name="username" autoComplete="username" value={fields.username} onChange={set('username')} maxLength={USERNAME_MAX + 10} />
            <Field.HelperText>{t('register.username_hint', { min: USERNAME_MIN, max: USERNAME_MAX })}</Field.HelperText>
          </Field.Root>
          <Field.Root required invalid={problems.includes('password_length')}>
            <Field.Label>
              {t('auth.password')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input name="password" type="password" autoComplete="new-password" value={fields.password} onChange={set('password')} />
            <Field.HelperText>{t('register.password_hint', { min: PASSWORD_MIN, max: PASSWORD_MAX })}</Field.HelperText>
          </Field.Root>
          <Field.Root required invalid={problems.includes('mismatch')}>
            <Field.Label>
              {t('register.repeat')}
              <Field.RequiredIndicator />
            </Field.Label>
            <FieldInput name="repeat" type="password" autoComplete="new-password" value={fields.repeat} onChange={set('repeat')} />
            <Field.ErrorText>{t('register.mismatch')}</Field.ErrorText>
          </Field.Root>
          <Text role="status" aria-live="polite" color="red.fg" minH="1.5em">
            {message}
          </Text>
          <Button type="submit" colorPalette="accent" disabled={problems.length > 0} loading={busy} alignSelf="flex-start">
            {t('register.submit')}
          </Button>
          <Text>
            {t('register.have_account')}{' '}
            <Link asChild color="accent.fg">
              <RouterLink to="/login">{t('register.login_link')}</RouterLink>
            </Link>
          </Text>
        </Stack>
      </chakra.form>
    </Page>
  );
}
