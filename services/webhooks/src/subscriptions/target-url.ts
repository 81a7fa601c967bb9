// Validates a subscription's target URL when it is saved: http(s), no credentials in it, and
// (unless the operator allows private targets) a host that resolves only to public addresses.
import { AppError } from '@fieldops/kit';
import { hostOf, isPrivateAddress, refusedTargetMessage, resolveHost } from './target-address.ts';

const invalid = (message: string): AppError => new AppError('field_invalid', message, { field: 'url' });

function parse(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(`url must be an absolute http or https URL; "${raw.slice(0, 200)}" is not one.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid(`url must use https (or http); ${url.protocol.replace(':', '')} is not accepted.`);
  }
  if (url.username || url.password) {
    throw invalid('url must not carry a user name or password; deliveries are signed instead.');
  }
  return url;
}

/** The URL as it will be stored, or a field_invalid error naming what is wrong with it. */
export async function checkTargetUrl(raw: string, options: { allowPrivate: boolean }): Promise<string> {
  const url = parse(raw.trim());
  if (options.allowPrivate) return url.toString();
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch {
    throw invalid(`The host ${host} of url could not be resolved; check the name and try again.`);
  }
  // The refusal names the host as written, never the address it resolved to (see
  // refusedTargetMessage).
  if (addresses.some(isPrivateAddress)) throw invalid(`url: ${refusedTargetMessage(host)}`);
  return url.toString();
}
