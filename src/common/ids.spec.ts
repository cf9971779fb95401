import { UuidV7Generator, newLinkId, newLinkIds, uuidv7 } from './ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timestampOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe(UuidV7Generator.name, () => {
  let sut: UuidV7Generator;

  beforeEach(() => {
    sut = new UuidV7Generator();
  });

  it('produces RFC 9562 version 7 identifiers', () => {
    expect(sut.next(1_700_000_000_000)).toMatch(UUID_V7);
  });

  it('encodes the given time in the first 48 bits, whatever the clock says', () => {
    expect(timestampOf(sut.next(Date.UTC(2030, 0, 1)))).toBe(Date.UTC(2030, 0, 1));
    expect(timestampOf(sut.next(Date.UTC(2100, 5, 30, 12)))).toBe(Date.UTC(2100, 5, 30, 12));
  });

  it('sorts in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => sut.next(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never goes backwards when the time does', () => {
    const later = sut.next(1_700_000_000_500);
    const earlier = sut.next(1_700_000_000_000);
    expect(earlier > later).toBe(true);
    expect(timestampOf(earlier)).toBe(1_700_000_000_500);
  });

  it('draws fresh random bits for every id, across many blocks of random bytes', () => {
    const tails = Array.from({ length: 3000 }, (_, i) => sut.next(1_700_000_000_000 + i).slice(19));
    expect(new Set(tails).size).toBe(tails.length);
  });

  it('borrows the next millisecond once the counter of one millisecond runs out', () => {
    const ids = Array.from({ length: 4097 }, () => sut.next(1_700_000_000_000));
    expect(timestampOf(ids[4096])).toBe(1_700_000_000_001);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('uuidv7', () => {
  it('uses the clock by default', () => {
    const before = Date.now();
    const id = uuidv7();
    expect(id).toMatch(UUID_V7);
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(Date.now() + 1);
  });
});

describe('newLinkId', () => {
  it('is URL-safe and carries 192 random bits', () => {
    const id = newLinkId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(24);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10000 }, newLinkId));
    expect(ids.size).toBe(10000);
  });
});

describe('newLinkIds', () => {
  it('makes n distinct URL-safe 192-bit ids', () => {
    const ids = newLinkIds(1000);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(24);
    expect(ids.every((id) => /^[A-Za-z0-9_-]{32}$/.test(id))).toBe(true);
  });
});
