// Rotating the site's keys signs nobody out (issue 30, ADR 0026). Each test rotates twice, as the
// runbook does it (the old value becomes <NAME>_PREVIOUS, a new one becomes <NAME>), by handing
// the Worker the settings it would have after each `wrangler secret put`: what the key before the
// rotation signed is still accepted after one rotation, and refused after the second.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers as worker } from "../worker";
import { decryptSecret, encryptSecret, readPendingSignIn, signPendingSignIn } from "~/lib/auth/two-factor-secret";
import { schema } from "~/lib/db.server";
import { signDownloadToken } from "~/lib/downloads/link";
import { optionById, releaseKey } from "~/lib/downloads/options";
import { publishRelease } from "~/lib/downloads/releases.server";
import { keyId } from "~/lib/keys";
import { sendPhoneCode, verifyPhoneCode } from "~/lib/phone/codes.server";
import { createConfirmedUser, DOWNLOAD_LINK_KEYS, db, keySettings, ORIGIN, STRONG_PASSWORD, uniqueIp } from "./helpers";

/** A new value for a key, as an operator makes one (`openssl rand -base64 32`). */
const newKey = (name: string) => `${name}-${crypto.randomUUID()}-${crypto.randomUUID()}`;

/** The test Worker's settings after `wrangler secret put` of the given names. */
const settingsWith = (changes: Record<string, string>) => ({ ...env, ...changes }) as unknown as Env;

async function fetchWith(settings: Env, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const headers = { "CF-Connecting-IP": uniqueIp(), ...(init.headers as Record<string, string>) };
  const request = new Request(`${ORIGIN}${path}`, { redirect: "manual", ...init, headers });
  const response = await worker.fetch(request as unknown as Request<unknown, IncomingRequestCfProperties>, settings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The desktop app's tokens (the password grant), signed under the test Worker's JWT_SECRET. */
async function desktopTokens(email: string) {
  const response = await fetchWith(settingsWith({}), "/api/v1/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  expect(response.status).toBe(200);
  return response.json<{ access_token: string; refresh_token: string }>();
}

const me = (settings: Env, accessToken: string) => fetchWith(settings, "/api/v1/me", { headers: { Authorization: `Bearer ${accessToken}` } });

describe("rotating JWT_SECRET", () => {
  it("accepts an access token of the previous key, refuses one of the key before it with 401, and refreshes either", async () => {
    const { email } = await createConfirmedUser();
    const tokens = await desktopTokens(email);
    const original = keySettings.JWT_SECRET;
    const second = newKey("jwt");
    const third = newKey("jwt");
    const once = settingsWith({ JWT_SECRET: second, JWT_SECRET_PREVIOUS: original });
    const twice = settingsWith({ JWT_SECRET: third, JWT_SECRET_PREVIOUS: second });

    expect((await me(settingsWith({}), tokens.access_token)).status).toBe(200);
    expect((await me(once, tokens.access_token)).status).toBe(200);
    const refused = await me(twice, tokens.access_token);
    expect(refused.status).toBe(401);

    // Still signed in: the refresh token, MAC'd under the original key, is found by its hash and
    // answers tokens under the current key (refresh-token.ts).
    const refreshed = await fetchWith(twice, "/api/v1/auth/refresh", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: tokens.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json<{ access_token: string }>();
    expect((await me(twice, next.access_token)).status).toBe(200);
    expect(JSON.parse(atob(next.access_token.split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/"))).kid).toBe(await keyId(third));
  });

  it("keeps a sign-in waiting for its second factor across one rotation", async () => {
    const [first, second, third] = [newKey("jwt"), newKey("jwt"), newKey("jwt")];
    const pending = await signPendingSignIn({ current: first }, "user-pending-1");
    expect(await readPendingSignIn({ current: second, previous: first }, pending)).toBe("user-pending-1");
    expect(await readPendingSignIn({ current: third, previous: second }, pending)).toBeNull();
  });
});

describe("rotating DOWNLOAD_LINK_SECRET", () => {
  it("serves a link signed with the previous key and refuses one signed with the key before it", async () => {
    const { browser, id } = await createConfirmedUser();
    await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId: id, status: "active", currentPeriodEnd: Date.now() + 86_400_000 });
    const option = optionById("linux-x64")!;
    const version = `8.${Date.now() % 100_000}.1`;
    await env.BUCKET.put(releaseKey(option, version), new Uint8Array([1, 2, 3, 4]));
    const published = await publishRelease(db, env.BUCKET, { optionId: option.id, version, r2Key: releaseKey(option, version), publishedBy: null });
    if (!published.ok) throw new Error(published.message);

    const link = await signDownloadToken(DOWNLOAD_LINK_KEYS, { releaseId: published.release.id, userId: id, expiresAt: Date.now() + 60_000 });
    const second = newKey("download");
    const once = settingsWith({ DOWNLOAD_LINK_SECRET: second, DOWNLOAD_LINK_SECRET_PREVIOUS: keySettings.DOWNLOAD_LINK_SECRET });
    const twice = settingsWith({ DOWNLOAD_LINK_SECRET: newKey("download"), DOWNLOAD_LINK_SECRET_PREVIOUS: second });
    const download = (settings: Env) => fetchWith(settings, `/downloads/file/${link}`, { headers: { Cookie: browser.cookieHeader() } });

    const served = await download(once);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]));
    const refused = await download(twice);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("This download link is not valid.");
  });
});

describe("rotating PHONE_CODE_SECRET", () => {
  it("checks a code sent under the previous key, and not one sent under the key before it", async () => {
    const [first, second, third] = [newKey("phone"), newKey("phone"), newKey("phone")];
    const sent: Array<{ text: string }> = [];
    const queue = { send: async (body: { text: string }) => void sent.push(body) } as unknown as Queue;
    const codeFor = async (userId: string) => {
      const result = await sendPhoneCode({ db, kv: env.KV, queue, keys: { current: first }, origin: ORIGIN }, userId);
      expect(result).toMatchObject({ ok: true, sent: true });
      return /code is (\d{6})/.exec(sent.at(-1)!.text)![1]!;
    };
    const withPhone = async () => {
      const { id } = await createConfirmedUser();
      await db
        .update(schema.userProfiles)
        .set({ phoneNumber: `+1555${String(Date.now() % 1e7).padStart(7, "0")}` })
        .where(eq(schema.userProfiles.userId, id));
      return id;
    };

    const a = await withPhone();
    const codeA = await codeFor(a);
    expect(await verifyPhoneCode({ db, kv: env.KV, keys: { current: second, previous: first } }, a, { code: codeA })).toMatchObject({
      ok: true,
      state: "verified",
    });

    const b = await withPhone();
    const codeB = await codeFor(b);
    expect(await verifyPhoneCode({ db, kv: env.KV, keys: { current: third, previous: second } }, b, { code: codeB })).toMatchObject({
      ok: false,
      reason: "invalid-code",
    });
  });
});

describe("rotating TWO_FACTOR_KEY", () => {
  it("reads secrets under the previous key, and the hourly cron moves them to the current one", async () => {
    const [old, current] = [newKey("totp"), newKey("totp")];
    const rows = [
      {
        userId: (await createConfirmedUser()).id,
        secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
        enc: await encryptSecret({ current: old }, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"),
      },
      // Written before values named their key: `<iv>.<ciphertext>`, under what was then JWT_SECRET.
      {
        userId: (await createConfirmedUser()).id,
        secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
        enc: (await encryptSecret({ current: old }, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")).split(".").slice(1).join("."),
      },
    ];
    for (const row of rows) await db.insert(schema.twoFactor).values({ userId: row.userId, secretEnc: row.enc, enabledAt: Date.now(), createdAt: Date.now() });
    const ring = { current, previous: old };
    for (const row of rows) expect(await decryptSecret(ring, row.enc)).toBe(row.secret);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "0 * * * *" }), settingsWith({ TWO_FACTOR_KEY: current, TWO_FACTOR_KEY_PREVIOUS: old }), ctx);
    await waitOnExecutionContext(ctx);

    const currentId = await keyId(current);
    for (const row of rows) {
      const stored = await db.query.twoFactor.findFirst({ where: eq(schema.twoFactor.userId, row.userId) });
      expect(stored!.secretEnc.startsWith(`${currentId}.`)).toBe(true);
      // Readable without the previous key: it can be deleted.
      expect(await decryptSecret({ current }, stored!.secretEnc)).toBe(row.secret);
    }
    await expect(decryptSecret({ current: newKey("totp") }, rows[0]!.enc)).rejects.toThrow(/no longer holds/);
  });
});
