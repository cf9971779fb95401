import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey } from 'typeorm';
import { exactColumnOptions } from '../column-types';

/**
 * Voice interviews: an interview's mode (`text` for every existing one) and whether its recordings are
 * kept; kept recordings live in invite_audio, in 1 MiB parts (MEDIUMBLOB on MySQL, BLOB on SQLite),
 * keyed by the invite, the answer's turn and the part. The invite's rows go first when it is deleted
 * (RESTRICT: the deleting code removes them itself).
 */
export class VoiceInterviews1767300000000 implements MigrationInterface {
  name = 'VoiceInterviews1767300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    // Identifiers compare exactly, without padding (see ExactIdentifiers1767000000000).
    const exact = await exactColumnOptions(queryRunner);

    await queryRunner.addColumns('interviews', [
      new TableColumn({ name: 'mode', type: 'varchar', length: '8', isNullable: false, default: "'text'" }),
      new TableColumn({ name: 'keep_audio', type: 'boolean', isNullable: false, default: 0 }),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'invite_audio',
        columns: [
          { name: 'link_id', type: 'varchar', length: '64', isPrimary: true, ...exact },
          { name: 'turn_index', type: 'integer', isPrimary: true },
          { name: 'part', type: 'integer', isPrimary: true },
          { name: 'content_type', type: 'varchar', length: '32', isNullable: false },
          { name: 'data', type: mysql ? 'mediumblob' : 'blob', isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_invite_audio_invite',
            columnNames: ['link_id'],
            referencedTableName: 'invites',
            referencedColumnNames: ['link_id'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('invite_audio');
    await queryRunner.dropColumns('interviews', ['keep_audio', 'mode']);
  }
}
