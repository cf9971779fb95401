import { StoredJson, stringifyRow } from './stored-json';

/** A value JSON can hold, drawn from a seeded generator (mulberry32): strings with escapes, surrogates, numbers JSON writes oddly. */
function randomJson(seed: number): () => unknown {
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const strings = ['', 'plain', 'quote " and \\ backslash', 'line\nbreak\ttab\u0000nul\u001f', '</script><!--', 'ümlaut ✓ 日本語', '😀 emoji', '\ud800 lone high', 'lone low \udfff', '\u2028\u2029'];
  const numbers = [0, -0, 1, -1.5, 1e21, 1e-7, 123456789012345680000, Number.MAX_SAFE_INTEGER, 0.1 + 0.2];
  const value = (depth: number): unknown => {
    const kind = depth > 3 ? Math.floor(rand() * 4) : Math.floor(rand() * 6);
    if (kind === 0) return pick(strings) + pick(strings);
    if (kind === 1) return pick(numbers);
    if (kind === 2) return pick([true, false]);
    if (kind === 3) return null;
    if (kind === 4) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, () => [pick(strings), value(depth + 1)]));
  };
  return () => value(0);
}

describe(stringifyRow.name, () => {
  it("writes JSON.stringify's bytes when the stored text is JSON.stringify's, for 2,000 random rows", () => {
    const next = randomJson(20261129);
    for (let i = 0; i < 2000; i++) {
      const values = { id: `row-${i}`, conversation: next(), userInfo: next(), '10': next(), 'key "quoted"': next(), when: new Date(Date.UTC(2026, 10, 29, 0, 0, i)) };
      // What jsonText would have stored (the column's transformer writes JSON.stringify's text).
      const stored = { ...values, conversation: new StoredJson(JSON.stringify(values.conversation)), userInfo: new StoredJson(JSON.stringify(values.userInfo)) };
      expect(stringifyRow(stored)).toBe(JSON.stringify(values));
    }
  });

  it('leaves undefined values out, and writes null as null, as JSON.stringify does', () => {
    const row = { a: 1, gone: undefined, none: null, fn: () => 1, json: new StoredJson('[1,{"b":"c"}]') };
    expect(stringifyRow(row)).toBe('{"a":1,"none":null,"json":[1,{"b":"c"}]}');
    expect(stringifyRow(row)).toBe(JSON.stringify({ a: 1, gone: undefined, none: null, fn: () => 1, json: [1, { b: 'c' }] }));
  });

  it('writes a row without StoredJson, an array and a row with its own toJSON as JSON.stringify does', () => {
    const rows: object[] = [
      { a: 'x', b: [1, 2], c: { d: null } },
      [new StoredJson('{"x":1}'), 2],
      { toJSON: () => ({ replaced: true }), json: new StoredJson('1') },
    ];
    for (const row of rows) expect(stringifyRow(row)).toBe(JSON.stringify(row));
  });

  it("serializes as the stored value wherever a stock serializer meets it (a page's answer, nested values)", () => {
    const text = JSON.stringify([{ role: 'interviewee', content: 'Ça va "bien" </script>' }]);
    const row = { items: [{ conversation: new StoredJson(text) }] };
    expect(JSON.stringify(row)).toBe(`{"items":[{"conversation":${text}}]}`);
    expect(stringifyRow(row)).toBe(JSON.stringify(row));
  });
});
