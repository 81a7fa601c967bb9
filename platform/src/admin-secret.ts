// The operator secret for /admin/v1: FIELDOPS_ADMIN_SECRET, or one generated on first start and
// kept (mode 0600, in a 0700 data dir) so it stays the same across restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDirSync, PRIVATE_FILE_MODE, tightenTreeSync } from '@fieldops/kit/process';

export function resolveAdminSecret(
  configured: string | undefined,
  dataDir: string,
): { secret: string; generated: boolean } {
  if (configured) return { secret: configured, generated: false };
  const file = join(dataDir, 'admin-secret');
  makePrivateDirSync(dataDir);
  if (existsSync(file)) {
    tightenTreeSync(file);
    return { secret: readFileSync(file, 'utf8').trim(), generated: false };
  }
  const secret = `foa_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${secret}\n`, { mode: PRIVATE_FILE_MODE });
  return { secret, generated: true };
}
