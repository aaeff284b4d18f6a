import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n, loadNamespace } from '../../client/src/i18n.ts';

// Web Animations as browsers do them: a cancelled animation rejects its `finished` promise,
// which the spec marks as handled (no unhandled rejection); happy-dom does not, and every
// animation the motion library stops on unmount would fail the run as an unhandled error.
const animate = Element.prototype.animate as typeof Element.prototype.animate | undefined;
if (animate) {
  Element.prototype.animate = function (this: Element, ...args: Parameters<Element['animate']>) {
    const animation = animate.apply(this, args);
    animation.finished?.catch(() => undefined);
    return animation;
  };
}

// Client tests run in English (the fallback) unless a test switches.
beforeAll(async () => {
  await initI18n('en');
  // the game screen's table (loaded with the screen in the app)
  await loadNamespace('table');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
