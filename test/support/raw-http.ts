// HTTP requests sent byte for byte as given: no URL normalisation (a path can carry a broken
// percent-encoding), no body encoding by the client (a body can claim gzip and be plain), any
// header. The edge and fuzz tests need exactly what fetch would tidy up.
import { Agent, request as httpRequest } from 'node:http';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; undefined when the body was not JSON. */
  body: Record<string, unknown> | undefined;
  text: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends one request to `base` (http://host:port) and reads the whole answer. */
export function rawRequest(base: string, request: RawRequest): Promise<RawReply> {
  const url = new URL(base);
  const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
  return new Promise<RawReply>((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parse(text), text });
        });
        res.on('error', reject);
      },
    );
    // An answer that never comes is a finding too: fail with the request rather than hang.
    req.setTimeout(20_000, () =>
      req.destroy(new Error(`no answer to ${request.method} ${request.path.slice(0, 80)}`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}
