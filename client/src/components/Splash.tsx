import { useTranslation } from 'react-i18next';

/**
 * docs/product.md#screens: the spinner with its loading label while the user is not known yet,
 * under the product's name. The React twin of the static shell in index.html
 * (same markup and classes, styled by theme-shell.css), which stays on screen
 * until the app first renders; this one shows whenever the app renders before
 * the session is known.
 */
export function Splash() {
  const { t } = useTranslation();
  return (
    <main className="hl-splash">
      <div role="status" className="hl-splash-status">
        <p className="hl-splash-name" aria-hidden="true">
          {t('app.name')}
        </p>
        <span className="hl-splash-spinner" aria-hidden="true" />
        <p>{t('app.loading')}</p>
      </div>
    </main>
  );
}
