// Security headers on every kind of answer: pages (CSP with a per-response nonce on every script),
// `.data` requests, API answers, redirects; no caching of anything personal; Server-Timing only
// outside production.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { securityScore } from "~/lib/site/security-score";
import { Browser, createConfirmedUser, ORIGIN } from "./helpers";

function nonceOf(csp: string | null) {
  return /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? "")?.[1];
}

describe("Content-Security-Policy", () => {
  it("allows only this response's nonced scripts, no inline script, and no framing", async () => {
    const first = await SELF.fetch(`${ORIGIN}/`);
    const csp = first.headers.get("Content-Security-Policy");
    const nonce = nonceOf(csp);
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(/script-src[^;]*unsafe-inline/.test(csp!)).toBe(false);
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const second = await SELF.fetch(`${ORIGIN}/`);
    expect(nonceOf(second.headers.get("Content-Security-Policy"))).not.toBe(nonce);
  });

  it("lets forms reach only our origin and Stripe's hosted pages", async () => {
    const csp = (await SELF.fetch(`${ORIGIN}/pricing`)).headers.get("Content-Security-Policy")!;
    const formAction = /form-action ([^;]+)/.exec(csp)![1]!.split(" ");
    expect(formAction[0]).toBe("'self'");
    expect(formAction).toContain(new URL((env as unknown as { STRIPE_API_BASE: string }).STRIPE_API_BASE).origin);
  });

  it("gives API answers nosniff and a CSP that loads nothing", async () => {
    for (const [path, init] of [
      ["/api/v1/health", {}],
      ["/api/v1/me", {}],
      ["/api/v1/usage", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } }],
      ["/api/v1/nope", {}],
    ] as const) {
      const response = await SELF.fetch(`${ORIGIN}${path}`, init as RequestInit);
      expect(response.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(response.headers.get("Content-Security-Policy"), path).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    }
  });
});

describe("transport and caching", () => {
  it("sends HSTS over https only", async () => {
    expect((await SELF.fetch("https://localhost/")).headers.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
    expect((await SELF.fetch(`${ORIGIN}/`)).headers.get("Strict-Transport-Security")).toBeNull();
    expect((await SELF.fetch("https://localhost/")).headers.get("Content-Security-Policy")).toContain("upgrade-insecure-requests");
  });

  it("marks signed-in pages, their .data requests, redirects and link pages private, no-store", async () => {
    const { browser } = await createConfirmedUser();
    for (const path of ["/dashboard", "/dashboard.data", "/pricing", "/", "/dashboard/usage.csv", "/auth"]) {
      const response = await browser.get(path);
      expect(response.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
    const anonymous = new Browser();
    for (const path of ["/auth/reset-password", "/auth/success?session_id=cs_x", "/auth/callback?type=signup&token=x", "/dev/outbox.json"]) {
      expect((await anonymous.get(path)).headers.get("Cache-Control"), path).toBe("private, no-store");
    }
    // Signing in answers with session cookies: that answer is private too.
    const { email } = await createConfirmedUser();
    const signIn = await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: "Sunny-Day-42" });
    expect(signIn.headers.get("Cache-Control")).toBe("private, no-store");
    expect(signIn.headers.get("Vary")).toContain("Cookie");
  });
});

// Issue 46: the features dialog's "Security Score" is the grade the pages' headers earn. The pages
// are fetched as a browser gets them over HTTPS (as deployed) and graded: the claim holds only
// while every header it is made of is set as strictly as graders ask.
describe("the features dialog's Security Score", () => {
  it("is the grade the site's pages really earn, 100/100, and says what it measures", async () => {
    const { browser } = await createConfirmedUser();
    const pages = [
      await SELF.fetch("https://localhost/"),
      await SELF.fetch("https://localhost/pricing"),
      await SELF.fetch("https://localhost/auth?mode=signin"),
      await SELF.fetch("https://localhost/dashboard", { headers: { Cookie: browser.cookieHeader() } }),
    ];
    for (const page of pages) {
      expect(page.status, page.url).toBe(200);
      const graded = securityScore(page.headers);
      expect(
        graded.checks.filter((c) => !c.passed).map((c) => c.header),
        page.url,
      ).toEqual([]);
      expect(graded.score, page.url).toBe(100);
    }
    const dialog = await (await SELF.fetch("https://localhost/?modal=features")).text();
    expect(dialog).toMatch(/<dd[^>]*>100\/100<\/dd>/);
    expect(dialog).toContain("Security Score: the grade our web pages&#x27; security headers earn");
    // Over plain HTTP (local development) there is no HSTS: the same grade would say so.
    expect(securityScore((await SELF.fetch(`${ORIGIN}/`)).headers).score).toBeLessThan(100);
  });
});

describe("what a local server sends that production does not", () => {
  it("is nothing: the same headers, and no Server-Timing (what a request cost is in its log line)", async () => {
    // Both are misses of the page cache (an address no one asked for before), so neither answer
    // carries a stored copy's headers (Age, CF-Cache-Status) whatever other files asked for first.
    const local = await SELF.fetch(`${ORIGIN}/?p=${crypto.randomUUID()}`);
    const production = {
      ...env,
      APP_ENV: "production",
      APP_URL: "https://modelify.example",
      MAIL_API_URL: "https://mail.example/send",
      MAIL_API_KEY: "key",
      STRIPE_API_BASE: undefined,
    } as unknown as Env;
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}/?p=${crypto.randomUUID()}`) as unknown as Request<unknown, IncomingRequestCfProperties>,
      production,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    const names = (r: Response) => [...r.headers.keys()].filter((name) => name !== "date").sort();
    expect(names(local)).toEqual(names(response));
    expect(local.headers.get("Server-Timing")).toBeNull();
    expect(response.headers.get("Content-Security-Policy")).toContain("form-action 'self' https://checkout.stripe.com https://billing.stripe.com");
  });
});
