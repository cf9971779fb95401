import { InitialSchema1763726400000 } from './1763726400000-initial-schema';

/** Listed explicitly (no glob) so the same history loads under tsc, SWC and the TypeORM CLI. */
export const migrations = [InitialSchema1763726400000];
