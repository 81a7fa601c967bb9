// How long client page links live, from FIELDOPS_CLIENT_PAGE_TTL_SECONDS (default 14 days). Read
// once at start; a bad value stops the start naming the variable, like the rest of the config.
import { ConfigError } from '@fieldops/kit';
import { DEFAULT_PAGE_LINK_TTL_MS } from './page-links.ts';

export const PAGE_LINK_TTL_VARIABLE = 'FIELDOPS_CLIENT_PAGE_TTL_SECONDS';

export function pageLinkTtlFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[PAGE_LINK_TTL_VARIABLE]?.trim();
  if (!raw) return DEFAULT_PAGE_LINK_TTL_MS;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new ConfigError([
      `${PAGE_LINK_TTL_VARIABLE} must be a whole number of seconds, at least 1 (got "${raw}")`,
    ]);
  }
  return seconds * 1000;
}
