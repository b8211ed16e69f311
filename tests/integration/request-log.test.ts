// Issue 30, "logs that answer questions": one JSON line per request and per queue batch. A
// request's id is in its answer (X-Request-Id) and its line; the line names the matched route
// (never the URL with its ids), the status, the time, the D1 statements and the account as a
// salted hash; a failure carries the error with its stack, and no line carries an address.
import { createExecutionContext, createMessageBatch, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountHash, setLogSalt } from "~/lib/log/log.server";
import { handlers as worker } from "../worker";
import { Browser, createConfirmedUser, ORIGIN, uniqueEmail } from "./helpers";
import { type Line, linesOf, requestLine as lineOf } from "./log-lines";

const requestLine = (lines: Line[], id: string | null) => lineOf(lines, id);

afterEach(() => vi.restoreAllMocks());

describe("every answer has a request id, and its log line", () => {
  it("a page, an API answer, a redirect and a refusal: each id once in its header and its line", async () => {
    const { result, lines } = await linesOf(async () => ({
      page: await SELF.fetch(`${ORIGIN}/pricing`),
      api: await SELF.fetch(`${ORIGIN}/api/v1/health`),
      redirect: await SELF.fetch(`${ORIGIN}/dashboard`, { redirect: "manual" }),
      notFound: await SELF.fetch(`${ORIGIN}/api/v1/nothing-here`),
      foreign: await SELF.fetch(`${ORIGIN}/contact`, { method: "POST", body: "x=1", headers: { Origin: "https://evil.example" } }),
    }));
    const ids = new Set<string>();
    for (const [name, response] of Object.entries(result)) {
      const id = response.headers.get("X-Request-Id");
      expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(id!);
      expect(requestLine(lines, id)).toMatchObject({ status: response.status, method: expect.any(String) });
    }
    expect(ids.size).toBe(5);
    expect(requestLine(lines, result.redirect.headers.get("X-Request-Id"))).toMatchObject({ route: "/dashboard", status: 302, method: "GET" });
    expect(requestLine(lines, result.notFound.headers.get("X-Request-Id"))).toMatchObject({ route: "/api/*", status: 404 });
    // React Router refuses a foreign Origin itself: a warning with its reason.
    expect(requestLine(lines, result.foreign.headers.get("X-Request-Id"))).toMatchObject({
      level: "warn",
      route: "/contact",
      method: "POST",
      status: result.foreign.status,
    });
    expect(result.foreign.status).toBeGreaterThanOrEqual(400);
    const health = requestLine(lines, result.api.headers.get("X-Request-Id"));
    expect(health).toMatchObject({ route: "/api/v1/health", status: 200 });
    expect(health.durationMs).toEqual(expect.any(Number));
    expect(health.d1Statements).toEqual(expect.any(Number));
  });

  it("names the route's pattern, not the URL with its ids, and the signed-in account as a salted hash", async () => {
    const { browser, id: userId } = await createConfirmedUser();
    const exportId = crypto.randomUUID();
    const { result, lines } = await linesOf(async () => ({
      profile: await browser.get("/dashboard/profile"),
      file: await browser.get(`/dashboard/profile/export/${exportId}`),
    }));
    const profile = requestLine(lines, result.profile.headers.get("X-Request-Id"));
    // The test Worker salts with LOG_SALT as production would.
    setLogSalt((env as unknown as { LOG_SALT: string }).LOG_SALT);
    expect(profile).toMatchObject({ route: "/dashboard/profile", status: 200, account: accountHash(userId) });
    expect(profile.d1Statements as number).toBeGreaterThan(0);
    const file = requestLine(lines, result.file.headers.get("X-Request-Id"));
    expect(file.route).toBe("/dashboard/profile/export/:id");
    expect(JSON.stringify(lines)).not.toContain(exportId);
    expect(JSON.stringify(lines)).not.toContain(userId);
    setLogSalt(undefined);
  });

  it("takes Cloudflare's ray id as the request id, and nothing else a client sends", async () => {
    const ray = "8c1f3b2a9d0e4f12-LHR";
    const { result, lines } = await linesOf(async () => ({
      ray: await SELF.fetch(`${ORIGIN}/api/v1/health`, { headers: { "CF-Ray": ray } }),
      forged: await SELF.fetch(`${ORIGIN}/api/v1/health`, { headers: { "CF-Ray": "<script>", "X-Request-Id": "mine" } }),
    }));
    expect(result.ray.headers.get("X-Request-Id")).toBe(ray);
    requestLine(lines, ray);
    expect(result.forged.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a failure: the answer keeps its id, the line is an error with the error's message (scrubbed) and stack", async () => {
    const email = uniqueEmail("broken");
    // A database that fails every statement, quoting an address as some errors do.
    const broken = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare" || prop === "batch" || prop === "withSession") {
          return () => {
            throw new Error(`D1_ERROR: database unavailable for ${email}`);
          };
        }
        return Reflect.get(target, prop);
      },
    });
    const { browser } = await createConfirmedUser();
    const ctx = createExecutionContext();
    const { result: response, lines } = await linesOf(async () => {
      const answer = await worker.fetch(
        new Request(`${ORIGIN}/dashboard/profile`, { headers: { Cookie: browser.cookieHeader() } }) as unknown as Request<unknown, IncomingRequestCfProperties>,
        { ...env, DB: broken } as unknown as Env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return answer;
    });
    expect(response.status).toBeGreaterThanOrEqual(500);
    const line = requestLine(lines, response.headers.get("X-Request-Id"));
    expect(line).toMatchObject({ level: "error", route: "/dashboard/profile", status: response.status });
    const error = line.error as { name: string; message: string; stack: string };
    expect(error.message).toBe("D1_ERROR: database unavailable for [email]");
    // The statement's SQL, never its values (drizzle's wrapper lists them in its message).
    expect((line.error as { query: string }).query).toMatch(/^select "sessions"\."id", /);
    expect(JSON.stringify(line)).not.toMatch(/params:|Failed query/);
    expect(error.stack).toMatch(/request-log\.test\.ts/);
    expect(JSON.stringify(lines)).not.toContain(email);
  });
});

describe("every queue batch has a line", () => {
  it("counts the batch's messages, decisions, dead letters and kinds", async () => {
    const good = { type: "mail.send", id: crypto.randomUUID(), to: uniqueEmail("batch"), subject: "Hello", text: "Hi", links: [] };
    const bad = { type: "mail.send", id: crypto.randomUUID(), to: "not-an-address", subject: "Hello", text: "Hi", links: [] };
    const batch = createMessageBatch<unknown>("modelify-events", [
      { id: `log-good-${good.id}`, timestamp: new Date(), attempts: 1, body: good },
      { id: `log-bad-${bad.id}`, timestamp: new Date(), attempts: 1, body: bad },
      { id: `log-junk-${bad.id}`, timestamp: new Date(), attempts: 1, body: "junk" },
    ]);
    const { lines } = await linesOf(async () => {
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      await waitOnExecutionContext(ctx);
    });
    const line = lines.find((l) => l.event === "queue_batch");
    expect(line).toMatchObject({
      level: "warn",
      queue: "modelify-events",
      messages: 3,
      acked: 3,
      retried: 0,
      deadLettered: 2,
      kinds: [
        { kind: "mail.send", count: 2 },
        { kind: "unknown", count: 1 },
      ],
    });
    expect(line!.requestId).toMatch(/^batch-/);
    expect(line!.d1Statements as number).toBeGreaterThan(0);
    expect(line!.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(lines)).not.toContain(good.to);
  });

  it("a batch whose handler fails: an error line with the error, its messages counted as retried", async () => {
    const ctx = createExecutionContext();
    const id = `log-throw-${crypto.randomUUID()}`;
    const batch = createMessageBatch("modelify-events-dlq", [{ id, timestamp: new Date(), attempts: 4, body: { type: "unknown.kind" } }]);
    const down = () => {
      throw new Error("D1 is down");
    };
    const failing = { ...env, DB: new Proxy(env.DB, { get: (target, prop) => (prop === "prepare" ? down : Reflect.get(target, prop)) }) };
    const { lines } = await linesOf(async () => {
      await expect(worker.queue(batch, failing as unknown as Env, ctx)).rejects.toThrow("D1 is down");
    });
    const line = lines.find((l) => l.event === "queue_batch");
    expect(line).toMatchObject({ level: "error", queue: "modelify-events-dlq", messages: 1, acked: 0, retried: 1, error: { message: "D1 is down" } });
  });
});

describe("no line carries an address or a raw account id", () => {
  it("signs up, signs in and out through the forms", async () => {
    const email = uniqueEmail("quiet");
    const browser = new Browser();
    const { lines } = await linesOf(async () => {
      await browser.post("/auth?mode=signin", { intent: "signin", email, password: "Wrong-Password-1" });
      await browser.post("/auth?mode=forgot-password", { intent: "forgot-password", email });
    });
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(lines)).not.toContain(email);
    expect(JSON.stringify(lines)).not.toContain("Wrong-Password-1");
  });
});
