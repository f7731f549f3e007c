// Preloaded (node --require) into the RPC_INSECURE system by bench:auth-overhead when
// BENCH_BASELINE_NOISE is `tls` or `tcp`: a loopback echo of its own inside that process, a
// 200-byte message every 2 ms over one socket class (TLS or plain TCP). With `tls` the insecure
// system carries TLS sockets as the mutual-TLS system does, though its RPC stays plain; with `tcp`
// the same traffic without them. Comparing the two runs separates what the mere presence of TLS
// sockets costs the process from what the RPC transport does. The certificate is made with the
// openssl command.
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const net = require('node:net');
const tls = require('node:tls');

const kind = process.env.BENCH_BASELINE_NOISE === 'tls' ? 'tls' : 'tcp';
const dir = mkdtempSync(join(tmpdir(), 'bench-noise-'));
execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
const key = readFileSync(join(dir, 'key.pem'));
const cert = readFileSync(join(dir, 'cert.pem'));
rmSync(dir, { recursive: true, force: true });

const onConnection = (socket) => socket.on('data', (data) => socket.write(data));
const server = kind === 'tls' ? tls.createServer({ key, cert }, onConnection) : net.createServer(onConnection);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const socket = kind === 'tls' ? tls.connect({ port, host: '127.0.0.1', ca: cert, servername: 'localhost' }) : net.connect(port, '127.0.0.1');
  socket.on('data', () => undefined);
  const message = Buffer.alloc(200, 120);
  setInterval(() => socket.write(message), 2).unref();
  socket.unref();
  server.unref();
});
