import { Button, Spinner } from '@chakra-ui/react';
import { useState } from 'react';
import { notify } from '../../a11y/notify.ts';
import { DownloadIcon } from '../../components/icons.tsx';
import { showError } from '../../errors.ts';
import { exportHits } from '../../net/hits.ts';
import { useHitsT } from './use-hits.ts';

/** The file name of an export (docs/product.md#screens). */
export const EXPORT_FILE_NAME = 'hits.yml';

/** Hands `text` to the browser as a download named `name` (an object URL on a temporary link). */
export function downloadText(text: string, name: string, type = 'application/x-yaml'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // revoked on the next task: the click has started the download by then
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Export (docs/product.md#screens, write_hits): downloads hits.yml with the hits of the
 * current search text and pack filter. Fetched through the API client (not a
 * plain link) so a failure shows in the error dialog instead of a JSON page.
 */
export function ExportButton({ query, packs }: { query: string; packs: readonly string[] }) {
  const t = useHitsT();
  const [busy, setBusy] = useState(false);
  const run = async (): Promise<void> => {
    if (busy) return;
    setBusy(true);
    try {
      downloadText(await exportHits(query, packs), EXPORT_FILE_NAME);
      notify.notification(t('export.done'), { toast: 'success' });
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    // busy, not disabled: a disabled button would drop the keyboard focus while the file is fetched
    <Button variant="outline" aria-disabled={busy || undefined} aria-busy={busy || undefined} onClick={() => void run()}>
      {busy ? <Spinner size="sm" /> : <DownloadIcon />}
      {t('export.button')}
    </Button>
  );
}
