// Requests Node's HTTP parser refuses before the app sees them (bad header bytes, bad chunking,
// oversized headers) are answered in the JSON envelope with an X-Request-Id (issue 25), over a
// raw socket, since no HTTP client sends such bytes.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from './support/harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.stop());

/** Writes `bytes` on a fresh connection and reads until the server closes it. */
function exchange(bytes: string | Buffer): Promise<string> {
  const url = new URL(platform.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(body) as Record<string, unknown>,
  };
}

describe('parser-level refusals', () => {
  it.each([
    ['bad header bytes', 'GET /api/v1/me HTTP/1.1\r\nhost: localhost\r\nx-bad\u0001name: 1\r\n\r\n', 400],
    [
      'bad chunking',
      'POST /api/v1/leads HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      400,
    ],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n', 400],
    [
      'headers too large',
      `GET /api/v1/me HTTP/1.1\r\nhost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
    ],
  ])('answers %s in the envelope with an X-Request-Id', async (_what, bytes, status) => {
    const reply = parse(await exchange(bytes));
    expect(reply.status).toBe(status);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['x-request-id']).toMatch(/^req_/);
    expect(reply.body).toMatchObject({
      ok: false,
      code: 'invalid_body',
      retryable: false,
      error: expect.any(String),
    });
  });

  it('still answers well-formed requests', async () => {
    expect((await platform.anonymous.get('/openapi.json')).status).toBe(200);
  });
});
