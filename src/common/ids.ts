import { randomBytes } from 'node:crypto';

/**
 * Random bytes for ids, drawn from the CSPRNG a block at a time (as node's randomUUID does): one
 * randomBytes call per 256 ids instead of two per id, each of which cost about as much as the rest of
 * an insert's own code. Ids are not secrets; linkIDs, which are, take bytes of their own (newLinkIds).
 */
const RANDOM_BLOCK = 16 * 256;
let randomBlock = Buffer.alloc(0);
let randomOffset = 0;

function randomSlice(n: number): Buffer {
  if (randomOffset + n > randomBlock.length) {
    randomBlock = randomBytes(RANDOM_BLOCK);
    randomOffset = 0;
  }
  randomOffset += n;
  return randomBlock.subarray(randomOffset - n, randomOffset);
}

/**
 * UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then a 12-bit counter that keeps ids minted in the
 * same millisecond by one generator in order, then 62 random bits. Time-ordered keys keep InnoDB's
 * clustered-index inserts sequential. The state is per generator, so tests can run one on a clock of
 * their own; the service uses the process-wide one through uuidv7().
 */
export class UuidV7Generator {
  private lastMs = 0;
  private seq = 0;

  next(now: number = Date.now()): string {
    if (now > this.lastMs) {
      this.lastMs = now;
      this.seq = randomSlice(2).readUInt16BE(0) & 0x3ff; // leave headroom for the counter to grow
    } else {
      this.seq++;
      if (this.seq > 0xfff) {
        this.lastMs++; // counter exhausted: borrow the next millisecond rather than go backwards
        this.seq = 0;
      }
    }
    const bytes = randomSlice(16);
    const ms = this.lastMs;
    bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
    bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
    bytes[2] = (ms >>> 24) & 0xff;
    bytes[3] = (ms >>> 16) & 0xff;
    bytes[4] = (ms >>> 8) & 0xff;
    bytes[5] = ms & 0xff;
    bytes[6] = 0x70 | (this.seq >>> 8);
    bytes[7] = this.seq & 0xff;
    bytes[8] = 0x80 | (bytes[8] & 0x3f);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

const processIds = new UuidV7Generator();

/** A new UUIDv7 from the process-wide generator; `now` defaults to the clock. */
export function uuidv7(now?: number): string {
  return processIds.next(now);
}

/** An invite's linkID is the secret in its URL: 192 bits from the CSPRNG, base64url (32 chars). */
export function newLinkId(): string {
  return newLinkIds(1)[0];
}

/** n linkIDs from one CSPRNG call (a call per id was 8% of a 1,000-invite request). */
export function newLinkIds(n: number): string[] {
  const bytes = randomBytes(24 * n);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = bytes.subarray(i * 24, (i + 1) * 24).toString('base64url');
  return out;
}
