// A local stand-in for Cloudflare's edge in front of a local site: it compresses text with brotli or
// gzip and, with `http2`, speaks HTTP/2 over TLS (a self-signed certificate that Chromium is told
// to trust by its key's hash). `vite preview` and `wrangler dev` do neither, and Lighthouse's
// figures depend on both (docs/decisions/0016-lighthouse-and-compression.md). Used by
// `npm run lighthouse` (scripts/lighthouse.mjs) and `npm run bench` (bench/run.mjs).
import { spawnSync } from "node:child_process";
import { createHash, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import zlib from "node:zlib";

// What Cloudflare compresses (text and structured text); fonts and images are compressed already.
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json|rss\+xml|atom\+xml)|image\/svg\+xml)/;

function pickEncoding(acceptEncoding = "") {
  const accepted = acceptEncoding
    .toLowerCase()
    .split(",")
    .map((part) => part.trim().split(";"))
    .filter(([, q]) => !q || Number(q.split("=")[1]) > 0)
    .map(([name]) => name.trim());
  if (accepted.includes("br")) return "br";
  if (accepted.includes("gzip")) return "gzip";
  return null;
}

function compressor(encoding) {
  // Flushed per chunk: a streamed page (React's shell first, deferred data later) reaches the
  // browser as it is written, as through the edge. Brotli at 5, about what the edge uses for
  // dynamic answers; 11 would cost seconds per page.
  return encoding === "br"
    ? zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
    : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: 6 });
}

// The system's openssl (Debian's, as Chromium is), not a package of the project.
const OPENSSL = "openssl";

// The certificate of the local HTTPS proxy: self-signed for localhost, made once per run.
function selfSignedCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "modelify-lighthouse-"));
  const result = spawnSync(
    OPENSSL,
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-keyout",
      `${dir}/key.pem`,
      "-out",
      `${dir}/cert.pem`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  if (result.status !== 0) throw new Error(`openssl could not make a certificate: ${result.stderr}`);
  const pair = { key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/cert.pem`) };
  rmSync(dir, { recursive: true, force: true });
  // Chromium trusts a certificate whose public key hash it is given (--ignore-certificate-errors-spki-list).
  const spki = createHash("sha256")
    .update(createPublicKey(pair.cert).export({ type: "spki", format: "der" }))
    .digest("base64");
  return { ...pair, spki };
}

// Hop-by-hop headers: they describe one connection, and HTTP/2 forbids them.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"]);

/**
 * A reverse proxy in front of `target` (e.g. http://localhost:8787) that compresses text answers
 * with brotli or gzip as the request's Accept-Encoding allows, streaming, with Vary:
 * Accept-Encoding. With `http2`, it speaks HTTP/2 over TLS with a throwaway self-signed
 * certificate, as the edge does; `chromeFlags` then make Chromium trust that certificate.
 * Resolves to { url, chromeFlags, close }.
 */
export function startCompressingProxy(target, { port = 0, http2: useHttp2 = false } = {}) {
  const upstream = new URL(target);
  const handler = (req, res) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith(":") && !HOP_BY_HOP.has(name)));
    headers.host = req.headers[":authority"] ?? req.headers.host;
    const proxied = http.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      const out = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      const type = String(out["content-type"] ?? "");
      const bodyless = req.method === "HEAD" || answer.statusCode === 204 || answer.statusCode === 304;
      const encoding = !bodyless && !out["content-encoding"] && COMPRESSIBLE.test(type) ? pickEncoding(req.headers["accept-encoding"]) : null;
      if (COMPRESSIBLE.test(type)) {
        const vary = String(out.vary ?? "");
        if (!/accept-encoding/i.test(vary)) out.vary = vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
      }
      if (encoding) {
        delete out["content-length"];
        out["content-encoding"] = encoding;
      }
      res.writeHead(answer.statusCode, out);
      (encoding ? answer.pipe(compressor(encoding)) : answer).pipe(res);
    });
    proxied.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(proxied);
  };
  const tls = useHttp2 ? selfSignedCertificate() : null;
  const server = tls ? http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, handler) : http.createServer(handler);
  const sessions = new Set();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  // WebSockets (the usage tab's live totals), which Chromium opens over HTTP/1.1 and the edge passes
  // through: the upgrade goes upstream as it came, then bytes flow both ways untouched.
  const tunnels = new Set();
  server.on("upgrade", (req, socket, head) => {
    tunnels.add(socket);
    socket.on("close", () => tunnels.delete(socket));
    const proxied = http.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers });
    proxied.on("upgrade", (answer, upstreamSocket, upstreamHead) => {
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (upstreamHead.length) socket.write(upstreamHead);
      if (head.length) upstreamSocket.write(head);
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
      upstreamSocket.on("error", () => socket.destroy());
      socket.on("error", () => upstreamSocket.destroy());
      socket.on("close", () => upstreamSocket.destroy());
    });
    proxied.on("response", (answer) => {
      socket.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      answer.resume();
    });
    proxied.on("error", () => socket.destroy());
    proxied.end();
  });
  return new Promise((resolvePromise, reject) => {
    server.on("error", reject);
    server.listen(port, "localhost", () => {
      resolvePromise({
        url: `${tls ? "https" : "http"}://localhost:${server.address().port}`,
        chromeFlags: tls ? [`--ignore-certificate-errors-spki-list=${tls.spki}`] : [],
        close: () =>
          new Promise((done) => {
            for (const session of sessions) session.destroy();
            for (const tunnel of tunnels) tunnel.destroy();
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
