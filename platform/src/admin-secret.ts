// The operator secret for /admin/v1: FIELDOPS_ADMIN_SECRET, or one generated on first start and
// kept (mode 0600) in the data dir so it stays the same across restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function resolveAdminSecret(
  configured: string | undefined,
  dataDir: string,
): { secret: string; generated: boolean } {
  if (configured) return { secret: configured, generated: false };
  const file = join(dataDir, 'admin-secret');
  if (existsSync(file)) return { secret: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const secret = `foa_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { secret, generated: true };
}
