import { createHash } from 'node:crypto';
import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { exactColumnOptions } from '../column-types';

/** Invites read per batch while the digests of existing addresses are written. */
const BATCH = 500;

/**
 * The digests of the addresses invites were started with (invite_email_digests), which the
 * duplicate-participant check looks up instead of scanning the userInfo of every started invite of the
 * interview. Filled here from the invites already started with an address and not erased.
 */
export class EmailDigests1767700000000 implements MigrationInterface {
  name = 'EmailDigests1767700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Identifiers compare exactly, without padding (see ExactIdentifiers1767000000000).
    const exact = await exactColumnOptions(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'invite_email_digests',
        columns: [
          { name: 'link_id', type: 'varchar', length: '64', isPrimary: true, ...exact },
          { name: 'interview_id', type: 'varchar', length: '36', isNullable: false, ...exact },
          { name: 'digest', type: 'varchar', length: '64', isNullable: false, ...exact },
        ],
        indices: [new TableIndex({ name: 'idx_invite_email_digests_lookup', columnNames: ['interview_id', 'digest'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_invite_email_digests_invite',
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
      const invites = (await queryRunner.query(
        'SELECT link_id, interview_id, user_info FROM invites WHERE started_on IS NOT NULL AND erased_on IS NULL AND user_info IS NOT NULL AND link_id > ? ORDER BY link_id LIMIT ?',
        [after, BATCH],
      )) as { link_id: string; interview_id: string; user_info: string }[];
      if (invites.length === 0) break;
      const rows: unknown[][] = [];
      for (const invite of invites) {
        const email = (JSON.parse(invite.user_info) as { email?: unknown } | null)?.email;
        // The digest the service writes (InvitesRepository.keepEmail, normalEmail), fixed here as a migration must be.
        const normal = typeof email === 'string' ? email.trim().toLowerCase() : '';
        if (normal !== '') rows.push([invite.link_id, invite.interview_id, createHash('sha256').update(normal, 'utf8').digest('hex')]);
      }
      // 3 parameters a row and at most 500 rows: far under SQLite's variable limit.
      if (rows.length > 0) await queryRunner.query(`INSERT INTO invite_email_digests (link_id, interview_id, digest) VALUES ${rows.map(() => '(?, ?, ?)').join(', ')}`, rows.flat());
      after = invites[invites.length - 1].link_id;
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('invite_email_digests');
  }
}
