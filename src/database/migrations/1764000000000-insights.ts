import { MigrationInterface, QueryRunner, Table, TableColumn, TableColumnOptions, TableForeignKey } from 'typeorm';

/** "Consent given <ISO time>: ..." (how the room records the consent): the time an interview started. */
const CONSENT_TURN = /^Consent given (\d{4}-\d\d-\d\dT[\d:.]+Z): /;
const BATCH = 500;

interface StoredTurn {
  role: string;
  content: string;
}

/**
 * Insights: every invite keeps when it started, the language it was held in, how many answers its
 * transcript holds, and per turn its time and the guideline question it asks or follows up (turn_meta,
 * one entry per conversation turn); reports
 * are queued, claimed by one instance and leased while they run; a report can be shared by secret links.
 *
 * Existing transcripts get what is known: the start from the consent turn, and that time for the
 * consent and the opening (written together); the last two turns of a started invite at its last
 * change (a reply writes the answer and the next question together). Other times, and every question
 * index, are not known: null. The room spoke English only until now.
 */
export class Insights1764000000000 implements MigrationInterface {
  name = 'Insights1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    const longText = mysql ? 'mediumtext' : 'text';
    const time = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'datetime', precision: 3, isNullable });

    await queryRunner.addColumns('invites', [
      new TableColumn(time('started_on', true)),
      new TableColumn({ name: 'language', type: 'varchar', length: '16', isNullable: true }),
      new TableColumn({ name: 'turn_meta', type: longText, isNullable: true }),
      new TableColumn({ name: 'answer_count', type: 'integer', default: 0 }),
    ]);
    await this.backfillInvites(queryRunner);

    await queryRunner.createTable(
      new Table({
        name: 'reports',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          { name: 'interview_id', type: 'varchar', length: '36', ...exact },
          { name: 'analyst', type: 'varchar', length: '100', isNullable: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'progress_done', type: 'integer', default: 0 },
          { name: 'progress_total', type: 'integer', default: 0 },
          time('as_of', true),
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'result', type: longText, isNullable: true },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'claim_token', type: 'varchar', length: '36', isNullable: true, ...exact },
          time('lease_until', true),
          time('created_at'),
          time('updated_at'),
          time('completed_on', true),
        ],
        indices: [
          { name: 'idx_reports_interview_created', columnNames: ['interview_id', 'created_at', 'id'] },
          { name: 'idx_reports_due', columnNames: ['status', 'lease_until'] },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_reports_interview',
            columnNames: ['interview_id'],
            referencedTableName: 'interviews',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'report_shares',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true, ...exact },
          { name: 'report_id', type: 'varchar', length: '36', ...exact },
          time('created_at'),
          time('expires_on'),
        ],
        indices: [{ name: 'idx_report_shares_report', columnNames: ['report_id'] }],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_report_shares_report',
            columnNames: ['report_id'],
            referencedTableName: 'reports',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('report_shares');
    await queryRunner.dropTable('reports');
    await queryRunner.dropColumns('invites', ['answer_count', 'turn_meta', 'language', 'started_on']);
  }

  /** Batches in link_id order; new invites get their own values from the lifecycle. */
  private async backfillInvites(queryRunner: QueryRunner): Promise<void> {
    for (let after = ''; ; ) {
      const rows = (await queryRunner.query(
        `SELECT link_id AS linkID, status, conversation, updated_at AS updatedAt FROM invites WHERE link_id > ? ORDER BY link_id LIMIT ${BATCH}`,
        [after],
      )) as { linkID: string; status: string; conversation: string; updatedAt: Date | string }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        const turns = JSON.parse(row.conversation) as StoredTurn[];
        if (turns.length === 0) {
          await queryRunner.query("UPDATE invites SET turn_meta = '[]' WHERE link_id = ?", [row.linkID]);
          continue;
        }
        const consent = turns[0].role === 'system' ? CONSENT_TURN.exec(turns[0].content) : null;
        const startedOn = consent && !Number.isNaN(Date.parse(consent[1])) ? new Date(consent[1]) : null;
        const updatedAt = typeof row.updatedAt === 'string' ? new Date(`${row.updatedAt.replace(' ', 'T')}Z`) : row.updatedAt;
        const meta = turns.map((_turn, index) => {
          let at: Date | null = null;
          if (index < 2 && startedOn) at = startedOn;
          else if (row.status === 'started' && index >= turns.length - 2) at = updatedAt;
          return { at: at?.toISOString() ?? null, questionIndex: null };
        });
        await queryRunner.query('UPDATE invites SET started_on = ?, language = ?, turn_meta = ?, answer_count = ? WHERE link_id = ?', [
          startedOn ? startedOn.toISOString().replace('T', ' ').replace('Z', '') : null,
          'en',
          JSON.stringify(meta),
          turns.filter((turn) => turn.role === 'interviewee').length,
          row.linkID,
        ]);
      }
      after = rows[rows.length - 1].linkID;
    }
  }
}
