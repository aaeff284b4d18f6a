import { describe, expect, it } from 'vitest';
import { HitBodySchema } from '../../shared/protocol/catalogue.ts';
import { latestHitYear } from '../../shared/rules/constants.ts';
import { afterCreate, EMPTY_VALUES, hitBody, validateHit, valuesOf, type HitFormValues } from '../../client/src/routes/hits/hit-form.ts';
import { KEYBOARD_STEP_PX, keyboardStep, reorder } from '../../client/src/routes/hits/SortPriority.tsx';
import { sortPacks } from '../../client/src/routes/hits/packs.ts';

const PACK = '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01';
const valid: HitFormValues = { title: ' Africa ', artist: 'Toto', year: '1982', belongs_to: '', packs: [PACK], videoUrl: 'https://youtu.be/FTQbiNvZqaY', offset: '12' };

describe('the hit form (docs/product.md#screens, #validation)', () => {
  it('turns valid values into a body the server accepts', () => {
    const body = hitBody(valid);
    expect(body).toEqual({ title: 'Africa', artist: 'Toto', year: 1982, belongs_to: '', packs: [PACK], yt_id: 'FTQbiNvZqaY', playback_offset: 12 });
    expect(HitBodySchema.safeParse(body).success).toBe(true);
  });

  it('allows an empty video URL (audio from an upload) and an empty offset (0)', () => {
    expect(hitBody({ ...valid, videoUrl: '', offset: '' })).toMatchObject({ yt_id: null, playback_offset: 0 });
  });

  it('names each invalid field', () => {
    expect(validateHit(EMPTY_VALUES)).toEqual({ title: 'required', artist: 'required', year: 'required' });
    expect(validateHit({ ...valid, videoUrl: 'https://youtu.be/short' })).toEqual({ videoUrl: 'video_url' });
    expect(validateHit({ ...valid, year: '0' })).toEqual({ year: 'year' });
    expect(validateHit({ ...valid, year: '10000' })).toEqual({ year: 'year' });
    // a year to come is a typo (2099 for 1999); this year's hits are welcome
    expect(validateHit({ ...valid, year: String(latestHitYear() + 1) })).toEqual({ year: 'year' });
    expect(validateHit({ ...valid, year: '2099' })).toEqual({ year: 'year' });
    expect(validateHit({ ...valid, year: String(latestHitYear()) })).toEqual({});
    expect(validateHit({ ...valid, year: '19.5' })).toEqual({ year: 'year' });
    expect(validateHit({ ...valid, offset: '-1' })).toEqual({ offset: 'offset' });
    expect(validateHit({ ...valid, offset: '1.5' })).toEqual({ offset: 'offset' });
    expect(validateHit({ ...valid, offset: '70000' })).toEqual({ offset: 'offset' });
    expect(validateHit({ ...valid, title: 'x'.repeat(301) })).toEqual({ title: 'too_long' });
    // the server's rule for shown text: no direction overrides, nothing invisible; emoji keep their joiners
    expect(validateHit({ ...valid, title: 'Africa \u202Eacirfa', artist: 'To\u200Bto', belongs_to: 'Film\uFE0F' })).toEqual({ title: 'hidden', artist: 'hidden', belongs_to: 'hidden' });
    expect(validateHit({ ...valid, title: 'Africa \u{1F469}\u200D\u{1F3A4}' })).toEqual({});
    expect(hitBody({ ...valid, videoUrl: 'nope' })).toBeNull();
  });

  it('keeps only the packs after a create', () => {
    expect(afterCreate(valid)).toEqual({ ...EMPTY_VALUES, packs: [PACK] });
  });

  it('shows a stored hit with a watch URL', () => {
    const values = valuesOf({ id: '00000000-0000-4000-8000-000000000001', title: 'Africa', artist: 'Toto', year: 1982, belongs_to: '', packs: [PACK], yt_id: 'FTQbiNvZqaY', playback_offset: 12 });
    expect(values.videoUrl).toBe('https://www.youtube.com/watch?v=FTQbiNvZqaY');
    expect(hitBody(values)).toMatchObject({ yt_id: 'FTQbiNvZqaY', playback_offset: 12 });
  });
});

describe('the sort priority', () => {
  it('moves a picked-up field 25 px per arrow key (docs/product.md#limits)', () => {
    expect(KEYBOARD_STEP_PX).toBe(25);
    const c = { x: 100, y: 100 };
    const step = (code: string) => keyboardStep({ code } as KeyboardEvent, { currentCoordinates: c } as Parameters<typeof keyboardStep>[1]);
    expect(step('ArrowRight')).toEqual({ x: 125, y: 100 });
    expect(step('ArrowLeft')).toEqual({ x: 75, y: 100 });
    expect(step('ArrowDown')).toEqual({ x: 100, y: 125 });
    expect(step('ArrowUp')).toEqual({ x: 100, y: 75 });
    expect(step('KeyA')).toBeUndefined();
  });

  it('reorders by dropping one field onto another', () => {
    expect(reorder(['title', 'artist', 'belongs_to', 'year'], 'year', 'title')).toEqual(['year', 'title', 'artist', 'belongs_to']);
    expect(reorder(['title', 'artist', 'belongs_to', 'year'], 'title', 'belongs_to')).toEqual(['artist', 'belongs_to', 'title', 'year']);
    expect(reorder(['title', 'artist', 'belongs_to', 'year'], 'title', null)).toEqual(['title', 'artist', 'belongs_to', 'year']);
    expect(reorder(['title', 'artist', 'belongs_to', 'year'], 'title', 'title')).toEqual(['title', 'artist', 'belongs_to', 'year']);
  });
});

describe('packs in natural order (docs/product.md#screens)', () => {
  it('sorts by name, numbers by value, case ignored', () => {
    const packs = ['Pack 10', 'pack 2', 'Pack 1', 'Année', 'alpha'].map((name, i) => ({ id: String(i), name }));
    expect(sortPacks(packs).map((p) => p.name)).toEqual(['alpha', 'Année', 'Pack 1', 'pack 2', 'Pack 10']);
  });
});
