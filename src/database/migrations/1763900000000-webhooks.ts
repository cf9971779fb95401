import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey } from 'typeorm';

/**
 * Webhooks: the endpoints, the outbox of deliveries (one row per event and endpoint) and every attempt.
 * Indexes: the owners' lists (org/user, creation order), an endpoint's deliveries in creation order,
 * the relay's claim of due deliveries (status, next_attempt_at), and an endpoint's last attempt.
 */
export class Webhooks1763900000000 implements MigrationInterface {
  name = 'Webhooks1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    const id = (name: string): TableColumnOptions => ({ name, type: 'varchar', length: '36', isPrimary: true, ...exact });
    const ref = (name: string, length: number, isNullable = false): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isNullable, ...exact });
    const str = (name: string, length: number, isNullable = false): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isNullable });
    const time = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'datetime', precision: 3, isNullable });
    const cascade = (name: string, column: string, table: string) =>
      new TableForeignKey({ name, columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE', onUpdate: 'NO ACTION' });

    await queryRunner.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          id('id'),
          str('url', 2048),
          str('events', 255, true),
          ref('org_id', 100, true),
          ref('user_id', 100, true),
          ref('secret', 64),
          str('status', 16),
          str('disabled_reason', 200, true),
          time('disabled_at', true),
          time('created_at'),
          time('updated_at'),
        ],
        indices: [
          { name: 'idx_webhooks_org_created', columnNames: ['org_id', 'created_at', 'id'] },
          { name: 'idx_webhooks_user_created', columnNames: ['user_id', 'created_at', 'id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          id('id'),
          ref('webhook_id', 36),
          str('event_type', 32),
          { name: 'payload', type: mysql ? 'mediumtext' : 'text', isNullable: false },
          str('status', 16),
          { name: 'retry_step', type: 'integer', isNullable: false, default: 0 },
          time('next_attempt_at', true),
          ref('claim_token', 36, true),
          time('created_at'),
          time('updated_at'),
        ],
        indices: [
          { name: 'idx_webhook_deliveries_webhook_created', columnNames: ['webhook_id', 'created_at', 'id'] },
          { name: 'idx_webhook_deliveries_due', columnNames: ['status', 'next_attempt_at'] },
        ],
        foreignKeys: [cascade('fk_webhook_deliveries_webhook', 'webhook_id', 'webhooks')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'webhook_attempts',
        columns: [
          id('id'),
          ref('delivery_id', 36),
          ref('webhook_id', 36),
          time('attempted_at'),
          { name: 'status_code', type: 'integer', isNullable: true },
          str('error', 500, true),
          { name: 'duration_ms', type: 'integer', isNullable: false },
        ],
        indices: [
          { name: 'idx_webhook_attempts_delivery', columnNames: ['delivery_id', 'attempted_at'] },
          { name: 'idx_webhook_attempts_webhook', columnNames: ['webhook_id', 'attempted_at'] },
        ],
        foreignKeys: [cascade('fk_webhook_attempts_delivery', 'delivery_id', 'webhook_deliveries')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) await queryRunner.dropTable(table);
  }
}
