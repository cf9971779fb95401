import { audioTypeOf, durationOf, looksLike } from './audio-format';

/** A PCM WAV file's header and `seconds` of silence at `rate` Hz, 16-bit mono; `declared` overrides the data chunk's size. */
function wav(seconds: number, rate = 16_000, declared?: number): Buffer {
  const data = Math.round(seconds * rate) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(declared ?? data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/** An Ogg page: header, one segment, payload. */
function oggPage(granule: bigint, payload: Buffer): Buffer {
  const header = Buffer.alloc(28);
  header.write('OggS', 0, 'latin1');
  header.writeBigInt64LE(granule, 6);
  header[26] = 1;
  header[27] = payload.length;
  return Buffer.concat([header, payload]);
}

function opusHead(preSkip: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(48_000, 12);
  return head;
}

/** An MP4 file's ftyp and a version-0 movie header stating `duration` in `timescale` units. */
function mp4(timescale: number, duration: number): Buffer {
  const ftyp = Buffer.alloc(16);
  ftyp.writeUInt32BE(16, 0);
  ftyp.write('ftypM4A ', 4, 'latin1');
  const mvhd = Buffer.alloc(32);
  mvhd.writeUInt32BE(108, 0);
  mvhd.write('mvhd', 4, 'latin1');
  mvhd.writeUInt32BE(timescale, 20);
  mvhd.writeUInt32BE(duration, 24);
  return Buffer.concat([ftyp, Buffer.from([0, 0, 0, 8]), Buffer.from('moov', 'latin1'), mvhd]);
}

describe(audioTypeOf.name, () => {
  it('takes the five types the room records or accepts, with their parameters, in any case', () => {
    expect(audioTypeOf('audio/webm;codecs=opus')).toBe('audio/webm');
    expect(audioTypeOf('Audio/OGG; codecs="opus"')).toBe('audio/ogg');
    expect(audioTypeOf('audio/mp4')).toBe('audio/mp4');
    expect(audioTypeOf('audio/mpeg')).toBe('audio/mpeg');
    expect(audioTypeOf('audio/wav')).toBe('audio/wav');
  });

  it('refuses everything else', () => {
    for (const type of [undefined, '', 'application/json', 'audio/flac', 'video/webm', 'audio/webmx', 'audio/*', 'text/plain;audio/webm']) expect(audioTypeOf(type)).toBeNull();
  });
});

describe(looksLike.name, () => {
  it('knows each type by its first bytes', () => {
    expect(looksLike('audio/wav', wav(0.1))).toBe(true);
    expect(looksLike('audio/webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42]))).toBe(true);
    expect(looksLike('audio/ogg', oggPage(0n, opusHead(312)))).toBe(true);
    expect(looksLike('audio/mp4', mp4(1000, 0))).toBe(true);
    expect(looksLike('audio/mpeg', Buffer.from('ID3\x04\x00', 'latin1'))).toBe(true);
    expect(looksLike('audio/mpeg', Buffer.from([0xff, 0xfb, 0x90, 0x64]))).toBe(true);
  });

  it('refuses data of another type, or too short to tell', () => {
    expect(looksLike('audio/webm', wav(0.1))).toBe(false);
    expect(looksLike('audio/wav', Buffer.from('RIFF....AVI ', 'latin1'))).toBe(false);
    expect(looksLike('audio/ogg', Buffer.from('{"json": true}'))).toBe(false);
    expect(looksLike('audio/mpeg', Buffer.from([0xff]))).toBe(false);
    expect(looksLike('audio/mp4', Buffer.alloc(0))).toBe(false);
  });
});

describe(durationOf.name, () => {
  it('reads a WAV file\'s length from its header', () => {
    expect(durationOf('audio/wav', wav(2.5))).toBeCloseTo(2.5, 5);
    expect(durationOf('audio/wav', wav(1, 44_100))).toBeCloseTo(1, 5);
  });

  it('counts what arrived when a streamed WAV states no size, or more than was sent', () => {
    expect(durationOf('audio/wav', wav(1.5, 16_000, 0xffffffff))).toBeCloseTo(1.5, 5);
    expect(durationOf('audio/wav', wav(1, 16_000, 0))).toBeCloseTo(1, 5);
    expect(durationOf('audio/wav', wav(1, 16_000, 16_000 * 2 * 600))).toBeCloseTo(1, 5);
  });

  it('reads an Ogg Opus stream\'s length from its last granule position, less the pre-skip', () => {
    const ogg = Buffer.concat([oggPage(0n, opusHead(312)), oggPage(48_000n * 200n + 312n, Buffer.alloc(10))]);
    expect(durationOf('audio/ogg', ogg)).toBeCloseTo(200, 5);
  });

  it('reads an MP4 file\'s length from its movie header, and none from a fragmented one', () => {
    expect(durationOf('audio/mp4', mp4(1000, 181_500))).toBeCloseTo(181.5, 5);
    expect(durationOf('audio/mp4', mp4(1000, 0))).toBeNull();
  });

  it('says nothing for WebM and MP3, whose length the transcriber reports instead', () => {
    expect(durationOf('audio/webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))).toBeNull();
    expect(durationOf('audio/mpeg', Buffer.from('ID3\x04\x00', 'latin1'))).toBeNull();
  });
});
