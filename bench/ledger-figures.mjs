// The usage ledger bench's figures (bench/ledger.mjs): the requests it sends, the rollup in D1 it
// watches, and its three measurements (the pages by ledger size, the consumer, the dashboard under
// other accounts' load).
import { readdirSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { signInCookie } from "../scripts/lighthouse.mjs";
import {
  DRAIN_TIMEOUT_MS,
  INGESTERS,
  LARGE_LOGIN,
  LOAD_SLICES,
  MIX_REQUESTS,
  MIXERS,
  PAGE_REQUESTS,
  SIZED_PAGES,
  PASSWORD,
  reports,
  SLICE_MS,
  SMALL_LOGIN,
  WATCHED,
} from "./ledger-accounts.mjs";
import { fetchRetry } from "./load.mjs";
import { requestIdOf, requestLines } from "./log-lines.mjs";

// ---------------------------------------------------------------------------------------------
// The rollup in D1

/** The local D1 database, read directly (read-only) to see what the consumer wrote. */
export function openD1(stateDir) {
  const dir = `${stateDir}/v3/d1/miniflare-D1DatabaseObject`;
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  return new DatabaseSync(`${dir}/${file}`, { readOnly: true });
}

/**
 * Reports in the accounts' ledgers, as the consumer wrote them to the cross-account rollup in D1
 * right after each ledger call: each row is a ledger's absolute day total (newest version wins).
 */
function ledgerRows(db, accounts) {
  const ids = accounts.map((a) => a.id);
  return Number(db.prepare(`SELECT coalesce(sum(requests), 0) AS n FROM usage_rollup WHERE user_id IN (${ids.map(() => "?").join(", ")})`).get(...ids).n);
}

/** Waits until the accounts' ledgers hold `target` reports; resolves to whether they did in time. */
export async function until(db, accounts, target, timeoutMs = DRAIN_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ledgerRows(db, accounts) >= target) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Requests

export async function token(base, email) {
  const r = await fetchRetry(`${base}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.201" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!r.ok) throw new Error(`token for ${email}: ${r.status} ${await r.text()}`);
  return (await r.json()).access_token;
}

/** One request of 100 reports; resolves to the status. */
export async function postReports(base, accessToken) {
  const r = await fetchRetry(`${base}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ reports: reports() }),
  });
  await r.arrayBuffer();
  return r.status;
}

/**
 * One signed-in page view: milliseconds until the whole page was read. `ids`, if given, collects
 * the view's request id, by which its log line says what the Worker did (its ledger calls).
 */
export async function pageMs(base, cookie, path, ids) {
  const started = performance.now();
  const r = await fetchRetry(`${base}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
  await r.text();
  const ms = performance.now() - started;
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
  ids?.push(requestIdOf(r));
  return ms;
}

/** The median of `values` (the mean of the two middles when their number is even). */
export const p50 = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---------------------------------------------------------------------------------------------
// Figures

/** Figure 1: both pages for both accounts, in turn, PAGE_REQUESTS times; p50 of each. */
export async function pagesBySize(base) {
  const cookies = { large: await signInCookie(base, LARGE_LOGIN), small: await signInCookie(base, SMALL_LOGIN) };
  const paths = await sizedPaths(base, cookies);
  const times = Object.fromEntries(SIZED_PAGES.flatMap((page) => ["small", "large"].map((size) => [`${page.key}.${size}`, []])));
  for (let i = 0; i < PAGE_REQUESTS; i++) {
    for (const page of SIZED_PAGES) {
      for (const size of ["small", "large"]) times[`${page.key}.${size}`].push(await pageMs(base, cookies[size], paths[page.key][size]));
    }
  }
  const out = {};
  for (const page of SIZED_PAGES) {
    const small = p50(times[`${page.key}.small`]);
    const large = p50(times[`${page.key}.large`]);
    out[page.key] = { small, large, ratio: large / small };
  }
  return out;
}

/**
 * Figure 1's views again, untimed, for what each did: the ledger calls of every view (from their
 * log lines), per page, as "1" or "1, 2" when views differ.
 * @param {{ baseUrl: string, log: () => string }} site served at REQUEST_LINES_LOG_LEVEL
 */
export async function ledgerCallsPerView(site) {
  const base = site.baseUrl;
  const cookies = { large: await signInCookie(base, LARGE_LOGIN), small: await signInCookie(base, SMALL_LOGIN) };
  const paths = await sizedPaths(base, cookies);
  const ids = Object.fromEntries(SIZED_PAGES.map((page) => [page.key, []]));
  for (let i = 0; i < PAGE_REQUESTS; i++) {
    for (const page of SIZED_PAGES) for (const size of ["small", "large"]) await pageMs(base, cookies[size], paths[page.key][size], ids[page.key]);
  }
  const out = {};
  for (const page of SIZED_PAGES) {
    const calls = new Set((await requestLines(site, ids[page.key])).map((line) => Number(line.ledgerCalls)));
    out[page.key] = [...calls].sort().join(", ");
  }
  return out;
}

/**
 * Each sized page's path per account. A deep log page is reached by following the log's "next"
 * link from its first page (the cursor is the page's own, opaque to the bench); an account whose
 * log ends sooner (the 100-row one) is timed on its last page.
 */
export async function sizedPaths(base, cookies) {
  const out = {};
  for (const page of SIZED_PAGES) {
    out[page.key] = {};
    for (const size of ["small", "large"]) out[page.key][size] = page.deepRows ? await deepLogPath(base, cookies[size], page.path, page.deepRows) : page.path;
  }
  return out;
}

async function deepLogPath(base, cookie, first, rows) {
  let path = first;
  for (let seen = 0; seen < rows; ) {
    const r = await fetchRetry(`${base}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    const html = await r.text();
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    seen += (html.match(/<tr[^>]* data-report="/g) ?? []).length;
    const link = /<a\b[^>]*data-testid="next-page"[^>]*>/.exec(html)?.[0];
    const next = link && /href="([^"]+)"/.exec(link)?.[1]?.replaceAll("&amp;", "&");
    if (!next) return path;
    path = next;
  }
  return path;
}

/** Figure 2: five accounts send MIX_REQUESTS requests of 100 reports each, all at once. */
export async function consumer(base, db, tokens) {
  const before = ledgerRows(db, MIXERS);
  const statuses = {};
  let accepted = 0;
  const started = performance.now();
  await Promise.all(
    tokens.map(async (t) => {
      for (let i = 0; i < MIX_REQUESTS; i++) {
        const status = await postReports(base, t);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 202) accepted += 100;
      }
    }),
  );
  const sentSeconds = (performance.now() - started) / 1000;
  const storedWhenSent = ledgerRows(db, MIXERS) - before;
  const complete = await until(db, MIXERS, before + accepted);
  const seconds = (performance.now() - started) / 1000;
  const stored = ledgerRows(db, MIXERS) - before;
  return {
    accepted,
    stored,
    statuses,
    sentSeconds,
    seconds,
    rowsPerSecond: stored / seconds,
    // The consumer alone: the backlog left when the last request was answered, over the time it
    // took (none when the consumer kept pace with the API).
    backlog: stored - storedWhenSent,
    drainPerSecond: stored > storedWhenSent ? (stored - storedWhenSent) / (seconds - sentSeconds) : null,
    complete: complete && stored === accepted,
  };
}

/**
 * Figure 3: the small account's pages, one after another, in idle slices and in slices while the
 * twenty other accounts ingest flat out; after each loaded slice the queue is drained (every
 * accepted report in its ledger) before the next idle slice starts.
 */
export async function dashboardUnderLoad(base, db, tokens, target = { base, db }) {
  const cookie = await signInCookie(base, SMALL_LOGIN);
  const times = { idle: Object.fromEntries(WATCHED.map((p) => [p.key, []])), loaded: Object.fromEntries(WATCHED.map((p) => [p.key, []])) };
  const load = { accepted: 0, statuses: {}, seconds: 0, drainSeconds: [] };
  const watch = async (side, stop) => {
    for (let i = 0; !stop(); i++) {
      const page = WATCHED[i % WATCHED.length];
      times[side][page.key].push(await pageMs(base, cookie, page.path));
    }
  };
  for (let slice = 0; slice < LOAD_SLICES; slice++) {
    let deadline = performance.now() + SLICE_MS;
    await watch("idle", () => performance.now() >= deadline);

    const before = ledgerRows(target.db, INGESTERS);
    let accepted = 0;
    let stopped = false;
    const started = performance.now();
    const ingest = Promise.all(
      tokens.map(async (t) => {
        while (!stopped) {
          const status = await postReports(target.base, t);
          load.statuses[status] = (load.statuses[status] ?? 0) + 1;
          if (status === 202) accepted += 100;
        }
      }),
    );
    // The ingest runs a moment before the watcher starts, so every loaded view meets it.
    await new Promise((r) => setTimeout(r, 250));
    deadline = performance.now() + SLICE_MS;
    await watch("loaded", () => performance.now() >= deadline);
    stopped = true;
    await ingest;
    load.seconds += (performance.now() - started) / 1000;
    load.accepted += accepted;
    const drainStarted = performance.now();
    if (!(await until(target.db, INGESTERS, before + accepted))) throw new Error(`the ingesting accounts' ${accepted} reports did not all reach their ledgers`);
    load.drainSeconds.push((performance.now() - drainStarted) / 1000);
  }
  const out = { load: { ...load, acceptedPerSecond: load.accepted / load.seconds } };
  for (const page of WATCHED) {
    const idle = p50(times.idle[page.key]);
    const loaded = p50(times.loaded[page.key]);
    out[page.key] = { idle, loaded, ratio: loaded / idle, idleViews: times.idle[page.key].length, loadedViews: times.loaded[page.key].length };
  }
  return out;
}
