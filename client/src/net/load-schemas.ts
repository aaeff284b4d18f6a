/** The schema module (net/schemas.ts) as a type, and its one shared lazy load. */
export type Schemas = typeof import('./schemas.ts');

let loading: Promise<Schemas> | null = null;

/** Loads the schemas once; every caller shares the promise. */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import('./schemas.ts');
  return loading;
}
