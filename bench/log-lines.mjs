// What a request did (its D1 statements, its ledger calls), read where an operator reads it: the
// request's structured log line (app/server/request-log.server.ts), as the tests read it
// (tests/integration/log-lines.ts). The site answers with nothing but the page; its line carries
// the answer's X-Request-Id. A site served with `logLevel: "log"` (scripts/serve-test-site.mjs)
// hands back everything wrangler printed, the Workers' lines among it.

/** The wrangler log level at which the Workers' info lines, the request lines among them, are printed. */
export const REQUEST_LINES_LOG_LEVEL = "log";

const WAIT_MS = 10_000;
const POLL_MS = 10;

/** The request line of request `id` in `text`, parsed, or null if it is not there (yet). */
function findRequestLine(text, id) {
  const key = `"requestId":${JSON.stringify(id)}`;
  // From the end: a request's line is among the last ones printed when it is looked for.
  for (let at = text.lastIndexOf(key); at !== -1; at = text.lastIndexOf(key, at - 1)) {
    const end = text.indexOf("\n", at);
    // A line still being written has no end yet: it is read on a later look.
    if (end === -1) continue;
    const line = text.slice(text.lastIndexOf("\n", at) + 1, end);
    const parsed = JSON.parse(line.slice(line.indexOf("{")));
    if (parsed.event === "request") return parsed;
  }
  return null;
}

/**
 * The request line of each answer (matched by its X-Request-Id), once wrangler has printed them all:
 * a line reaches wrangler's process a moment after its answer reaches the client.
 * @param {{ log: () => string }} site a site of serveTestSite, served at REQUEST_LINES_LOG_LEVEL
 * @param {string[]} ids the answers' X-Request-Id headers
 */
export async function requestLines(site, ids) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const text = site.log();
    const lines = ids.map((id) => findRequestLine(text, id));
    const missing = ids.filter((_, i) => lines[i] === null);
    if (missing.length === 0) return lines;
    if (Date.now() > deadline) {
      throw new Error(
        `No request line in the site's log for ${missing.join(", ")} after ${WAIT_MS} ms (is it served at log level "${REQUEST_LINES_LOG_LEVEL}"?)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** An answer's request id, which its log line carries. */
export function requestIdOf(response) {
  const id = response.headers.get("X-Request-Id");
  if (!id) throw new Error(`${response.url} answered without an X-Request-Id`);
  return id;
}
