import './src/config/load-env';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source-options';

// For the TypeORM CLI (npm run migration:run / migration:revert / migration:check). Built by the
// same function the app uses; migrationsRun is off because the CLI runs them itself, and it prints
// what each migration did.
export default new DataSource({ ...buildDataSourceOptions({ ...loadConfig(), migrationsRun: false }), logging: ['warn', 'migration'] });
