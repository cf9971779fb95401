import '../config/load-env';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '../config/app-config';
import { hasEdgeWhitespace } from '../common/validation';
import { ConfigError } from '../config/config-error';
import { buildDataSourceOptions } from '../database/data-source-options';
import { ApiToken } from './api-token.entity';
import { TokensService } from './tokens.service';

const USAGE = `Usage:
  npm run token -- create --org <orgID> [--user <userID>] [--name <label>]
  npm run token -- create --user <userID> [--name <label>]
  npm run token -- create --admin [--name <label>]
  npm run token -- list
  npm run token -- revoke <id>

Reads DATABASE_URL like the server (unset: the embedded database under ./data).`;

export class UsageError extends Error {}

export interface ParsedArgs {
  command: 'create' | 'list' | 'revoke';
  org?: string;
  user?: string;
  name?: string;
  admin: boolean;
  id?: string;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const [command, ...rest] = argv;
  if (command !== 'create' && command !== 'list' && command !== 'revoke') throw new UsageError(USAGE);
  const parsed: ParsedArgs = { command, admin: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = (): string => {
      const v = rest[++i];
      if (v === undefined || v.startsWith('--') || v.trim() === '' || v.length > 100) throw new UsageError(`${arg} needs a value (1 to 100 characters)\n\n${USAGE}`);
      return v;
    };
    const id = (): string => {
      const v = value();
      if (hasEdgeWhitespace(v)) throw new UsageError(`${arg} must not start or end with whitespace: identifiers are compared exactly\n\n${USAGE}`);
      return v;
    };
    if (arg === '--org') parsed.org = id();
    else if (arg === '--user') parsed.user = id();
    else if (arg === '--name') parsed.name = value();
    else if (arg === '--admin') parsed.admin = true;
    else if (command === 'revoke' && parsed.id === undefined && !arg.startsWith('--')) parsed.id = arg;
    else throw new UsageError(`unexpected argument "${arg}"\n\n${USAGE}`);
  }
  if (command === 'create' && !parsed.admin && !parsed.org && !parsed.user) {
    throw new UsageError(`create needs --org and/or --user, or --admin\n\n${USAGE}`);
  }
  if (command === 'create' && parsed.admin && (parsed.org || parsed.user)) {
    throw new UsageError(`an admin token sees everything: --admin takes no --org or --user\n\n${USAGE}`);
  }
  if (command === 'revoke' && !parsed.id) throw new UsageError(`revoke needs the token's id (see list)\n\n${USAGE}`);
  return parsed;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const config: AppConfig = loadConfig();
  const dataSource = new DataSource({ ...buildDataSourceOptions(config), entities: [ApiToken], logging: ['error'] });
  await dataSource.initialize();
  try {
    const service = new TokensService(dataSource.getRepository(ApiToken), config);
    if (args.command === 'create') {
      const { id, token } = await service.create({ isAdmin: args.admin, orgID: args.org, userID: args.user, name: args.name });
      const scope = args.admin ? 'admin' : [args.org && `org ${args.org}`, args.user && `user ${args.user}`].filter(Boolean).join(', ');
      process.stdout.write(`Created token ${id} (${scope}). It is shown only this once:\n${token}\n`);
    } else if (args.command === 'list') {
      const rows = await service.list();
      if (rows.length === 0) process.stdout.write('No tokens.\n');
      for (const t of rows) {
        const scope = t.isAdmin ? 'admin' : [t.orgID && `org=${t.orgID}`, t.userID && `user=${t.userID}`].filter(Boolean).join(' ');
        process.stdout.write(`${t.id}  ${t.revokedAt ? 'revoked' : 'active '}  ${scope}  ${t.name ?? ''}  created ${t.createdAt}\n`);
      }
    } else {
      await service.revoke(args.id!);
      process.stdout.write(`Revoked token ${args.id}. Running servers stop accepting it within TOKEN_CACHE_TTL_SECONDS (default 30 s).\n`);
    }
  } finally {
    await dataSource.destroy();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    const status = (error as { status?: number }).status;
    process.stderr.write(`${status === 404 ? '' : 'token: '}${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
