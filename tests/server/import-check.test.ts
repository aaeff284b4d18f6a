// The field rules of an imported hits.yml (server/services/catalogue-yaml/validate.ts)
// are the API's (shared/protocol/catalogue.ts): a text the API refuses is refused
// in a file too, with a reason that names the field. The whole file's checks are
// in hits-yaml.test.ts.
import { describe, expect, it } from 'vitest';
import { formatHitsYaml, type ExportHit } from '../../server/services/catalogue-yaml/export.ts';
import { parseHitsYaml } from '../../server/services/catalogue-yaml/validate.ts';
import { HitBodySchema, PackBodySchema } from '../../shared/protocol/catalogue.ts';

const PACK = 'aaaaaaaa-0000-4000-8000-000000000001';
const hit = (n: number, over: Partial<ExportHit> = {}): ExportHit => ({
  id: `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`,
  artist: `Artist ${n}`,
  title: `Title ${n}`,
  belongs_to: '',
  year: 1990,
  packs: [PACK],
  playback_offset: 0,
  yt_id: null,
  last_modified: '2025-07-24T09:31:10.506Z',
  ...over,
});

/** Texts on both sides of every rule: length, trimming, control, direction and hidden characters, emoji. */
const TEXTS = ['', '   ', 'ok', '  padded  ', 'x'.repeat(300), ` ${'x'.repeat(300)} `, 'x'.repeat(301), 'bell\u0007', 'Song \u202Egnos', 'Ba\u200Bnd', 'Film\uFE0F', '\u3164', 'Ana \u{1F469}\u200D\u{1F3A4}', 'ok\u200C'];

/** The reason of each title, pack name…: undefined when the row was taken. */
async function reasonsFor(field: 'artist' | 'title' | 'belongs_to', cleanText = true) {
  const text = formatHitsYaml(
    TEXTS.map((t, i) => hit(i + 1, { [field]: t })),
    [{ id: PACK, name: 'Pack', last_modified: '2025-07-24T09:31:10.506Z' }],
  );
  const parsed = await parseHitsYaml(text, { cleanText });
  expect(parsed.errors).toEqual([]);
  // the export sorts by artist and title: rows are found by id
  const byId = new Map(parsed.rejectedHits.map((r) => [r.id, r.reasons]));
  return TEXTS.map((_, i) => byId.get(hit(i + 1).id));
}

describe('field rules of an imported file', () => {
  it.each(['artist', 'title', 'belongs_to'] as const)('take exactly the %s values the API takes', async (field) => {
    const reasons = await reasonsFor(field);
    const api = field === 'belongs_to' ? HitBodySchema.shape.belongs_to.unwrap() : HitBodySchema.shape[field];
    expect(reasons.map((r) => r === undefined)).toEqual(TEXTS.map((t) => api.safeParse(t).success));
    for (const r of reasons) if (r) expect(r).toEqual([expect.stringMatching(new RegExp(`^${field} must `))]);
  });

  it('name the length of a text that is too long, after trimming', async () => {
    const reasons = await reasonsFor('title');
    expect(reasons[TEXTS.indexOf('x'.repeat(301))]).toEqual(['title must be at most 300 characters long (it has 301)']);
    expect(reasons[TEXTS.indexOf(` ${'x'.repeat(300)} `)]).toBeUndefined();
    expect(reasons[TEXTS.indexOf('')]).toEqual(['title must not be empty']);
    expect(reasons[TEXTS.indexOf('   ')]).toEqual(['title must not be empty']);
  });

  it('take pack names as the API does', async () => {
    const names = ['', 'Seventies', 'x'.repeat(100), 'x'.repeat(101), '\u2066Pack\u2069', 'tab\there'];
    const text = formatHitsYaml(
      [],
      names.map((name, i) => ({ id: `aaaaaaaa-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, name, last_modified: '2025-07-24T09:31:10.506Z' })),
    );
    const parsed = await parseHitsYaml(text);
    const byName = new Map(parsed.rejectedPacks.map((r) => [r.id, r.reasons]));
    const reasons = names.map((_, i) => byName.get(`aaaaaaaa-0000-4000-8000-${String(i + 1).padStart(12, '0')}`));
    expect(reasons.map((r) => r === undefined)).toEqual(names.map((n) => PackBodySchema.safeParse({ name: n }).success));
    expect(reasons[3]).toEqual(['name must be at most 100 characters long (it has 101)']);
  });

  it('at start-up keep the bounds and refuse control characters, but take text the rules of shown text refuse', async () => {
    const reasons = await reasonsFor('title', false);
    const refused = TEXTS.filter((_, i) => reasons[i] !== undefined);
    expect(refused).toEqual(['', '   ', 'x'.repeat(301), 'bell\u0007']);
    expect(reasons[TEXTS.indexOf('bell\u0007')]).toEqual(['title must not contain control characters']);
  });
});
