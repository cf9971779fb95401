import { createHash } from 'node:crypto';
import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { exactColumnOptions } from '../column-types';

/** Invites read per batch while the digests of existing answers are written. */
const BATCH = 500;

/**
 * The digests of interviewee turns (invite_answer_digests), which the duplicate-answer check looks up
 * instead of scanning every transcript of the interview. Filled here from the transcripts already
 * stored: every interviewee turn of every invite that holds one (erased invites hold none).
 */
export class AnswerDigests1767600000000 implements MigrationInterface {
  name = 'AnswerDigests1767600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Identifiers compare exactly, without padding (see ExactIdentifiers1767000000000).
    const exact = await exactColumnOptions(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'invite_answer_digests',
        columns: [
          { name: 'link_id', type: 'varchar', length: '64', isPrimary: true, ...exact },
          { name: 'turn_index', type: 'integer', isPrimary: true },
          { name: 'interview_id', type: 'varchar', length: '36', isNullable: false, ...exact },
          { name: 'digest', type: 'varchar', length: '64', isNullable: false, ...exact },
        ],
        indices: [new TableIndex({ name: 'idx_invite_answer_digests_lookup', columnNames: ['interview_id', 'digest'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_invite_answer_digests_invite',
            columnNames: ['link_id'],
            referencedTableName: 'invites',
            referencedColumnNames: ['link_id'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );

    // Keyset pages by link_id: each page one read and one multi-row insert, whatever the table's size.
    for (let after = ''; ; ) {
      const invites = (await queryRunner.query('SELECT link_id, interview_id, conversation FROM invites WHERE answer_count > 0 AND link_id > ? ORDER BY link_id LIMIT ?', [
        after,
        BATCH,
      ])) as { link_id: string; interview_id: string; conversation: string }[];
      if (invites.length === 0) break;
      const rows: unknown[][] = [];
      for (const invite of invites) {
        (JSON.parse(invite.conversation) as { role: string; content: string }[]).forEach((turn, index) => {
          // The digest the service writes (InvitesRepository.keepAnswers), fixed here as a migration must be.
          if (turn.role === 'interviewee') rows.push([invite.link_id, index, invite.interview_id, createHash('sha256').update(turn.content, 'utf8').digest('hex')]);
        });
      }
      // 4 parameters a row: 1,000 rows stay far under SQLite's variable limit.
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
        await queryRunner.query(`INSERT INTO invite_answer_digests (link_id, turn_index, interview_id, digest) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`, chunk.flat());
      }
      after = invites[invites.length - 1].link_id;
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('invite_answer_digests');
  }
}
