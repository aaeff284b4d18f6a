import { earliest, getJson, partialDate, sameArtist, type Found, type HttpOptions, type YearQuery, type YearSource } from './source.ts';

/**
 * Wikidata (docs/disputes.md#evidence), the second source: its SPARQL query
 * service asked for items that are a single (Q134556), a song (Q7366) or a
 * musical work (Q105543609) labelled with the title, their performers (P175)
 * and their publication dates (P577) with the dates' precision. Items whose
 * performer is someone else (a cover) are left out here, by the same artist
 * comparison as MusicBrainz; the earliest date is the answer.
 */

interface Binding {
  item?: { value?: string };
  performerLabel?: { value?: string };
  date?: { value?: string };
  precision?: { value?: string };
}

/** The label languages a title is looked up in (`mul`: Wikidata's label for every language). */
const LANGUAGES = ['en', 'mul', 'de', 'fr', 'es', 'it', 'nl', 'sv'];
/** wikibase:timePrecision: 9 year, 10 month, 11 day; coarser dates (a decade) say nothing of the year. */
const DATE_LENGTH: Record<string, number> = { '9': 4, '10': 7, '11': 10 };

const literal = (text: string) => `"${text.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;

/** The SPARQL query for one title (the artist is compared in code, case and accents folded). */
export function songQuery(title: string): string {
  const titles = LANGUAGES.map((l) => `${literal(title)}@${l}`).join(' ');
  return `SELECT ?item ?performerLabel ?date ?precision WHERE {
  VALUES ?title { ${titles} }
  VALUES ?type { wd:Q134556 wd:Q7366 wd:Q105543609 }
  ?item rdfs:label ?title ; wdt:P31 ?type ; wdt:P175 ?performer ; p:P577/psv:P577 ?published .
  ?published wikibase:timeValue ?date ; wikibase:timePrecision ?precision .
  ?performer rdfs:label ?performerLabel .
  FILTER(LANG(?performerLabel) IN ("en", "mul", "de"))
} LIMIT 200`;
}

export class WikidataSource implements YearSource {
  readonly name = 'wikidata';
  readonly label = 'Wikidata';

  private readonly base: string;
  private readonly http: HttpOptions;

  constructor(base: string, http: HttpOptions) {
    this.base = base;
    this.http = http;
  }

  async lookup(q: YearQuery, signal?: AbortSignal): Promise<Found> {
    const url = `${this.base}/sparql?format=json&query=${encodeURIComponent(songQuery(q.title))}`;
    const body = (await getJson(url, this.http, signal, 'application/sparql-results+json')) as { results?: { bindings?: Binding[] } };
    const candidates = (body.results?.bindings ?? []).flatMap((b) => {
      const length = DATE_LENGTH[b.precision?.value ?? ''];
      const date = partialDate(b.date?.value)?.slice(0, length);
      const id = /\/entity\/(Q\d+)$/.exec(b.item?.value ?? '')?.[1];
      if (!length || !date || date.length < length || !id || !sameArtist(b.performerLabel?.value ?? '', q.artist)) return [];
      return [{ date, id, performer: b.performerLabel!.value! }];
    });
    const first = earliest(candidates);
    if (!first) return { year: null, date: null, detail: 'no matching song or single', url: null };
    return {
      year: Number(first.date.slice(0, 4)),
      date: first.date,
      detail: `publication date of the song or single “${q.title}” by ${first.performer}`,
      url: `https://www.wikidata.org/wiki/${first.id}`,
    };
  }
}
