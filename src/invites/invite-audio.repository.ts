import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { InviteAudio } from './invite-audio.entity';

/** A recording to keep, or one read back: its media type and bytes. */
export interface KeptAudio {
  contentType: string;
  bytes: Buffer;
}

/** Bytes per stored part: one INSERT of it (sent as hex text by mysql2) stays under MySQL's smallest max_allowed_packet, 4 MiB. */
export const AUDIO_PART_BYTES = 1024 * 1024;

/** Kept recordings of voice answers (invite_audio), stored in the transaction that stores their answer. */
@Injectable()
export class InviteAudioRepository {
  constructor(@InjectRepository(InviteAudio) private readonly audio: Repository<InviteAudio>) {}

  /** The recording of the answer at `turnIndex`, in parts, one INSERT each. */
  async store(db: EntityManager, linkID: string, turnIndex: number, audio: KeptAudio, now: Date): Promise<void> {
    const repo = db.getRepository(InviteAudio);
    for (let part = 0; part * AUDIO_PART_BYTES < audio.bytes.length; part++) {
      const data = audio.bytes.subarray(part * AUDIO_PART_BYTES, (part + 1) * AUDIO_PART_BYTES);
      await repo.insert({ linkID, turnIndex, part, contentType: audio.contentType, data, createdAt: now });
    }
  }

  /** The recording kept for that turn of the invite, its parts joined again; undefined when there is none. */
  async find(linkID: string, turnIndex: number): Promise<KeptAudio | undefined> {
    const parts = await this.audio.find({ where: { linkID, turnIndex }, order: { part: 'ASC' } });
    if (parts.length === 0) return undefined;
    return { contentType: parts[0].contentType, bytes: Buffer.concat(parts.map((p) => p.data)) };
  }
}
