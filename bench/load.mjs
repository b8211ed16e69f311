// The load generator of `npm run bench`'s first figures (bench/load-figures.mjs) and its page figures (bench/pages.mjs):
// `concurrency` loops in this Node process, each sending its next request as the last one is
// answered, and loads measured in alternating slices so that every side of a ratio meets the
// same machine.

export const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
export const SLICES = 5;

// The local server closes idle keep-alive sockets after 5 s; a request landing on one just as it
// closes fails with "other side closed", and is sent again.
export async function fetchRetry(url, init, attempts = 3) {
  for (let i = 1; ; i++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (i >= attempts) throw error;
    }
  }
}

/** Requests from `concurrency` loops for `ms`: completed per second and the status tally. */
export async function load(makeRequest, { ms = DURATION_MS, concurrency = CONCURRENCY } = {}) {
  const deadline = performance.now() + ms;
  const statuses = {};
  let done = 0;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        try {
          const response = await makeRequest(i++);
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          done++;
        } catch {
          statuses.network_error = (statuses.network_error ?? 0) + 1;
        }
      }
    }),
  );
  return { perSecond: done / ((performance.now() - started) / 1000), statuses, done, seconds: (performance.now() - started) / 1000 };
}

// After a slice whose server's CPU is read: time for the work a response leaves behind (log lines,
// `waitUntil`) to finish before the reading, so it is not counted in the next slice.
export const SETTLE_MS = 150;

/**
 * Loads measured in alternating slices (a, b, c, a, b, c, ...) of `ms / slices` each, so all of
 * them meet the same machine: a slow moment, or the queue consumer still busy with earlier
 * reports, falls on every side of a ratio instead of on one. Each load is `{ request, cpu? }`:
 * `request(i)` sends one request; `cpu()`, if given, reads the CPU milliseconds its server's
 * processes have used so far (by name: `{ runtime: 1234.5, ... }`), before and after each of its
 * slices. Returns per load: requests/s, the status tally, the requests completed, and with `cpu`
 * the CPU milliseconds per request of each name (`cpuMsPerRequest`).
 * @param {Array<{ request: (i: number) => Promise<Response>, cpu?: () => Record<string, number> }>} loads
 */
export async function alternating(loads, { ms = DURATION_MS, slices = SLICES } = {}) {
  const totals = loads.map(() => ({
    done: 0,
    seconds: 0,
    statuses: /** @type {Record<string, number>} */ ({}),
    cpuMs: /** @type {Record<string, number>} */ ({}),
  }));
  for (let slice = 0; slice < slices; slice++) {
    for (const [k, { request, cpu }] of loads.entries()) {
      const into = totals[k];
      const before = cpu?.();
      const r = await load(request, { ms: ms / slices });
      if (cpu) {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const after = cpu();
        for (const [name, ms] of Object.entries(after)) into.cpuMs[name] = (into.cpuMs[name] ?? 0) + ms - (before?.[name] ?? 0);
      }
      into.done += r.done;
      into.seconds += r.seconds;
      for (const [status, n] of Object.entries(r.statuses)) into.statuses[status] = (into.statuses[status] ?? 0) + n;
    }
  }
  return totals.map((x) => ({
    perSecond: x.done / x.seconds,
    statuses: x.statuses,
    done: x.done,
    cpuMsPerRequest: Object.fromEntries(Object.entries(x.cpuMs).map(([name, ms]) => [name, ms / x.done])),
  }));
}

/** Two loads in alternating slices (a, b, a, b, ...): `alternating` of two. */
export async function paired(makeA, makeB) {
  const [a, b] = await alternating([{ request: makeA }, { request: makeB }]);
  return [a, b];
}
