import { AUDIO_TYPES, AudioType } from './voice.limits';

/**
 * What the room can tell about a recording without decoding it: its type from the Content-Type (media
 * type only; parameters such as `;codecs=opus` are allowed), whether its first bytes are of that type,
 * and its duration where the container states it cheaply (WAV's header, Ogg's last granule position,
 * MP4's movie header). WebM as MediaRecorder writes it and MP3 state none: those are bounded by size
 * and by the duration the transcriber reports.
 */

/** The audio type of a Content-Type header, or null when it is none the room takes. */
export function audioTypeOf(contentType: string | undefined | null): AudioType | null {
  if (typeof contentType !== 'string') return null;
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return (AUDIO_TYPES as readonly string[]).includes(type) ? (type as AudioType) : null;
}

const ascii = (bytes: Buffer, at: number, text: string) => bytes.length >= at + text.length && bytes.toString('latin1', at, at + text.length) === text;

/** Whether the recording starts as a file of that type does (its signature), so that no other data reaches the transcriber or the database. */
export function looksLike(type: AudioType, bytes: Buffer): boolean {
  switch (type) {
    case 'audio/webm':
      return bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3;
    case 'audio/ogg':
      return ascii(bytes, 0, 'OggS');
    case 'audio/wav':
      return ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE');
    case 'audio/mp4':
      return ascii(bytes, 4, 'ftyp');
    case 'audio/mpeg':
      // An ID3 tag, or straight into an MPEG audio frame (11 sync bits).
      return ascii(bytes, 0, 'ID3') || (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0);
  }
}

/** The recording's duration in seconds when its container states it, else null. */
export function durationOf(type: AudioType, bytes: Buffer): number | null {
  switch (type) {
    case 'audio/wav':
      return wavDuration(bytes);
    case 'audio/ogg':
      return oggDuration(bytes);
    case 'audio/mp4':
      return mp4Duration(bytes);
    default:
      return null;
  }
}

/** RIFF chunks up to `data`: its size over the format's bytes per second. A streamed WAV's unknown size counts what arrived. */
function wavDuration(bytes: Buffer): number | null {
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 20 <= bytes.length) byteRate = bytes.readUInt32LE(at + 16);
    if (id === 'data') {
      if (byteRate === 0) return null;
      const arrived = bytes.length - (at + 8);
      return Math.min(size === 0 || size === 0xffffffff ? arrived : size, arrived) / byteRate;
    }
    // Chunks are padded to an even size.
    at += 8 + size + (size % 2);
  }
  return null;
}

/**
 * The last page's granule position is the stream's end in samples: 48 kHz for Opus (less its pre-skip),
 * the identification header's rate for Vorbis. Other codecs: null.
 */
function oggDuration(bytes: Buffer): number | null {
  const last = bytes.lastIndexOf('OggS', bytes.length - 4, 'latin1');
  if (last < 0 || last + 14 > bytes.length) return null;
  const granule = bytes.readBigInt64LE(last + 6);
  if (granule <= 0n) return null;
  // The first page holds the codec's identification header after its segment table.
  const segments = bytes.length > 26 ? bytes[26] : 0;
  const header = 27 + segments;
  if (ascii(bytes, header, 'OpusHead') && header + 12 <= bytes.length) {
    const preSkip = bytes.readUInt16LE(header + 10);
    return Math.max(0, Number(granule) - preSkip) / 48_000;
  }
  if (ascii(bytes, header, '\x01vorbis') && header + 16 <= bytes.length) {
    const rate = bytes.readUInt32LE(header + 12);
    return rate > 0 ? Number(granule) / rate : null;
  }
  return null;
}

/** The movie header (mvhd): duration over timescale. Fragmented files (MediaRecorder's) leave it 0: null then. */
function mp4Duration(bytes: Buffer): number | null {
  const at = bytes.indexOf('mvhd', 0, 'latin1');
  if (at < 4) return null;
  const box = at + 4;
  const version = bytes[box];
  if (version === 1 && box + 32 <= bytes.length) {
    const timescale = bytes.readUInt32BE(box + 20);
    const duration = Number(bytes.readBigUInt64BE(box + 24));
    return timescale > 0 && duration > 0 ? duration / timescale : null;
  }
  if (version === 0 && box + 20 <= bytes.length) {
    const timescale = bytes.readUInt32BE(box + 12);
    const duration = bytes.readUInt32BE(box + 16);
    return timescale > 0 && duration > 0 && duration !== 0xffffffff ? duration / timescale : null;
  }
  return null;
}
