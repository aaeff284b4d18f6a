import { MotionConfig, useReducedMotion } from 'motion/react';
import { createContext, useContext, type ReactNode } from 'react';

/**
 * Motion on the table, calm and short. The
 * `motion` library is imported only from the game screen's lazy chunk, never
 * from the first page (budget P9).
 *
 * Wrap the table in {@link TableMotion}: inside it, every motion component
 * follows the operating system's "reduce motion" setting (transforms and
 * layout animations are skipped, opacity still fades). A component whose
 * movement should become a fade (HitCard's flip) asks {@link useCalmMotion},
 * which follows the OS setting also outside a TableMotion.
 */

export type ReducedMotion = 'user' | 'always' | 'never';

const Calm = createContext<ReducedMotion>('user');

/** Motion for everything inside: `user` (the default) follows the OS setting; `always`/`never` force it (tests, a setting). */
export function TableMotion({ children, reducedMotion = 'user' }: { children: ReactNode; reducedMotion?: ReducedMotion }) {
  return (
    <Calm.Provider value={reducedMotion}>
      <MotionConfig reducedMotion={reducedMotion}>{children}</MotionConfig>
    </Calm.Provider>
  );
}

/** True when movement should be replaced by a fade: the OS asks for reduced motion, or a surrounding TableMotion says `always`. */
export function useCalmMotion(): boolean {
  const device = useReducedMotion() ?? false;
  const forced = useContext(Calm);
  return forced === 'user' ? device : forced === 'always';
}
