import { Worker } from 'node:worker_threads';

/**
 * The benchmark's webhook receiver on 127.0.0.1, on its own thread: a real receiver never shares
 * the delivery service's event loop, and in-process it would add its own work to the latency it
 * measures. It answers 200 at once and reports, in batches, each request's path, arrival time and
 * (for the latency path) the payload id.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
let batch = [];
let sample = null;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const receivedAt = Date.now();
    const path = req.url.split('?')[0];
    let id = null;
    if (path === '/latency' || sample === null) {
      const body = Buffer.concat(chunks).toString('utf8');
      if (sample === null && path.startsWith('/fan/')) { sample = body; parentPort.postMessage({ sample }); }
      if (path === '/latency') id = JSON.parse(body).id;
    }
    batch.push([path, receivedAt, id]);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 60000;
setInterval(() => { if (batch.length) { parentPort.postMessage({ batch }); batch = []; } }, 10);
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

export interface BenchReceiver {
  url: string;
  /** Requests received so far on paths starting with `prefix`. */
  count(prefix: string): number;
  /** Arrival time per payload id on /latency. */
  latencyArrivals: Map<string, number>;
  /** The first body received on a /fan/ path. */
  sample(): string | undefined;
  close(): Promise<void>;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const worker = new Worker(SOURCE, { eval: true });
  const counts = new Map<string, number>();
  const latencyArrivals = new Map<string, number>();
  let sample: string | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { port?: number; sample?: string; batch?: [string, number, string | null][] }) => {
      if (message.port) resolve(message.port);
      if (message.sample) sample = message.sample;
      for (const [path, receivedAt, id] of message.batch ?? []) {
        const key = path.startsWith('/fan/') ? '/fan/' : path;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (id) latencyArrivals.set(id, receivedAt);
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    count: (prefix) => counts.get(prefix) ?? 0,
    latencyArrivals,
    sample: () => sample,
    close: async () => void (await worker.terminate()),
  };
}
