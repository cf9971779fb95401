import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const dir = process.env.IRS_E2E_TMPDIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
  const run = process.env.IRS_E2E_RUN_DIR;
  if (run) rmSync(run, { recursive: true, force: true });
}
