/** A pending timer of a game. */
export interface Timer {
  clear(): void;
}

/** Node's setTimeout as a Timer. */
export const later = (fn: () => void, ms: number): Timer => {
  const t = setTimeout(fn, ms);
  return { clear: () => clearTimeout(t) };
};
