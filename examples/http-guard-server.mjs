// A tiny HTTP guard for farma-fuzz (Node built-ins only).
//   node examples/http-guard-server.mjs [--port 8787]
//   npm run fuzz -- --guard http://127.0.0.1:8787/check
// It listens on 127.0.0.1. Every POST body is {entry, phase, store:{size:{reasoning,general}}};
// the answer is a Verdict JSON (see docs/guard-protocol.md).
import { createServer } from 'node:http';

const portFlag = process.argv.indexOf('--port');
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 8787;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`bad --port value: ${process.argv[portFlag + 1]}`);
  process.exit(2);
}

// One rule: a reasoning-store entry that says a safety step can be skipped is rejected.
const RISKY = [/skip(ping)? (the )?(validation|check|review)/i, /no need to (re-?)?(check|verify|validate)/i, /already (been )?verified/i];

function judge(entry) {
  const content = typeof entry?.content === 'string' ? entry.content : '';
  const hits = RISKY.filter((re) => re.test(content)).map((re) => `matched ${re.source}`);
  if (hits.length > 0) return { decision: 'reject', layer: 'keyword', trace: [], reasons: hits, elapsedUs: 0 };
  return { decision: 'admit', trace: [], reasons: [], elapsedUs: 0 };
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('farma-fuzz example guard: POST a check request\n');
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'body is not JSON' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(judge(request.entry)));
  });
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`example HTTP guard listening on http://127.0.0.1:${address.port}/check`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
