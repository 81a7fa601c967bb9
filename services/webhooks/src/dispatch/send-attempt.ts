// One delivery attempt: POST the body to the subscriber's URL and report what came back. The
// connection goes through the SSRF guard unless the operator allows private targets; redirects
// are not followed (a redirect is a failed attempt), so a public URL cannot bounce us inward.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import {
  guardedLookup,
  hostOf,
  isPrivateAddress,
  refusedTargetMessage,
} from '../subscriptions/target-address.js';

export interface AttemptResult {
  /** 0 when no HTTP answer came. */
  statusCode: number;
  retryAfter?: string;
  error?: string;
  durationMs: number;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

const ERROR_TEXT_LIMIT = 300;

function post(options: SendOptions): Promise<IncomingMessage> {
  const url = new URL(options.url);
  const host = hostOf(url);
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
    return Promise.reject(new Error(`${refusedTargetMessage(host)} Not delivered.`));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      timeout: options.timeoutMs,
      ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
    });
    req.on('response', resolve);
    req.on('timeout', () => req.destroy(new Error(`No answer within ${options.timeoutMs} ms.`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

export async function sendAttempt(options: SendOptions): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const res = await post(options);
    // The answer's body is not ours to keep; read it to free the socket.
    res.resume();
    const statusCode = res.statusCode ?? 0;
    const retryAfter = res.headers['retry-after'];
    const ok = statusCode >= 200 && statusCode < 300;
    return {
      statusCode,
      ...(retryAfter ? { retryAfter } : {}),
      ...(ok ? {} : { error: `HTTP ${statusCode}` }),
      durationMs: Date.now() - started,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { statusCode: 0, error: message.slice(0, ERROR_TEXT_LIMIT), durationMs: Date.now() - started };
  }
}
