/** Small deterministic generators for realistic-looking demo data (mulberry32 PRNG). */
export class DemoRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  some<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    const out: T[] = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]);
    return out;
  }
}

const ADJECTIVES = ['Swift', 'Bright', 'Quiet', 'Bold', 'Clear', 'Nimble', 'Steady', 'Lucid', 'Vivid', 'Calm'];
const NOUNS = ['Notes', 'Ledger', 'Planner', 'Canvas', 'Inbox', 'Tracker', 'Studio', 'Pulse', 'Compass', 'Harbor'];
const DOMAINS = ['teams', 'finance', 'health', 'travel', 'education', 'retail', 'logistics', 'media'];
const TOPICS = ['Onboarding friction', 'Pricing perception', 'Feature discovery', 'Churn reasons', 'Daily workflow', 'Mobile usage', 'Collaboration'];
const FIRST = ['Ada', 'Grace', 'Alan', 'Noor', 'Mateo', 'Yuki', 'Amara', 'Lena', 'Omar', 'Priya', 'Chen', 'Sofia', 'Kwame', 'Ines', 'Ravi', 'Zoë', 'Björn', 'Şule'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Haddad', 'García', 'Tanaka', 'Okafor', 'Novak', 'Farouk', 'Sharma', 'Wei', 'Rossi', 'Mensah', 'Silva', 'Iyer', 'Müller', 'Østergaard'];
const OCCUPATIONS = ['Product manager', 'Nurse', 'Teacher', 'Accountant', 'Designer', 'Software engineer', 'Store manager', 'Researcher', 'Dispatcher'];
const CITIES = ['Lisbon, Portugal', 'Osaka, Japan', 'Lagos, Nigeria', 'Toronto, Canada', 'Berlin, Germany', 'Pune, India', 'Tel Aviv, Israel', 'São Paulo, Brazil'];
const VALUES = ['speed', 'clarity', 'privacy', 'reliability', 'price', 'support', 'design', 'autonomy'];
const INTERESTS = ['climbing', 'board games', 'cooking', 'cycling', 'photography', 'gardening', 'chess', 'music'];
const QUESTIONS = [
  'How did you first hear about the product?',
  'Can you walk me through the last time you used it?',
  'What almost made you give up?',
  'Which feature would you miss most?',
  'What would you change first, and why?',
  'How does it fit with the other tools you use?',
];
const SHORT_ANSWERS = ['Not really.', 'A friend.', 'Every day, pretty much.', 'Hard to say.'];
const ANSWERS = [
  'A colleague recommended it after our team switched tools.',
  'Mostly on Monday mornings, to plan the week — it takes five minutes.',
  'The first import was confusing; I was not sure my data had arrived. 😅',
  'The shared views. Without them we would be back to spreadsheets.',
  'Search. It should find things by what they mean, not exact words.',
  'It sits next to our chat and calendar; the integrations matter a lot.',
  'Honestly? I love it, but the price jump for teams hurt — ¡caro!',
  'בעיקר בטלפון, בדרך לעבודה. (Mostly on my phone, on the way to work.)',
];

export const demo = {
  productName: (r: DemoRandom, i: number) => `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${i + 1}`,
  productDesc: (r: DemoRandom) => `A ${r.pick(DOMAINS)} product for ${r.pick(['small teams', 'enterprises', 'freelancers', 'families'])}.`,
  interviewName: (r: DemoRandom) => `${r.pick(TOPICS)}, ${r.pick(['Q1', 'Q2', 'Q3', 'Q4'])} ${r.int(2025, 2026)}`,
  /** Notes for the team and, one per line, the questions the interviewer asks. */
  guidelines: (r: DemoRandom) =>
    [`Goal: understand ${r.pick(TOPICS).toLowerCase()}.`, ...r.some(QUESTIONS, r.int(2, 4)).map((q, i) => `${i + 1}. ${q}`), `Listen for ${r.pick(VALUES)}.`].join('\n'),
  /** What an interviewee says: mostly full sentences, sometimes a short answer the interviewer probes. */
  answer: (r: DemoRandom) => (r.next() < 0.2 ? r.pick(SHORT_ANSWERS) : r.pick(ANSWERS)),
  person: (r: DemoRandom) => {
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    return { first, last, email: `${first}.${last}`.toLowerCase().normalize('NFD').replace(/[^\x20-\x7e]/g, '') + `${r.int(1, 999)}@example.com`, occupation: r.pick(OCCUPATIONS) };
  },
  details: (r: DemoRandom, occupation: string) => ({
    occupation,
    location: r.pick(CITIES),
    background: `${r.int(2, 20)} years as ${occupation.toLowerCase()}.`,
    productAlignment: r.pick(['Daily user', 'Weekly user', 'Evaluating', 'Former user', 'Champion in their team']),
    key_values: r.some(VALUES, r.int(1, 3)),
    interests: r.some(INTERESTS, r.int(0, 3)),
  }),
};
