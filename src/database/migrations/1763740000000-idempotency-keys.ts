import { MigrationInterface, QueryRunner, Table } from 'typeorm';

export class IdempotencyKeys1763740000000 implements MigrationInterface {
  name = 'IdempotencyKeys1763740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'token_id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          { name: 'idem_key', type: 'varchar', length: '255', isPrimary: true, ...exact },
          { name: 'request_hash', type: 'varchar', length: '64', isNullable: false },
          { name: 'response_status', type: 'integer', isNullable: true },
          { name: 'response_body', type: mysql ? 'mediumtext' : 'text', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'expires_at', type: 'datetime', precision: 3, isNullable: false },
        ],
        indices: [{ name: 'idx_idempotency_expires', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
