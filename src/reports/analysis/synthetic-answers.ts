import { countWords } from '../../interviewers/default-interviewer';
import type { AnalysisAnswer } from './analysis.types';
import { seededRandom } from './kmeans';

/**
 * Varied synthetic answers for the specs and the benchmark: topical clusters (each question leans to
 * two or three topics), filler and stop words, a long tail of rare made-up words, lengths of 5 to 80
 * words in sentences, a share in Spanish, German, Japanese, Chinese and Arabic, and some unscored.
 */
const TOPICS: readonly string[][] = [
  'price cost invoice billing expensive cheap subscription plan discount renewal fee budget pricing charge tier upgrade seats license'.split(' '),
  'slow fast loading performance lag wait seconds speed quick responsive crash freeze spinner timeout latency sluggish'.split(' '),
  'support team helpful friendly response ticket chat agent email answer escalation reply patient knowledgeable'.split(' '),
  'setup onboarding tutorial documentation learn easy confusing guide install configuration wizard steps intuitive'.split(' '),
  'report dashboard export chart data csv filter metrics graph analytics spreadsheet numbers widgets'.split(' '),
  'mobile app phone ios android offline notification sync tablet battery screen push'.split(' '),
];
const FILLER = `the and i it is we really like think that to of a in for was so but with our they this just
  product tool use using used work works working team people day time week month thing things very quite
  pretty lot much more also always sometimes when because would could should make made get got`.split(/\s+/);
const SYLLABLES = 'ka lo mi ne ru ta vo zi pe su da fi go hu ja ke li mo nu pa re si to vu wa xe yo ze bi co'.split(' ');

const OTHER_LANGUAGES: readonly { language: string; share: number; spaced: boolean; topics: string[][]; filler: string[] }[] = [
  {
    language: 'es', share: 0.05, spaced: true,
    topics: [['precio', 'caro', 'factura', 'suscripción', 'descuento'], ['lento', 'rápido', 'carga', 'espera', 'rendimiento'], ['soporte', 'equipo', 'ayuda', 'respuesta', 'amable']],
    filler: ['el', 'la', 'que', 'es', 'muy', 'pero', 'y', 'de', 'nosotros', 'usamos', 'producto'],
  },
  {
    language: 'de', share: 0.03, spaced: true,
    topics: [['Preis', 'teuer', 'Rechnung', 'Abonnement', 'Rabatt'], ['langsam', 'schnell', 'Ladezeit', 'warten', 'Leistung'], ['Support', 'Team', 'hilfreich', 'Antwort', 'freundlich']],
    filler: ['der', 'die', 'das', 'ist', 'sehr', 'aber', 'und', 'wir', 'nutzen', 'Produkt'],
  },
  {
    language: 'ja', share: 0.02, spaced: false,
    topics: [['価格', '料金', '請求書', '割引', '高い'], ['速度', '遅い', '読み込み', '待ち時間', '性能'], ['サポート', '対応', '親切', '返信', '担当者']],
    filler: ['は', 'が', 'を', 'とても', 'です', 'ました', 'と思います', '。'],
  },
  {
    language: 'zh', share: 0.02, spaced: false,
    topics: [['价格', '费用', '发票', '折扣', '太贵'], ['速度', '很慢', '加载', '等待', '性能'], ['客服', '支持', '回复', '热情', '团队']],
    filler: ['的', '是', '我们', '非常', '但是', '觉得', '了', '。'],
  },
  {
    language: 'ar', share: 0.01, spaced: true,
    topics: [['السعر', 'التكلفة', 'الفاتورة', 'الاشتراك', 'الخصم'], ['بطيء', 'سريع', 'التحميل', 'الانتظار', 'الأداء'], ['الدعم', 'الفريق', 'المساعدة', 'الرد', 'لطيف']],
    filler: ['في', 'من', 'على', 'هذا', 'جدا', 'لكن', 'و', 'نحن'],
  },
];

export function syntheticAnswers(count: number, options: { questions?: number; seed?: number } = {}): AnalysisAnswer[] {
  const questions = options.questions ?? 10;
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const answers: AnalysisAnswer[] = [];
  for (let i = 0; i < count; i++) {
    const questionIndex = i % questions;
    // Each question leans to its own topics, so that per-question themes differ.
    const leaning = [questionIndex % TOPICS.length, (questionIndex + 2) % TOPICS.length, (questionIndex + 3) % TOPICS.length];
    const length = 5 + Math.floor(random() * 76);
    const roll = random();
    let cumulative = 0;
    const other = OTHER_LANGUAGES.find((language) => roll < (cumulative += language.share));
    let text: string;
    if (other) {
      const topic = other.topics[leaning[0] % other.topics.length];
      const words = Array.from({ length }, () => (random() < 0.5 ? pick(topic) : pick(other.filler)));
      text = words.join(other.spaced ? ' ' : '');
    } else {
      const topic = TOPICS[random() < 0.7 ? leaning[0] : pick(leaning)];
      const words: string[] = [];
      for (let w = 0; w < length; w++) {
        const r = random();
        words.push(r < 0.45 ? pick(topic) : r < 0.95 ? pick(FILLER) : pick(SYLLABLES) + pick(SYLLABLES) + pick(SYLLABLES));
        if (w > 0 && w < length - 1 && random() < 0.08) words[w] += '.';
      }
      text = words.join(' ') + '.';
    }
    answers.push({
      linkID: `link-${Math.floor(i / questions)}`,
      turnIndex: 1 + 2 * questionIndex,
      questionIndex: random() < 0.02 ? null : questionIndex,
      answer: text,
      words: countWords(text),
      sentiment: random() < 0.1 ? null : Math.round((random() * 2 - 1) * 10_000) / 10_000,
      language: other?.language ?? 'en',
      followUp: false,
    });
  }
  return answers;
}
