// `npm run bench -- --export-traces`: an OTLP/HTTP JSON receiver on 127.0.0.1 in the load process,
// so the servers process exports its recorded spans over a real socket, as it would to a collector
// beside it, and the bench can say how many arrived. It counts and drops: the cost being measured
// is the exporting process's (recording, batching, serialising, sending), not a collector's.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Spans received so far, and the export requests that carried them. */
  received(): { spans: number; exports: number };
  close(): Promise<void>;
}

interface OtlpExport {
  resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[];
}

const spansIn = (body: OtlpExport): number =>
  (body.resourceSpans ?? []).reduce(
    (sum, resource) =>
      sum + (resource.scopeSpans ?? []).reduce((inner, scope) => inner + (scope.spans?.length ?? 0), 0),
    0,
  );

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  let spans = 0;
  let exports = 0;
  const server = createServer((req, res) => {
    bodyOf(req)
      .then((text) => {
        spans += spansIn(JSON.parse(text) as OtlpExport);
        exports += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      })
      .catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => ({ spans, exports }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
