import { newUrlSecret, newUrlSecrets, uuidv7 } from './ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timestampOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('uuidv7', () => {
  it('uses the clock by default', () => {
    const before = Date.now();
    const id = uuidv7();
    expect(id).toMatch(UUID_V7);
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('sorts in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('newUrlSecret', () => {
  it('is URL-safe and carries 192 random bits', () => {
    const id = newUrlSecret();
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(24);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10000 }, newUrlSecret));
    expect(ids.size).toBe(10000);
  });
});

describe('newUrlSecrets', () => {
  it('makes n distinct URL-safe 192-bit ids', () => {
    const ids = newUrlSecrets(1000);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(24);
    expect(ids.every((id) => /^[A-Za-z0-9_-]{32}$/.test(id))).toBe(true);
  });
});
