import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * The interview room: every invite gets expires_on (existing ones: creation + 30 days, the default
 * INVITE_TTL_DAYS), indexed for the expiry sweep; profiles made from interviews are found again by
 * their owner and email, and keep how many turns their sentiment is the mean of.
 */
export class InterviewRoom1763800000000 implements MigrationInterface {
  name = 'InterviewRoom1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};

    await queryRunner.addColumn('invites', new TableColumn({ name: 'expires_on', type: 'datetime', precision: 3, isNullable: true }));
    await queryRunner.query(
      mysql
        ? 'UPDATE invites SET expires_on = DATE_ADD(created_at, INTERVAL 30 DAY)'
        : "UPDATE invites SET expires_on = strftime('%Y-%m-%d %H:%M:%f', created_at, '+30 days')",
    );
    await queryRunner.changeColumn(
      'invites',
      'expires_on',
      new TableColumn({ name: 'expires_on', type: 'datetime', precision: 3, isNullable: false }),
    );
    await queryRunner.createIndex('invites', new TableIndex({ name: 'idx_invites_expiry', columnNames: ['status', 'expires_on'] }));

    await queryRunner.addColumns('profiles', [
      new TableColumn({ name: 'owner_key', type: 'varchar', length: '110', isNullable: true, ...exact }),
      new TableColumn({ name: 'email', type: 'varchar', length: '320', isNullable: true, ...exact }),
      new TableColumn({ name: 'sentiment_turns', type: 'integer', isNullable: false, default: 0 }),
    ]);
    await queryRunner.createIndex('profiles', new TableIndex({ name: 'uq_profiles_owner_email', columnNames: ['owner_key', 'email'], isUnique: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('profiles', 'uq_profiles_owner_email');
    await queryRunner.dropColumns('profiles', ['sentiment_turns', 'email', 'owner_key']);
    await queryRunner.dropIndex('invites', 'idx_invites_expiry');
    await queryRunner.dropColumn('invites', 'expires_on');
  }
}
