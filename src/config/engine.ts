/**
 * The database engine, decided by DATABASE_URL alone: `mysql://` or `mariadb://` is MySQL/MariaDB,
 * anything else (unset, `sqlite:`) the embedded database. AppConfig, the entity column types and the
 * SQL that differs between engines all ask here.
 */
export type Engine = 'mysql' | 'sqlite';

export function engineOf(databaseUrl: string | undefined): Engine {
  return databaseUrl !== undefined && /^(mysql|mariadb):\/\//i.test(databaseUrl.trim()) ? 'mysql' : 'sqlite';
}

/**
 * The engine of this process. Entity decorators run when their files are imported, before any
 * AppConfig exists, so the column types cannot wait for it; one process serves one engine.
 */
export const ENGINE: Engine = engineOf(process.env.DATABASE_URL);
