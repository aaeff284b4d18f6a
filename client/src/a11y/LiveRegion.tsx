import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { announcer as defaultAnnouncer, type Announcer } from './announcer.ts';

/** Visually hidden but read by screen readers (the usual "sr-only" rules). */
const hidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/**
 * The two live regions of the app, polite and assertive. Each message is a new
 * paragraph (additions are announced even when the text repeats); the text is a
 * React text child, so markup in a message is shown as typed, never interpreted.
 * They live directly in the document's body, outside the app's root: an open
 * dialog hides everything else from screen readers (aria-hidden on the body's
 * other children), except the body's own live regions.
 */
export function LiveRegion({ announcer = defaultAnnouncer }: { announcer?: Announcer }) {
  const { polite, assertive } = useSyncExternalStore(announcer.subscribe, announcer.getSnapshot, announcer.getSnapshot);
  return createPortal(
    <>
      <div style={hidden} role="status" aria-live="polite" aria-atomic="false" aria-relevant="additions text" data-testid="live-polite">
        {polite.map((m) => (
          <p key={m.id}>{m.text}</p>
        ))}
      </div>
      <div style={hidden} role="alert" aria-live="assertive" aria-atomic="false" aria-relevant="additions text" data-testid="live-assertive">
        {assertive.map((m) => (
          <p key={m.id}>{m.text}</p>
        ))}
      </div>
    </>,
    document.body,
  );
}
