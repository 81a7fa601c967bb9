// One delivery attempt: POST the body to the subscriber's URL and report what came back. The
// connection goes through the SSRF guard unless the operator allows private targets; redirects
// are not followed (a redirect is a failed attempt), so a public URL cannot bounce us inward.
// An attempt has one total deadline, from the connect to the end of the answer (not an idle
// timeout: a target that drips a header byte at a time is cut off at the deadline all the same),
// and the answer's status line and headers may be at most maxHeaderBytes.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import {
  guardedLookup,
  hostOf,
  isPrivateAddress,
  refusedTargetMessage,
} from '../subscriptions/target-address.ts';

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
  /** The attempt's total deadline. */
  timeoutMs: number;
  maxHeaderBytes: number;
  allowPrivate: boolean;
}

const ERROR_TEXT_LIMIT = 300;

const deadlineError = (timeoutMs: number) =>
  new Error(`No complete answer within the ${timeoutMs} ms deadline of an attempt; cut off.`);

/** POSTs and waits for the status and headers; the request is destroyed at the deadline, whatever it is doing. */
function post(options: SendOptions, deadline: { fire: (cut: () => void) => void }): Promise<IncomingMessage> {
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
      maxHeaderSize: options.maxHeaderBytes,
      ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
    });
    deadline.fire(() => req.destroy(deadlineError(options.timeoutMs)));
    req.on('response', resolve);
    req.on('error', (error: Error & { code?: string }) =>
      reject(
        error.code === 'HPE_HEADER_OVERFLOW'
          ? new Error(`The answer's headers exceed ${options.maxHeaderBytes} bytes; not read.`)
          : error,
      ),
    );
    req.end(options.body);
  });
}

/** Reads the answer's body away (it is not ours to keep), until its end or the deadline. */
const drained = (res: IncomingMessage): Promise<void> =>
  new Promise((resolve) => {
    res.on('end', resolve);
    res.on('close', resolve);
    res.on('error', () => resolve());
    res.resume();
  });

export async function sendAttempt(options: SendOptions): Promise<AttemptResult> {
  const started = Date.now();
  let cut: (() => void) | undefined;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    cut?.();
  }, options.timeoutMs);
  try {
    const res = await post(options, { fire: (fn) => (cut = fn) });
    // A body dripped past the deadline is cut too; the status already counts.
    cut = () => res.destroy();
    if (timedOut) res.destroy();
    await drained(res);
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
    const message = timedOut
      ? deadlineError(options.timeoutMs).message
      : error instanceof Error
        ? error.message
        : String(error);
    return { statusCode: 0, error: message.slice(0, ERROR_TEXT_LIMIT), durationMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
