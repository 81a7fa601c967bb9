// A trace collector for tests: an HTTP server on 127.0.0.1 that accepts OTLP/HTTP JSON exports
// (POST /v1/traces, what @opentelemetry/exporter-trace-otlp-http sends) and keeps every span, with
// the `service.name` of the process that sent it. Real exports over a real socket, read back.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: number;
  /** The span's string and integer attributes. */
  attributes: Record<string, string | number>;
}

export interface OtlpCollector {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans(): CollectedSpan[];
  /** Exports that could not be read as OTLP JSON (each answered 400). */
  refused(): number;
  close(): Promise<void>;
}

interface KeyValue {
  key: string;
  value?: { stringValue?: string; intValue?: number | string };
}
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: KeyValue[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

/** OTLP JSON ids are hex; a base64 id (the protobuf JSON mapping) is turned into hex too. */
const hexId = (id: string | undefined): string =>
  !id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number> {
  const attributes: Record<string, string | number> = {};
  for (const { key, value } of list ?? []) {
    if (value?.stringValue !== undefined) attributes[key] = value.stringValue;
    else if (value?.intValue !== undefined) attributes[key] = Number(value.intValue);
  }
  return attributes;
}

function spansOf(body: OtlpExport): CollectedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service =
      resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value
        ?.stringValue ?? '';
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        name: span.name ?? '',
        traceId: hexId(span.traceId),
        spanId: hexId(span.spanId),
        parentSpanId: hexId(span.parentSpanId),
        kind: span.kind ?? 0,
        attributes: attributesOf(span.attributes),
      })),
    );
  });
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  let refused = 0;
  const server: Server = createServer((req, res) => {
    void bodyOf(req).then((text) => {
      const json = (req.headers['content-type'] ?? '').includes('json');
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !json) {
        refused += 1;
        res.writeHead(400).end();
        return;
      }
      try {
        spans.push(...spansOf(JSON.parse(text) as OtlpExport));
      } catch {
        refused += 1;
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits, polling, until `found` holds of the collected spans; fails with what was collected. */
export async function spansUntil(
  collector: OtlpCollector,
  found: (spans: CollectedSpan[]) => boolean,
  timeoutMs = 60_000,
): Promise<CollectedSpan[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const spans = collector.spans();
    if (found(spans)) return spans;
    if (Date.now() > until) {
      const seen = spans.map((s) => `${s.service}:${s.name}:${s.traceId.slice(0, 8)}`).join(', ');
      throw new Error(`the spans looked for did not arrive within ${timeoutMs} ms; collected: ${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
