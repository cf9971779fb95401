import { baseLanguage } from '../../languages/languages';
import * as stopword from 'stopword';

/**
 * ISO 639-1 tags (what an invite's `language` starts with) to the ISO 639-3 names of the lists in
 * `stopword`. Portuguese takes both of its lists: an interview in `pt` may be European or Brazilian.
 */
const LISTS: Readonly<Record<string, readonly stopword.LanguageCode[]>> = {
  af: ['afr'], ar: ['ara'], bg: ['bul'], bn: ['ben'], br: ['bre'], ca: ['cat'], cs: ['ces'], da: ['dan'],
  de: ['deu'], el: ['ell'], en: ['eng'], eo: ['epo'], es: ['spa'], et: ['est'], eu: ['eus'], fa: ['fas'],
  fi: ['fin'], fr: ['fra'], ga: ['gle'], gl: ['glg'], gu: ['guj'], ha: ['hau'], he: ['heb'], iw: ['heb'],
  hi: ['hin'], hr: ['hrv'], hu: ['hun'], hy: ['hye'], id: ['ind'], it: ['ita'], ja: ['jpn'], ko: ['kor'],
  ku: ['kur'], la: ['lat'], lt: ['lit'], lv: ['lav'], mr: ['mar'], ms: ['msa'], my: ['mya'], nb: ['nob'],
  no: ['nob'], nl: ['nld'], pa: ['panGu'], pl: ['pol'], pt: ['por', 'porBr'], ro: ['ron'], ru: ['rus'],
  sk: ['slk'], sl: ['slv'], so: ['som'], st: ['sot'], sv: ['swe'], sw: ['swa'], th: ['tha'], tl: ['tgl'],
  fil: ['tgl'], tr: ['tur'], uk: ['ukr'], ur: ['urd'], vi: ['vie'], yo: ['yor'], zh: ['zho'], zu: ['zul'],
};

/**
 * What the library's lists (written for search indexes) lack and spoken answers are full of:
 * contractions, fillers and hedges ("I think", "kind of") that would otherwise top every keyphrase list.
 */
const SPOKEN: Readonly<Record<string, string>> = {
  en: `i'm im i've i'd i'll it's its that's there's they're we're you're he's she's what's let's don't dont
    doesn't didn't can't cant cannot won't wouldn't couldn't shouldn't isn't aren't wasn't weren't haven't
    hasn't hadn't just really so yeah yes yep no nope not um uh oh ok okay also actually maybe perhaps
    pretty quite bit lot lots thing things kind sort something anything everything nothing think thought
    guess mean know say feel felt get gets getting go going went will would can could does did done be
    being us its there which whatever etc always sometimes often even`,
  es: `es son está están estoy estaba era ser sido hay yo esto esta este estos estas eso esos esas creo
    cosa cosas algo todo todos toda todas tiene tengo tienen tenía puede hace les sí bastante pues entonces
    así muy mucho muchos mucha nosotros nosotras ellos ellas usted ustedes vosotros otro otra otros otras`,
  pt: `é são está estão estou era ser sido ter tem tenho tinha foi acho coisa coisas algo tudo todos todas
    pra pro né aí então assim bastante muito muita`,
  fr: `ça très plus tout tous toute toutes aussi alors donc comme si chose choses vraiment peut fais fait
    va vais assez beaucoup bien`,
  it: `molto poco cosa cose così già ancora però quindi sempre penso credo po fa abbastanza davvero`,
  nl: `vind vond denk erg heel echt gewoon best ding dingen zeer nogal eigenlijk`,
  de: `halt irgendwie finde glaube dinge ding echt ziemlich`,
  zh: `我们 你们 他们 它 它们 这个 那个 一个 没有 非常 觉得 因为 所以 但是 可以 比较 还是 就是 然后 如果 现在 东西 感觉 真的 有点 一些`,
  ar: `جدا جداً كثيرا أيضا فقط يعني`,
  ja: `思い 思う 思います 感じ 少し とても 本当 結構`,
};

const cache = new Map<string, ReadonlySet<string> | null>();

/** The stop words of a language (its `stopword` lists plus spoken fillers), or null when it has none. */
export function stopWordsFor(tag: string): ReadonlySet<string> | null {
  const language = baseLanguage(tag);
  let words = cache.get(language);
  if (words === undefined) {
    const lists = LISTS[language];
    if (lists) {
      const set = new Set<string>();
      for (const list of lists) for (const word of stopword[list]) set.add(word.toLowerCase());
      for (const word of (SPOKEN[language] ?? '').split(/\s+/)) if (word) set.add(word);
      words = set;
    } else {
      words = null;
    }
    cache.set(language, words);
  }
  return words;
}
