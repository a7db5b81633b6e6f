// Peer "raw": node:http and ioredis with nothing in front of the product's repositories and
// scripts: POST /op/<operation> with the variables as the JSON body, bearer token checked, the
// result as JSON. No framework, no GraphQL: the limit for this work in one Node process.
import http from 'node:http';
import { AppError } from '../../src/common/errors';
import { openBackend } from './backend';

function reply(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function main(): Promise<void> {
  const backend = await openBackend();
  const { operations } = backend;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') return reply(res, 200, { status: 'ok' });
    const name = req.method === 'POST' && req.url?.startsWith('/op/') ? req.url.slice(4) : '';
    if (!Object.hasOwn(operations, name)) return reply(res, 404, { error: 'NOT_FOUND' });
    const operation = operations[name as keyof typeof operations];
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      (async () => {
        const caller = backend.principalOf(req.headers.authorization);
        reply(res, 200, { data: await operation(caller, JSON.parse(Buffer.concat(chunks).toString()) as object) });
      })().catch((error: unknown) => {
        if (error instanceof AppError) reply(res, 400, { error: error.code, message: error.message });
        else reply(res, 500, { error: 'INTERNAL_SERVER_ERROR', message: String(error) });
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  // Node's default on SIGTERM (ServerProcess.stop) ends the process at once.
  server.listen(Number(process.env.PORT), '127.0.0.1');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
