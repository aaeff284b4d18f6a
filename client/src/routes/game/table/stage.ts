import { createContext, useContext } from 'react';

/**
 * Whether the table is shown on the TV view (docs/product.md#screens "TV"): its big moments
 * (the reveal) take the size of a screen seen from 3 m. The TV view provides it.
 */
export const TvStage = createContext(false);

export const useTvStage = (): boolean => useContext(TvStage);
