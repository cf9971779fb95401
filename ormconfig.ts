import './src/config/load-env';
import { extname, join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source-options';

// For the TypeORM CLI (npm run migration:run / migration:revert / migration:check). Built by the
// same function the app uses; migrationsRun is off because the CLI runs them itself, and it prints
// what each migration did. The CLI has no Nest modules to register entities: it finds them, and the
// migrations, by file name next to this file (dist/ once built, so .js there). Migrations by their
// timestamp prefix, so that migrations/index lists none of them twice.
const ext = extname(__filename);
export default new DataSource({
  ...buildDataSourceOptions({ ...loadConfig(), migrationsRun: false }),
  entities: [join(__dirname, 'src', '**', `*.entity${ext}`)],
  migrations: [join(__dirname, 'src', 'database', 'migrations', `[0-9]*${ext}`)],
  logging: ['warn', 'migration'],
});
