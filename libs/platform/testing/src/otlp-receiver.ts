import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One span as received over OTLP/HTTP, flattened with its resource and scope. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  serviceName: string;
  scope: string;
  attributes: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** Base URL, as for OTEL_EXPORTER_OTLP_ENDPOINT (traces arrive at /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Headers of every export request, in arrival order. */
  requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

/** OTLP/JSON ids are hex; base64 is accepted too, as some encoders send it. */
function hexId(id: unknown): string {
  if (typeof id !== 'string' || !id) return '';
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

function attributes(list: { key: string; value: AnyValue }[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? ''));
  }
  return out;
}

/**
 * A real OTLP/HTTP trace receiver on 127.0.0.1 for tests: accepts POST /v1/traces in the JSON
 * encoding (what the OTLP/HTTP exporter sends) and keeps the spans.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      requests.push(req.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: {
          resource?: { attributes?: { key: string; value: AnyValue }[] };
          scopeSpans?: { scope?: { name?: string }; spans?: Record<string, unknown>[] }[];
        }[];
      };
      for (const rs of body.resourceSpans ?? []) {
        const serviceName = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? []) {
          for (const span of ss.spans ?? []) {
            spans.push({
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              parentSpanId: hexId(span.parentSpanId),
              name: String(span.name),
              kind: Number(span.kind ?? 0),
              serviceName,
              scope: ss.scope?.name ?? '',
              attributes: attributes(span.attributes as { key: string; value: AnyValue }[]),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
