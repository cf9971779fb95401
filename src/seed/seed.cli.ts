import '../config/load-env';
import { NestFactory } from '@nestjs/core';
import { SingleBar, Presets } from 'cli-progress';
import { Logger } from 'nestjs-pino';
import { loadConfig } from '../config/app-config';
import { ConfigError } from '../config/config-error';
import { SeedModule } from './seed.module';
import { DEFAULT_SEED, SeedOptions, SeedProgress, SeedService } from './seed.service';

const USAGE = `Usage: npm run seed -- [options]

Fills the configured database (DATABASE_URL, or the embedded one) with demo data and prints
tokens that see it. Every run adds a new dataset; it never changes or removes existing rows.

  --orgs N         organizations (default ${DEFAULT_SEED.orgs})
  --users N        users owning products (default ${DEFAULT_SEED.users})
  --products N     products, spread over the organizations (default ${DEFAULT_SEED.products})
  --interviews N   interviews per product (default ${DEFAULT_SEED.interviews})
  --invites N      invites per interview, in every status (default ${DEFAULT_SEED.invites})
  --turns N        answers given in an interview still under way (default ${DEFAULT_SEED.turns})
  --profiles N     profiles per product (default ${DEFAULT_SEED.profiles})
  --seed N         random seed, for repeatable data (default ${DEFAULT_SEED.seed})
  --prefix TEXT    prefix of the demo org and user ids (default "${DEFAULT_SEED.prefix}")`;

const LIMITS: Record<string, [number, number]> = {
  orgs: [0, 10_000],
  users: [0, 100_000],
  products: [0, 1_000_000],
  interviews: [0, 100],
  invites: [0, 10_000],
  turns: [0, 100],
  profiles: [0, 100],
  seed: [0, 2 ** 31],
};

export class UsageError extends Error {}

export function parseSeedArgs(argv: string[]): SeedOptions {
  const options: SeedOptions = { ...DEFAULT_SEED };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const name = flag.replace(/^--/, '');
    if (flag === '--help' || flag === '-h') throw new UsageError(USAGE);
    const value = argv[++i];
    if (name === 'prefix') {
      if (!value || !/^[A-Za-z0-9_-]{1,40}$/.test(value)) throw new UsageError(`--prefix needs 1 to 40 letters, digits, - or _\n\n${USAGE}`);
      options.prefix = value;
      continue;
    }
    const limits = LIMITS[name];
    if (!flag.startsWith('--') || !limits) throw new UsageError(`unknown option "${flag}"\n\n${USAGE}`);
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < limits[0] || Number(value) > limits[1]) {
      throw new UsageError(`${flag} needs a whole number from ${limits[0]} to ${limits[1]}\n\n${USAGE}`);
    }
    (options as unknown as Record<string, number>)[name] = Number(value);
  }
  if (options.products > 0 && options.orgs === 0 && options.users === 0) throw new UsageError('products need --orgs or --users of at least 1');
  return options;
}

function progressBar(): SeedProgress {
  let bar: SingleBar | undefined;
  return {
    start(total, what) {
      bar = new SingleBar({ format: `  ${what.padEnd(17)} [{bar}] {percentage}% {value}/{total} {duration_formatted}`, noTTYOutput: true, notTTYSchedule: 5000, stream: process.stderr }, Presets.shades_classic);
      bar.start(total, 0);
    },
    tick(n = 1) {
      bar?.increment(n);
    },
    stop() {
      bar?.stop();
    },
  };
}

/**
 * Where to try the data. The seed does not know the port the service was started with, only this
 * shell's PORT: it asks /health there, and says so when nothing answers rather than print a URL that
 * leads nowhere.
 */
export async function tryHint(port: number, orgID: string): Promise<string> {
  const base = `http://localhost:${port}`;
  const curl = `curl -H "Authorization: Bearer <token>" "${base}/v1/products/getList?orgID=${orgID}"`;
  const answers = await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) }).then(
    (res) => res.status === 200 || res.status === 503,
    () => false,
  );
  if (answers) return `The service is running at ${base}: open ${base}/docs, or try:\n  ${curl}\n`;
  return (
    `No service answers at ${base} (PORT of this shell: ${port}). Start it with npm start, then open ${base}/docs, or try:\n  ${curl}\n` +
    'If the service listens on another port, put that one in these URLs.\n'
  );
}

async function main(): Promise<void> {
  const options = parseSeedArgs(process.argv.slice(2));
  // Warnings and errors only, unless LOG_LEVEL says otherwise: the progress bars tell the story.
  const env = loadConfig().env;
  const config = loadConfig({ LOG_LEVEL: 'warn', ...env });
  const app = await NestFactory.createApplicationContext(SeedModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  try {
    const started = Date.now();
    process.stderr.write(`Seeding the ${config.database.kind === 'sqlite' ? `embedded database (${config.database.path})` : 'MySQL/MariaDB database'}...\n`);
    const result = await app.get(SeedService).run(options, progressBar());
    const fromInterviews = result.profiles - result.importedProfiles;
    process.stdout.write(
      `\nSeeded in ${((Date.now() - started) / 1000).toFixed(1)} s: ${result.products} products, ${result.interviews} interviews, ` +
        `${result.invites} invites (${result.completed} interviews conducted to the end in the room), ${result.profiles} profiles ` +
        `(${fromInterviews} from those interviews, ${result.importedProfiles} imported) across ${result.orgIDs.join(', ') || 'users only'}.\n\n` +
        `Admin token (sees everything), shown only this once:\n  ${result.adminToken}\n` +
        `Token scoped to ${result.orgIDs[0] ?? 'the first demo user'}:\n  ${result.orgToken}\n\n` +
        (await tryHint(config.port, result.orgIDs[0] ?? '')),
    );
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
