import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { DEVICE_CODE_GRANT } from "~/lib/auth/device-codes";
import { DEVICE_AUTH, ENTITLEMENTS, FREE_TIER, USAGE_API } from "~/lib/constants";
import { hashSecret } from "~/lib/auth/password";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, insertUser, ORIGIN, STRONG_PASSWORD, uniqueEmail } from "./helpers";

const incoming = (url: string) => new Request(url) as unknown as Request<unknown, IncomingRequestCfProperties>;

describe("route table", () => {
  it.each(["/waitlist", "/fast-waitlist", "/old-waitlist", "/debug", "/main", "/no/such/page", "/wp-admin/", "/old.site/page"])(
    "%s redirects to /",
    async (path) => {
      const response = await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    },
  );

  // The redirect of unknown paths is for pages: a program asking for a file or a /.well-known/
  // document must not be handed the home page.
  it.each(["/.well-known/unknown", "/.well-known/openid-configuration", "/favicon.ico", "/x.php", "/assets/gone.js", "/.env", "/.git/HEAD"])(
    "%s answers 404, not a redirect",
    async (path) => {
      for (const method of ["GET", "HEAD", "POST"]) {
        const response = await SELF.fetch(`${ORIGIN}${path}`, { method, redirect: "manual", headers: method === "POST" ? { Origin: ORIGIN } : {} });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get("Location")).toBeNull();
        expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      }
    },
  );

  it("serves /.well-known/security.txt (RFC 9116), expiring within a year", async () => {
    const response = await SELF.fetch(`${ORIGIN}/.well-known/security.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    const fields = Object.fromEntries(
      (await response.text())
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
    );
    expect(fields).toMatchObject({
      Contact: "mailto:support@modelify.dev",
      "Preferred-Languages": "en",
      Canonical: `${ORIGIN}/.well-known/security.txt`,
    });
    const expires = Date.parse(fields.Expires!);
    expect(expires - Date.now()).toBeGreaterThan(360 * 86_400_000);
    expect(expires - Date.now()).toBeLessThan(365 * 86_400_000);
  });

  it.each([
    "/",
    "/pricing",
    "/changelog",
    "/auth",
    "/auth?mode=signup",
    "/auth?mode=forgot-password",
    "/auth/reset-password",
    "/auth/success",
    "/verify-phone",
  ])("%s renders with security headers", async (path) => {
    const response = await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual" });
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("protects /dashboard", async () => {
    const response = await SELF.fetch(`${ORIGIN}/dashboard`, { redirect: "manual" });
    expect(response.headers.get("Location")).toBe("/auth");
  });
});

describe("navigation and hero by state", () => {
  it("shows Sign In / Sign Up and Start Building to visitors, hidden on /auth", async () => {
    const home = await (await SELF.fetch(`${ORIGIN}/`)).text();
    expect(home).toContain("Build Your Business with");
    expect(home).toContain(">Start Building<");
    expect(home).toContain('href="/auth?mode=signin"');
    expect(home).toContain('href="/auth?mode=signup"');
    const auth = await (await SELF.fetch(`${ORIGIN}/auth`)).text();
    expect(auth).not.toContain('href="/auth?mode=signin">Sign In<');
    expect(auth).toContain("Welcome Back");
  });

  it("shows Pricing / Dashboard and Get Subscription to a signed-in user without a subscription", async () => {
    const { browser } = await createConfirmedUser();
    const home = await (await browser.get("/")).text();
    expect(home).toContain(">Get Subscription<");
    expect(home).toContain('href="/pricing"');
    expect(home).toContain('href="/dashboard"');
    expect(home).not.toContain(">Sign Up<");
  });

  // Issue 46: where "Delete my account" lands says so, in the server's words; no other value or
  // code, and no words from the address, appear.
  it("says the account is deleted on /?accountDeleted=1, and nothing for any other value", async () => {
    const deleted = await (await SELF.fetch(`${ORIGIN}/?accountDeleted=1`)).text();
    expect(deleted).toContain('data-testid="site-notice"');
    expect(deleted).toContain("Your account is deleted");
    expect(deleted).toMatch(/<a [^>]*aria-label="Dismiss"[^>]*href="\/"/);
    for (const query of ["", "?accountDeleted=0", "?accountDeleted=%3Cb%3Eowned%3C%2Fb%3E", "?accountDeleted=1x", "?notice=Your+account+is+deleted"]) {
      const home = await (await SELF.fetch(`${ORIGIN}/${query}`)).text();
      expect(home, query).not.toContain('data-testid="site-notice"');
      expect(home, query).not.toContain("Your account is deleted");
    }
  });

  it("shows Go to Dashboard to an active subscriber", async () => {
    const { browser, email } = await createConfirmedUser();
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId: user!.id, status: "active", currentPeriodEnd: Date.now() + 86400_000 });
    const home = await (await browser.get("/")).text();
    expect(home).toContain(">Go to Dashboard<");
    const dashboard = await (await browser.get("/dashboard")).text();
    expect(dashboard).toContain("Pro - $4.99/month");
    expect(dashboard).toContain(">Active<");
  });
});

describe("dashboard shell", () => {
  it("falls back to overview for unknown tabs and shows the e-mail's local part and the sign-out dialog", async () => {
    const { browser, email } = await createConfirmedUser();
    expect((await browser.get("/dashboard?tab=nope")).headers.get("Location")).toBe("/dashboard");
    const unknown = await (await browser.get("/dashboard")).text();
    expect(unknown).toContain("Welcome, Ada Lovelace");
    expect(unknown).toContain(email.split("@")[0]);
    expect(unknown).toContain(email);
    const profile = await (await browser.get("/dashboard/profile")).text();
    expect(profile).toContain("Edit Profile");
    expect(profile).not.toContain("Edit Account");
    expect(profile).toContain("Sessions and devices");
    const usage = await (await browser.get("/dashboard/usage")).text();
    expect(usage).toContain("No usage data available");
    const dialog = await (await browser.get("/dashboard?confirm=signout")).text();
    expect(dialog).toContain("<dialog");
    expect(dialog).toContain(">Cancel<");
  });

  it("leads old ?tab= URLs to their own routes, keeping the other parameters", async () => {
    const { browser } = await createConfirmedUser();
    const cases: Array<[string, string]> = [
      ["/dashboard?tab=billing", "/dashboard/billing"],
      ["/dashboard?tab=billing&view=invoices", "/dashboard/billing?view=invoices"],
      ["/dashboard?tab=usage&range=30d&metric=tokens", "/dashboard/usage?range=30d&metric=tokens"],
      ["/dashboard?tab=analytics", "/dashboard/analytics"],
      ["/dashboard?tab=budget", "/dashboard/budget"],
      ["/dashboard?tab=downloads", "/dashboard/downloads"],
      ["/dashboard?tab=profile", "/dashboard/profile"],
      ["/dashboard?tab=debug", "/dashboard/admin"],
      ["/dashboard?tab=overview", "/dashboard"],
      ["/dashboard?tab=whatever", "/dashboard"],
    ];
    for (const [from, to] of cases) {
      const response = await browser.get(from);
      expect(response.status, from).toBe(302);
      expect(response.headers.get("Location"), from).toBe(to);
    }
    // Stripe's cancel target works for a signed-out visitor too: tab first, then sign-in.
    expect((await new Browser().get("/dashboard?tab=billing")).headers.get("Location")).toBe("/dashboard/billing");
    expect((await new Browser().get("/dashboard/billing")).headers.get("Location")).toBe("/auth");
  });

  it("marks the tab of the page, and only it, as the current page in the rail and the tab strip", async () => {
    const { browser } = await createConfirmedUser();
    const current = (html: string) =>
      [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>/g)]
        .filter(([tag]) => tag.includes('aria-current="page"'))
        .map(([tag, href]) => ({ href, active: /rail-link-active|tab-link-active/.test(tag) }));
    for (const path of ["/dashboard", "/dashboard/usage", "/dashboard/profile"]) {
      const html = await (await browser.get(path)).text();
      // Once in the rail, once in the strip; the overview is not current on its sub-pages.
      expect(current(html), path).toEqual([
        { href: path, active: true },
        { href: path, active: true },
      ]);
      // Ten tabs: overview, usage, request log, analytics, billing, budget, alerts, API keys, downloads, profile.
      expect(html.match(/rail-link-idle/g)?.length, path).toBe(9);
    }
  });

  it("shows a failing tab's message inside a dashboard that keeps working", async () => {
    const { browser } = await createConfirmedUser();
    // The account's usage ledger is unreachable (its reads fail); D1 and everything else works.
    const broken = {
      idFromName: (name: string) => env.USAGE_LEDGER.idFromName(name),
      get: () => ({
        read: () => Promise.reject(new Error("The usage ledger is unavailable")),
      }),
    } as unknown as Env["USAGE_LEDGER"];
    const ctx = createExecutionContext();
    const request = new Request("http://localhost/dashboard/usage", { headers: { Cookie: browser.cookieHeader() } });
    const response = await worker.fetch(request as unknown as Request<unknown, IncomingRequestCfProperties>, { ...env, USAGE_LEDGER: broken } as Env, ctx);
    await waitOnExecutionContext(ctx);
    const html = await response.text();
    expect(html).toContain("Failed to load tab content. Please try again.");
    expect(html).toContain('aria-label="Dashboard tabs"');
    expect(html).toContain('href="/dashboard/billing"');
    expect((await browser.get("/dashboard/billing")).status).toBe(200);
  });

  it("keeps the admin area for admins only", async () => {
    const { browser } = await createConfirmedUser();
    const asUser = await browser.get("/dashboard/admin");
    expect(asUser.status).toBe(404);
    const userHtml = await asUser.text();
    expect(userHtml).not.toContain("Subscription tools");
    expect(userHtml).toContain("This page does not exist.");
    expect(await (await browser.get("/dashboard")).text()).not.toContain('href="/dashboard/admin"');

    const email = uniqueEmail("admin");
    await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: { first_name: "Ada" }, role: "admin", confirmed: true });
    const admin = new Browser();
    await admin.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    const asAdmin = await (await admin.get("/dashboard/admin")).text();
    expect(asAdmin).toContain("Subscription tools");
    expect(asAdmin).toContain('action="/dashboard/admin"');
  });
});

describe("local outbox", () => {
  it("lists messages as JSON in development and is 404 in production", async () => {
    const email = uniqueEmail("outbox");
    await new Browser().post("/auth?mode=forgot-password", { intent: "forgot-password", email });
    const local = await SELF.fetch(`${ORIGIN}/dev/outbox.json`);
    expect(local.status).toBe(200);
    expect(Array.isArray(await local.json())).toBe(true);
    expect((await SELF.fetch(`${ORIGIN}/dev/outbox`)).status).toBe(200);

    const production = {
      ...env,
      APP_ENV: "production",
      APP_URL: "https://modelify.example",
      MAIL_API_URL: "https://mail.example/emails",
      MAIL_API_KEY: "key",
      STRIPE_API_BASE: undefined,
    } as unknown as Env;
    for (const path of ["/dev/outbox", "/dev/outbox.json"]) {
      const ctx = createExecutionContext();
      const response = await worker.fetch(incoming(`${ORIGIN}${path}`), production, ctx);
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(404);
    }
  });

  it("shows the outbox only to the local machine: a staging host or a remote address gets 404", async () => {
    const staging = { ...env, APP_ENV: "development" } as unknown as Env;
    const cases: Array<[string, Record<string, string>, number]> = [
      ["http://localhost/dev/outbox.json", {}, 200],
      ["http://127.0.0.1/dev/outbox.json", { "CF-Connecting-IP": "127.0.0.1" }, 200],
      ["http://[::1]/dev/outbox", { "CF-Connecting-IP": "::1" }, 200],
      ["https://staging.modelify.example/dev/outbox.json", {}, 404],
      ["https://staging.modelify.example/dev/outbox", { "CF-Connecting-IP": "127.0.0.1" }, 404],
      ["http://localhost/dev/outbox.json", { "CF-Connecting-IP": "203.0.113.9" }, 404],
      ["http://localhost/dev/outbox", { "CF-Connecting-IP": "10.1.2.3" }, 404],
    ];
    for (const [url, headers, status] of cases) {
      const ctx = createExecutionContext();
      const response = await worker.fetch(new Request(url, { headers }) as unknown as Request<unknown, IncomingRequestCfProperties>, staging, ctx);
      await waitOnExecutionContext(ctx);
      expect(response.status, `${url} ${JSON.stringify(headers)}`).toBe(status);
      if (status === 404) expect(await response.text()).not.toContain("Reset your Modelify password");
    }
  });

  it("refuses to start in production without mail and URL configuration", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(incoming(`${ORIGIN}/`), { ...env, APP_ENV: "production" } as unknown as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("App Initialization Error");
  });
});

describe("desktop API documentation", () => {
  it("serves the OpenAPI description and a health route", async () => {
    const spec = await (await SELF.fetch(`${ORIGIN}/api/v1/openapi.json`)).json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(spec.openapi).toBe("3.1.0");
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/auth/device",
        "/api/v1/auth/token",
        "/api/v1/auth/refresh",
        "/api/v1/usage",
        "/api/v1/usage/secure-report",
        "/api/v1/entitlements",
        "/api/v1/entitlements/claim",
      ]),
    );
    // The entitlement call documents the free tier's numbers and every field it answers with.
    const entitlements = JSON.stringify(spec.paths["/api/v1/entitlements"]);
    for (const text of [
      "3 requests a minute",
      "20 an hour",
      "100 a day",
      "1000 requests and 100000 tokens a month",
      "retry_after_seconds",
      "resets_at",
      "remaining",
    ]) {
      expect(entitlements, text).toContain(text);
    }
    expect(await (await SELF.fetch(`${ORIGIN}/api/v1/health`)).json()).toEqual({ ok: true });
  });

  it("describes the request bodies the API validates, limits and rules across fields included", async () => {
    type Schema = {
      properties?: Record<string, Schema>;
      maximum?: number;
      maxItems?: number;
      description?: string;
      additionalProperties?: boolean;
      oneOf?: Schema[];
      items?: Schema;
      required?: string[];
    };
    type Spec = { paths: Record<string, Record<string, { requestBody?: { content: { "application/json": { schema: Schema } } } }>> };
    const spec = await (await SELF.fetch(`${ORIGIN}/api/v1/openapi.json`)).json<Spec>();
    const bodyOf = (path: string) => spec.paths[path]!.post!.requestBody!.content["application/json"].schema;

    const secure = bodyOf("/api/v1/usage/secure-report");
    expect(secure.properties!.request_count!.maximum).toBe(USAGE_API.maxSecureRequestCount);
    expect(secure.properties!.request_count!.description).toContain("success_count + error_count must not exceed request_count");
    expect(secure.additionalProperties).toBe(false);

    const [single, batch] = bodyOf("/api/v1/usage").oneOf!;
    expect(single!.properties!.tokens_used!.description).toContain("at least tokens_input + tokens_output");
    expect(single!.required).toEqual(expect.arrayContaining(["report_id", "model_name", "model_provider", "cost_usd", "request_duration_ms", "success"]));
    expect(single!.required).not.toContain("tokens_used");
    expect(batch!.properties!.reports!.maxItems).toBe(USAGE_API.maxReportsPerRequest);
    expect(Object.keys(bodyOf("/api/v1/auth/refresh").properties!)).toEqual(["refresh_token"]);
  });

  it("describes the desktop sign-in: the device grant, the legacy password grant, ended keys and the per-device rate limit", async () => {
    type Schema = { properties?: Record<string, Schema>; required?: string[]; oneOf?: Schema[]; const?: string; deprecated?: boolean; description?: string };
    type Operation = {
      summary: string;
      description?: string;
      requestBody?: { content: Record<string, { schema: Schema }> };
      responses: Record<string, { description: string; content?: { "application/json": { schema: Schema } } }>;
    };
    type Spec = {
      info: { description: string };
      components: { securitySchemes: { bearer: { description: string } } };
      paths: Record<string, { post: Operation; get: Operation }>;
    };
    const spec = await (await SELF.fetch(`${ORIGIN}/api/v1/openapi.json`)).json<Spec>();
    expect(spec.info.description).toContain("/device page");
    expect(spec.info.description).toContain("RFC 8628");

    // The device authorization request, in both encodings, from the schema the route validates with.
    const device = spec.paths["/api/v1/auth/device"]!.post;
    for (const type of ["application/json", "application/x-www-form-urlencoded"]) {
      expect(device.requestBody!.content[type]!.schema.required, type).toEqual(["client_id", "device_name", "platform", "app_version", "app_instance_id"]);
    }
    expect(Object.keys(device.responses["200"]!.content!["application/json"].schema.properties!)).toEqual([
      "device_code",
      "user_code",
      "verification_uri",
      "verification_uri_complete",
      "expires_in",
      "interval",
    ]);
    expect(Object.keys(device.responses)).toEqual(expect.arrayContaining(["400", "401", "429"]));
    expect(device.responses["429"]!.description).toContain(`${DEVICE_AUTH.requestsPerIp.max} requests per client address in 15 minutes`);

    // The token endpoint: the device grant first and the refresh token grant (JSON or form), the
    // password grant marked deprecated (JSON).
    const token = spec.paths["/api/v1/auth/token"]!.post;
    const [deviceGrant, refreshGrant, passwordGrant] = token.requestBody!.content["application/json"]!.schema.oneOf!;
    expect(deviceGrant!.properties!.grant_type!.const).toBe(DEVICE_CODE_GRANT);
    expect(deviceGrant!.required).toEqual(["grant_type", "device_code", "client_id"]);
    expect(refreshGrant!.properties!.grant_type!.const).toBe("refresh_token");
    expect(refreshGrant!.required).toEqual(["refresh_token", "grant_type"]);
    expect(passwordGrant!.required).toEqual(["email", "password"]);
    expect(passwordGrant!.properties!.grant_type!.const).toBe("password");
    expect(passwordGrant!.deprecated).toBe(true);
    expect(passwordGrant!.description).toContain("LEGACY");
    expect(token.summary).toContain("deprecated");
    expect(token.requestBody!.content["application/x-www-form-urlencoded"]!.schema.oneOf!.map((grant) => grant.properties!.grant_type!.const)).toEqual([
      DEVICE_CODE_GRANT,
      "refresh_token",
    ]);
    expect(token.responses["200"]!.content!["application/json"].schema.properties!.device).toBeDefined();
    for (const code of ["authorization_pending", "slow_down", "access_denied", "expired_token", "invalid_grant", "invalid_request", "unsupported_grant_type"]) {
      expect(token.responses["400"]!.description, code).toContain(code);
    }
    expect(token.responses["401"]!.description).toContain("invalid_client");

    // A revoked key and the rate limit per device key, on both usage endpoints and the bearer scheme.
    for (const path of ["/api/v1/usage", "/api/v1/usage/secure-report"]) {
      const usage = spec.paths[path]!.post;
      expect(usage.responses["401"]!.content!["application/json"].schema.properties!.code!.const, path).toBe("session_ended");
      expect(usage.responses["401"]!.description, path).toContain("start the device sign-in again");
      expect(usage.responses["429"]!.description, path).toContain(`${USAGE_API.requestsPerMinute} requests per minute per device key`);
    }
    for (const path of ["/api/v1/me", "/api/v1/entitlements"]) {
      expect(spec.paths[path]!.get.responses["401"]!.content!["application/json"].schema.properties!.code!.const, path).toBe("session_ended");
    }
    expect(spec.components.securitySchemes.bearer.description).toContain("session_ended");
    expect(spec.components.securitySchemes.bearer.description).toContain("per device key, not per account");
  });

  it("shows the same document as a page: /api-reference, rendered on the server, nothing from another origin", async () => {
    type Operation = { operationId: string; responses: Record<string, unknown> };
    const spec = await (await SELF.fetch(`${ORIGIN}/api/v1/openapi.json`)).json<{ paths: Record<string, Record<string, Operation>> }>();
    const response = await new Browser().get("/api-reference");
    expect(response.status).toBe(200);
    const html = await response.text();
    // Every operation, with its anchor, its path and each status it lists.
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const operation of Object.values(item)) {
        expect(html, operation.operationId).toContain(`id="${operation.operationId}"`);
        expect(html, path).toContain(path);
        const section = html.slice(html.indexOf(`id="${operation.operationId}"`));
        for (const status of Object.keys(operation.responses)) expect(section, `${operation.operationId} ${status}`).toContain(`>${status}</span>`);
      }
    }
    // The request bodies' shapes and their examples are on it too.
    for (const text of ["Refresh token grant", "Password grant (LEGACY, deprecated)", "A Mac asks to sign in", "report_timestamp"])
      expect(html, text).toContain(text);
    // Scripts and styles only from the site itself, under the CSP's nonce.
    expect(response.headers.get("Content-Security-Policy")).toMatch(/script-src[^;]*'nonce-/);
    for (const [, src] of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(https?:[^"]+)"/g)) expect(new URL(src!).origin).toBe(ORIGIN);
    // Linked from the site's footer and from the API documentation, and in the sitemap.
    expect(await (await new Browser().get("/")).text()).toContain('href="/api-reference"');
    expect(await (await new Browser().get("/legal/api")).text()).toContain('href="/api-reference"');
  });

  it("describes the entitlement claim: ask before each model call, 200 granted or 429 with Retry-After, an optional body", async () => {
    type Schema = {
      properties?: Record<string, Schema>;
      required?: string[];
      const?: unknown;
      type?: string;
      additionalProperties?: boolean;
      maxProperties?: number;
    };
    type ApiResponse = {
      description: string;
      headers?: Record<string, { schema: Schema; description: string }>;
      content?: { "application/json": { schema: Schema } };
    };
    type Operation = {
      summary: string;
      description: string;
      security: unknown[];
      requestBody: { required: boolean; content: { "application/json": { schema: Schema } } };
      responses: Record<string, ApiResponse>;
    };
    type Spec = { paths: Record<string, { post?: Operation; get?: Operation }> };
    const spec = await (await SELF.fetch(`${ORIGIN}/api/v1/openapi.json`)).json<Spec>();
    const path = spec.paths["/api/v1/entitlements/claim"]!;
    expect(path.get).toBeUndefined();
    const claim = path.post!;
    expect(claim.security).toEqual([{ bearer: [] }]);
    const limits = `${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour, ${FREE_TIER.perDay} a day, ${FREE_TIER.requestsPerMonth} requests and ${FREE_TIER.tokensPerMonth} tokens a month`;
    expect(claim.summary).toContain(limits);
    expect(claim.summary).toContain("subscribers and early-access members are always granted");
    for (const text of ["before each model call", "one at a time", "greater of the calls claimed and the calls reported", "Retry-After", "never wait"]) {
      expect(claim.description, text).toContain(text);
    }
    // An optional body: the call's estimate, model and provider (hard caps, ADR 0032); nothing else.
    expect(claim.requestBody.required).toBe(false);
    const body = claim.requestBody.content["application/json"].schema;
    expect(body).toMatchObject({ type: "object", additionalProperties: false });
    expect(Object.keys(body.properties!).sort()).toEqual(["estimated_cost_usd", "model", "provider"]);
    expect(body.required ?? []).toEqual([]);

    expect(Object.keys(claim.responses).sort()).toEqual(["200", "400", "401", "403", "413", "415", "429", "503"]);
    const granted = claim.responses["200"]!.content!["application/json"].schema;
    const refused = claim.responses["429"]!.content!["application/json"].schema;
    expect(granted.properties!.granted!.const).toBe(true);
    expect(refused.properties!.granted!.const).toBe(false);
    for (const field of ["plan", "unlimited", "allowed", "retry_after_seconds", "allowed_at", "windows"]) {
      expect(granted.required, field).toContain(field);
      expect(refused.required, field).toContain(field);
    }
    expect(refused.required).toContain("error");
    expect(granted.required).toContain("claim_id");
    expect(refused.properties!.cap).toBeDefined();
    expect(claim.responses["429"]!.headers!["Retry-After"]!.schema).toMatchObject({ type: "integer", minimum: 1 });
    expect(claim.responses["429"]!.description).toContain("Nothing was counted");
    expect(claim.responses["401"]!.content!["application/json"].schema.properties!.code!.const).toBe("session_ended");
    expect(claim.responses["413"]!.description).toContain(`${ENTITLEMENTS.claimMaxBodyBytes} bytes`);

    // The read stays, for display, and points to the claim.
    expect(spec.paths["/api/v1/entitlements"]!.get!.summary).toContain("POST /api/v1/entitlements/claim");
  });
});
