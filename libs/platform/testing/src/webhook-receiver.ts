import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received. */
  body: string;
  receivedAt: number;
}

/** What the receiver answers to one request on one path: a status, optionally after a delay. */
export type Behaviour = (request: ReceivedRequest, countOnPath: number) => { status: number; delayMs?: number };

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Requests to one path, in arrival order. */
  on(path: string): ReceivedRequest[];
  /** Sets how a path answers (default: 200 at once). */
  behave(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 for webhook tests and benchmarks. */
export async function startWebhookReceiver(options: { onRequest?: (request: ReceivedRequest) => void } = {}): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const request: ReceivedRequest = { path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      requests.push(request);
      options.onRequest?.(request);
      const count = (counts.get(path) ?? 0) + 1;
      counts.set(path, count);
      const behaviour: Behaviour = behaviours.get(path) ?? (() => ({ status: 200 }));
      const { status, delayMs } = behaviour(request, count);
      const answer = () => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
      };
      if (delayMs) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    on: (path) => requests.filter((r) => r.path === path),
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
