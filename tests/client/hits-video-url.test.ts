import { describe, expect, it } from 'vitest';
import { YtIdSchema } from '../../shared/protocol/catalogue.ts';
import { embedUrl, parseVideoUrl, VIDEO_ID, watchUrl } from '../../client/src/routes/hits/video-url.ts';

const ID = 'dQw4w9WgXcQ';

describe('video URL validation (docs/product.md#validation)', () => {
  it.each([
    // watch
    [`https://www.youtube.com/watch?v=${ID}`],
    [`http://www.youtube.com/watch?v=${ID}`],
    [`https://youtube.com/watch?v=${ID}`],
    [`https://m.youtube.com/watch?v=${ID}`],
    [`https://music.youtube.com/watch?v=${ID}`],
    [`https://www.youtube.com/watch?v=${ID}&t=42s`],
    [`https://www.youtube.com/watch?feature=share&v=${ID}`],
    [`https://WWW.YouTube.com/watch?v=${ID}`],
    [`www.youtube.com/watch?v=${ID}`],
    [`  https://www.youtube.com/watch?v=${ID}  `],
    // short link
    [`https://youtu.be/${ID}`],
    [`https://youtu.be/${ID}?si=abcdef&t=10`],
    [`youtu.be/${ID}`],
    // embed
    [`https://www.youtube.com/embed/${ID}`],
    [`https://www.youtube.com/embed/${ID}?start=30`],
    [`https://www.youtube-nocookie.com/embed/${ID}`],
    [`https://www.youtube.com/embed/${ID}/`],
    // v/
    [`https://www.youtube.com/v/${ID}`],
    [`https://www.youtube.com/v/${ID}?version=3`],
  ])('accepts %s', (url) => {
    expect(parseVideoUrl(url)).toBe(ID);
  });

  it('accepts ids with - and _', () => {
    expect(parseVideoUrl('https://youtu.be/a-b_c-d_e-f')).toBe('a-b_c-d_e-f');
    expect(parseVideoUrl('https://www.youtube.com/watch?v=___________')).toBe('___________');
  });

  it.each([
    [''],
    ['   '],
    [ID], // a bare id is not one of the URL forms
    [`https://www.youtube.com/watch?v=${ID.slice(0, 10)}`], // 10 characters
    [`https://www.youtube.com/watch?v=${ID}X`], // 12 characters
    [`https://youtu.be/${ID.slice(0, 10)}`],
    [`https://youtu.be/${ID}X`],
    [`https://www.youtube.com/embed/${ID.slice(1)}`],
    [`https://www.youtube.com/v/${ID}X`],
    ['https://www.youtube.com/watch?v=dQw4w9WgXc!'], // not [A-Za-z0-9_-]
    ['https://www.youtube.com/watch?v=dQw4w9 WgXc'],
    [`https://www.youtube.com/watch?vv=${ID}`], // wrong parameter
    [`https://www.youtube.com/watch/${ID}`],
    [`https://www.youtube.com/watch?v=${ID}&v=${ID}`], // ambiguous
    [`https://www.youtube.com/shorts/${ID}`], // not one of the four forms
    [`https://www.youtube.com/embed/${ID}/extra`],
    [`https://www.youtube.com/embed/`],
    [`https://www.youtube.com/?v=${ID}`],
    [`https://youtu.be/`],
    [`https://youtu.be/watch?v=${ID}`],
    [`https://youtube.com.evil.example/watch?v=${ID}`], // look-alike hosts
    [`https://notyoutube.com/watch?v=${ID}`],
    [`https://evil.example/youtube.com/watch?v=${ID}`],
    [`https://youtu.be.evil.example/${ID}`],
    [`https://www.youtube.com:8443/watch?v=${ID}`], // a port
    [`https://user:pw@www.youtube.com/watch?v=${ID}`], // credentials
    [`ftp://www.youtube.com/watch?v=${ID}`], // other schemes
    [`javascript:alert(1)//youtu.be/${ID}`],
    [`data:text/html,youtu.be/${ID}`],
    [`https://www.youtube.com/watch?v=${ID} trailing`],
    ['not a url at all'],
  ])('refuses %s', (url) => {
    expect(parseVideoUrl(url)).toBeNull();
  });

  it('agrees with the server on what an id is', () => {
    for (const id of [ID, 'a-b_c-d_e-f', 'short', `${ID}X`, 'dQw4w9WgXc!']) expect(VIDEO_ID.test(id), id).toBe(YtIdSchema.safeParse(id).success);
  });

  it('builds the watch and embed URLs', () => {
    expect(watchUrl(ID)).toBe(`https://www.youtube.com/watch?v=${ID}`);
    expect(parseVideoUrl(watchUrl(ID))).toBe(ID);
    expect(embedUrl(ID, 42)).toBe(`https://www.youtube-nocookie.com/embed/${ID}?start=42`);
    expect(embedUrl(ID, -3)).toBe(`https://www.youtube-nocookie.com/embed/${ID}?start=0`);
  });
});
