// The desktop API as a standard OAuth client sees it (issue 30): a library finds everything from
// the issuer (RFC 8414) and runs the device flow and the refresh with its own calls; the token
// endpoint takes the client id in the body or by HTTP Basic, answers invalid_client with a
// challenge and never lets a cache keep an answer; the bearer challenge says what went wrong.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import * as client from "openid-client";
import { describe, expect, it } from "vitest";
import { DEVICE_CODE_GRANT } from "~/lib/auth/device-codes";
import { handlers as worker } from "../worker";
import { createConfirmedUser, ORIGIN, signedInAs, STRONG_PASSWORD, uniqueIp } from "./helpers";

const CLIENT_ID = "modelify-desktop";
const TOKEN = `${ORIGIN}/api/v1/auth/token`;
const DEVICE = `${ORIGIN}/api/v1/auth/device`;
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const basic = (user: string, password = "") => `Basic ${btoa(`${user}:${password}`)}`;

type OAuthError = { error: string; error_description: string };
type Tokens = { token_type: string; access_token: string; refresh_token: string; expires_in: number; user: { id: string; email: string } };

/** The Worker as openid-client's fetch, from one client address (the device endpoint counts per address). */
function workerFetch(ip = uniqueIp()): client.CustomFetch {
  // Its bodies are strings, URLSearchParams or bytes: all of them BodyInit for the Worker's fetch.
  return (url, options) => SELF.fetch(url, { ...options, body: options.body as BodyInit | undefined, headers: { ...options.headers, "CF-Connecting-IP": ip } });
}

function deviceFields(overrides: Record<string, string> = {}) {
  return { device_name: "OAuth library test", platform: "linux", app_version: "3.0.0", app_instance_id: crypto.randomUUID(), ...overrides };
}

/** POST to an OAuth endpoint as a form, from a client address of its own. */
function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return SELF.fetch(url, { method: "POST", headers: { ...FORM, "CF-Connecting-IP": uniqueIp(), ...headers }, body: new URLSearchParams(fields) });
}

/** A desktop session through the legacy password grant: the quickest way to a refresh token. */
async function desktopTokens(): Promise<Tokens> {
  const { email } = await createConfirmedUser();
  const response = await SELF.fetch(TOKEN, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  expect(response.status).toBe(200);
  return response.json<Tokens>();
}

const expectNeverStored = (response: Response) => {
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(response.headers.get("Pragma")).toBe("no-cache");
};

describe("an OAuth library (openid-client) with nothing but the issuer", () => {
  it("discovers the endpoints, signs the app in with the device flow, and refreshes with its own refreshTokenGrant", async () => {
    const { browser, id, email } = await signedInAs("user");
    const config = await client.discovery(new URL(ORIGIN), CLIENT_ID, undefined, client.None(), {
      algorithm: "oauth2",
      [client.customFetch]: workerFetch(),
      // http://localhost: the library refuses plain HTTP unless told.
      execute: [client.allowInsecureRequests],
    });
    expect(config.serverMetadata()).toMatchObject({ issuer: ORIGIN, token_endpoint: TOKEN, device_authorization_endpoint: DEVICE });

    const started = await client.initiateDeviceAuthorization(config, deviceFields());
    expect(started.verification_uri_complete).toBe(`${ORIGIN}/device?code=${started.user_code}`);
    // The app polls (the library waits the interval first) while the user approves in the browser.
    const polled = client.pollDeviceAuthorizationGrant(config, started);
    const approved = await browser.post("/device", { intent: "approve", code: started.user_code });
    expect(approved.status).toBe(200);
    const tokens = await polled;
    expect(tokens).toMatchObject({ token_type: "bearer", user: { id, email } });
    expect(tokens.expiresIn()).toBeGreaterThan(800);

    const me = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // The new access token works; the old refresh token is spent: the library reports invalid_grant.
    const after = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${refreshed.access_token}` } });
    expect(after.status).toBe(200);
    const next = await client.refreshTokenGrant(config, refreshed.refresh_token!);
    expect(next.refresh_token).not.toBe(refreshed.refresh_token);
  }, 30_000);
});

describe("GET /.well-known/oauth-authorization-server", () => {
  it("answers RFC 8414 metadata with the request's origin as the issuer (no APP_URL here), cacheable", async () => {
    const response = await SELF.fetch(`${ORIGIN}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(await response.json()).toEqual({
      issuer: ORIGIN,
      device_authorization_endpoint: DEVICE,
      token_endpoint: TOKEN,
      grant_types_supported: [DEVICE_CODE_GRANT, "refresh_token", "password"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["none"],
    });
    const post = await SELF.fetch(`${ORIGIN}/.well-known/oauth-authorization-server`, { method: "POST" });
    expect(post.status).toBe(405);
  });

  it("names the configured site (APP_URL) as the issuer, as e-mail links do, whatever host was asked", async () => {
    const configured = { ...env, APP_URL: "https://modelify.example" } as unknown as Env;
    const ctx = createExecutionContext();
    const request = new Request("http://worker.internal/.well-known/oauth-authorization-server") as unknown as Request<unknown, IncomingRequestCfProperties>;
    const response = await worker.fetch(request, configured, ctx);
    await waitOnExecutionContext(ctx);
    expect(await response.json()).toMatchObject({
      issuer: "https://modelify.example",
      device_authorization_endpoint: "https://modelify.example/api/v1/auth/device",
      token_endpoint: "https://modelify.example/api/v1/auth/token",
    });
  });
});

describe("the token endpoint's refresh grant (RFC 6749 6)", () => {
  it("rotates the refresh token as /auth/refresh does, form or JSON, with or without the client id", async () => {
    const first = await desktopTokens();
    const viaForm = await postForm(TOKEN, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: CLIENT_ID });
    expect(viaForm.status).toBe(200);
    expectNeverStored(viaForm);
    const second = await viaForm.json<Tokens>();
    expect(second).toMatchObject({ token_type: "Bearer", expires_in: 900, user: first.user });
    expect(second.refresh_token).not.toBe(first.refresh_token);

    const viaJson = await SELF.fetch(TOKEN, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({ grant_type: "refresh_token", refresh_token: second.refresh_token }),
    });
    expect(viaJson.status).toBe(200);
    const third = await viaJson.json<Tokens>();

    // Basic with the client id and an empty password.
    const viaBasic = await postForm(TOKEN, { grant_type: "refresh_token", refresh_token: third.refresh_token }, { Authorization: basic(CLIENT_ID) });
    expect(viaBasic.status).toBe(200);
  });

  it("refuses a spent, unknown or missing refresh token with OAuth's errors, never stored", async () => {
    const tokens = await desktopTokens();
    expect((await postForm(TOKEN, { grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status).toBe(200);
    // Used again after the grace window would revoke the session; within it, the request that won holds the newest token.
    const again = await postForm(TOKEN, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(again.status).toBe(400);
    expectNeverStored(again);
    expect(await again.json<OAuthError>()).toMatchObject({ error: "invalid_grant" });

    const unknown = await postForm(TOKEN, { grant_type: "refresh_token", refresh_token: "not-a-refresh-token" });
    expect([unknown.status, (await unknown.json<OAuthError>()).error]).toEqual([400, "invalid_grant"]);
    const missing = await postForm(TOKEN, { grant_type: "refresh_token" });
    expect([missing.status, await missing.json<OAuthError>()]).toEqual([400, { error: "invalid_request", error_description: "refresh_token is required" }]);
    const other = await postForm(TOKEN, { grant_type: "authorization_code", code: "x" });
    expect([other.status, (await other.json<OAuthError>()).error]).toEqual([400, "unsupported_grant_type"]);
  });
});

describe("the client id, in the body or by HTTP Basic (RFC 6749 2.3.1)", () => {
  it("accepts Basic with an empty password at the device and token endpoints", async () => {
    const device = await postForm(DEVICE, deviceFields(), { Authorization: basic(CLIENT_ID) });
    expect(device.status).toBe(200);
    expectNeverStored(device);
    const { device_code } = await device.json<{ device_code: string }>();
    const poll = await postForm(TOKEN, { grant_type: DEVICE_CODE_GRANT, device_code }, { Authorization: basic(CLIENT_ID) });
    expect([poll.status, (await poll.json<OAuthError>()).error]).toEqual([400, "authorization_pending"]);
    expectNeverStored(poll);
    // Neither in the body nor in the header: the device grant needs it.
    const unnamed = await postForm(TOKEN, { grant_type: DEVICE_CODE_GRANT, device_code });
    expect([unnamed.status, await unnamed.json<OAuthError>()]).toEqual([400, { error: "invalid_request", error_description: "client_id is required" }]);
  });

  it("answers invalid_client with 401 and a Basic challenge, never stored", async () => {
    const cases: Array<[string, Record<string, string>, Record<string, string>]> = [
      ["another client in the body", { client_id: "someone-else" }, {}],
      ["another client by Basic", {}, { Authorization: basic("someone-else") }],
      ["a secret", {}, { Authorization: basic(CLIENT_ID, "secret") }],
      ["a malformed Basic header", {}, { Authorization: "Basic %%%" }],
    ];
    for (const [name, fields, headers] of cases) {
      for (const [url, body] of [
        [DEVICE, deviceFields(fields)],
        [TOKEN, { grant_type: DEVICE_CODE_GRANT, device_code: "x".repeat(43), ...fields }],
        [TOKEN, { grant_type: "refresh_token", refresh_token: "x", ...fields }],
      ] as const) {
        const response = await postForm(url, body, headers);
        expect(response.status, `${name} at ${url}`).toBe(401);
        expect(response.headers.get("WWW-Authenticate"), name).toBe('Basic realm="modelify"');
        expectNeverStored(response);
        expect((await response.json<OAuthError>()).error, name).toBe("invalid_client");
      }
    }
    const disagree = await postForm(TOKEN, { grant_type: "refresh_token", refresh_token: "x", client_id: CLIENT_ID }, { Authorization: basic("other") });
    expect([disagree.status, (await disagree.json<OAuthError>()).error]).toEqual([400, "invalid_request"]);
  });

  it("refuses a body neither form nor JSON with a 415 that names both", async () => {
    for (const url of [DEVICE, TOKEN]) {
      const response = await SELF.fetch(url, {
        method: "POST",
        headers: { "Content-Type": "text/plain", "CF-Connecting-IP": uniqueIp() },
        body: "grant_type=x",
      });
      expect(response.status, url).toBe(415);
      expectNeverStored(response);
      expect(await response.json<OAuthError>()).toEqual({
        error: "invalid_request",
        error_description: "Content-Type must be application/x-www-form-urlencoded or application/json",
      });
    }
  });

  it("marks the legacy grant's answers never stored too", async () => {
    const tokens = await SELF.fetch(TOKEN, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({ email: "nobody-oauth@example.com", password: "Not-The-Password-1" }),
    });
    expect(tokens.status).toBe(401);
    expectNeverStored(tokens);
  });
});

describe("the bearer challenge (RFC 6750 3)", () => {
  const me = (headers: Record<string, string> = {}) => SELF.fetch(`${ORIGIN}/api/v1/me`, { headers });

  it("has no error code when no token was sent, and invalid_token when the token is bad", async () => {
    const unsent: Array<Record<string, string>> = [{}, { Authorization: basic(CLIENT_ID) }, { Authorization: "Bearer" }];
    for (const headers of unsent) {
      const response = await me(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate"), JSON.stringify(headers)).toBe('Bearer realm="modelify"');
    }
    for (const token of ["short", "x".repeat(40), "not a token at all, with spaces", "a.b.c".repeat(10)]) {
      const response = await me({ Authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate"), token).toBe('Bearer realm="modelify", error="invalid_token"');
    }
  });

  it("takes the scheme in any case", async () => {
    const { access_token } = await desktopTokens();
    expect((await me({ Authorization: `bearer ${access_token}` })).status).toBe(200);
    expect((await me({ Authorization: `BEARER ${access_token}` })).status).toBe(200);
  });
});
