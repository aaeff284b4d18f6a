import type { PackPayload } from '../../../../shared/protocol/catalogue.ts';

/**
 * docs/product.md#screens "Packs are sorted by name in natural order": "Pack 2" before
 * "Pack 10", case and accents ignored, ties broken by id so the order is stable.
 */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function sortPacks<P extends Pick<PackPayload, 'id' | 'name'>>(packs: readonly P[]): P[] {
  return [...packs].sort((a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The packs of `ids` that exist, sorted; unknown ids (a pack deleted meanwhile) are left out. */
export function packsOf(ids: readonly string[], packs: readonly PackPayload[]): PackPayload[] {
  const wanted = new Set(ids);
  return sortPacks(packs.filter((p) => wanted.has(p.id)));
}

/** The address that browses one pack (docs/product.md#screens: `/hits/?pack={id}`). */
export const packHref = (id: string): string => `/hits/?pack=${encodeURIComponent(id)}`;
