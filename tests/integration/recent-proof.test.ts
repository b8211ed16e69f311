// Issue 45, F2: "Confirm it's you". Whatever adds or removes a way into an account needs a recent
// proof (the password, and a code where two-factor is on) made in the same session, checked by one
// helper (lib/auth/recent-proof.server.ts). A stolen session whose proof is old can add no passkey,
// turn nothing on or off, approve no device; a passkey added or removed is mailed to the owner.
//
// The routes that make such changes are found from the route table itself: every route module of
// the server build that calls a function taking a RecentProof (or a proof callback) must call the
// web layer's recentProof, so a new route cannot forget it.
import { SELF } from "cloudflare:test";
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { routes as serverRoutes } from "virtual:react-router/server-build";
import { AUTH_MESSAGES } from "~/lib/auth/messages";
import { LOCKOUT } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { type Browser, createConfirmedUser, db, ORIGIN, queueSettled, sessionIdOf, staleProof, STRONG_PASSWORD, waitForMail } from "./helpers";
import { SoftPasskey } from "./passkey-authenticator";

const PASSKEYS = "/dashboard/profile/passkeys";
const JSON_ACCEPT = { Accept: "application/json" };

async function registerPasskey(browser: Browser, passkey: SoftPasskey, name = "Laptop") {
  const options = await browser.post(PASSKEYS, { intent: "options" }, JSON_ACCEPT);
  if (options.status !== 200) return options;
  const { options: json } = (await options.json()) as { options: Parameters<SoftPasskey["register"]>[0] };
  return browser.post(PASSKEYS, { intent: "register", name, response: JSON.stringify(await passkey.register(json)) }, JSON_ACCEPT);
}

const passkeysOf = (userId: string) => db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, userId));

describe("a session whose proof is old (a stolen cookie)", () => {
  it("cannot add a passkey: the challenge is refused with where to confirm, and nothing is stored", async () => {
    const { browser, id } = await createConfirmedUser();
    await staleProof(browser);
    const refused = await browser.post(PASSKEYS, { intent: "options" }, JSON_ACCEPT);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: AUTH_MESSAGES.recentProofRequired,
      code: "recent_proof_required",
      confirm: "/dashboard/profile/confirm?next=%2Fdashboard%2Fprofile%23passkeys-title",
    });
    expect(await db.select().from(schema.passkeyChallenges).where(eq(schema.passkeyChallenges.userId, id))).toEqual([]);
    // A registration answer to a challenge made while the proof was recent is refused too.
    expect((await registerPasskey(browser, new SoftPasskey())).status).toBe(403);
    expect(await passkeysOf(id)).toEqual([]);
  });

  it("cannot remove a passkey, turn two-factor on, or approve a device; a plain form is sent to confirm first", async () => {
    const { browser, id } = await createConfirmedUser();
    const passkey = new SoftPasskey();
    expect((await registerPasskey(browser, passkey)).status).toBe(200);
    await staleProof(browser);

    const remove = await browser.post(PASSKEYS, { intent: "remove", id: passkey.id });
    expect(remove.status).toBe(303);
    expect(remove.headers.get("Location")).toBe("/dashboard/profile/confirm?next=%2Fdashboard%2Fprofile%23passkeys-title");
    expect(await passkeysOf(id)).toHaveLength(1);

    const start = await browser.post("/dashboard/profile/two-factor", { intent: "start" });
    expect(start.status).toBe(303);
    expect(start.headers.get("Location")).toBe("/dashboard/profile/confirm?next=%2Fdashboard%2Fprofile%2Ftwo-factor");
    expect(await db.query.twoFactor.findFirst({ where: eq(schema.twoFactor.userId, id) })).toBeUndefined();

    const started = await SELF.fetch(`${ORIGIN}/api/v1/auth/device`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        client_id: "modelify-desktop",
        device_name: "Thief laptop",
        platform: "linux",
        app_version: "2.0.0",
        app_instance_id: crypto.randomUUID(),
      }),
    });
    const { user_code: userCode } = (await started.json()) as { user_code: string };
    const approve = await browser.post("/device", { intent: "approve", code: userCode });
    expect(approve.status).toBe(401);
    const grant = await db.query.deviceAuthorizations.findFirst({ orderBy: desc(schema.deviceAuthorizations.createdAt) });
    expect(grant?.status).toBe("pending");

    // Renaming adds no way in: it still works.
    expect((await browser.post(PASSKEYS, { intent: "rename", id: passkey.id, name: "Renamed" })).status).toBe(303);
  });

  it("is proven again on the confirm page, which comes back to where it was sent from; then the change goes through", async () => {
    const { browser, id } = await createConfirmedUser();
    const passkey = new SoftPasskey();
    expect((await registerPasskey(browser, passkey)).status).toBe(200);
    await staleProof(browser);
    const page = await browser.get("/dashboard/profile/confirm?next=%2Fdashboard%2Fprofile%23passkeys-title");
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("Confirm it&#x27;s you");
    expect(text).not.toContain('name="code"');

    const wrong = await browser.post("/dashboard/profile/confirm?next=%2Fdashboard%2Fprofile%23passkeys-title", { password: "Not-The-Password-1" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(AUTH_MESSAGES.proofPasswordWrong);
    const right = await browser.post("/dashboard/profile/confirm?next=%2Fdashboard%2Fprofile%23passkeys-title", { password: STRONG_PASSWORD });
    expect(right.status).toBe(303);
    expect(right.headers.get("Location")).toBe("/dashboard/profile#passkeys-title");
    const session = await db.query.sessions.findFirst({ where: eq(schema.sessions.id, sessionIdOf(browser)) });
    expect(Date.now() - session!.provenAt!).toBeLessThan(60_000);

    const removed = await browser.post(PASSKEYS, { intent: "remove", id: passkey.id });
    expect(removed.headers.get("Location")).toBe("/dashboard/profile?passkeys=removed#passkeys-title");
    expect(await passkeysOf(id)).toEqual([]);
  });

  it("comes back only to a dashboard page: any other next goes to the profile", async () => {
    const { browser } = await createConfirmedUser();
    for (const next of ["https://evil.example/x", "//evil.example", "/auth?mode=signin", "javascript:alert(1)"]) {
      const answer = await browser.post(`/dashboard/profile/confirm?next=${encodeURIComponent(next)}`, { password: STRONG_PASSWORD });
      expect(answer.status, next).toBe(303);
      expect(answer.headers.get("Location"), next).toBe("/dashboard/profile");
    }
  });

  it("counts wrong passwords on the confirm page on the sign-in lockout, exactly under a parallel burst", async () => {
    const { browser } = await createConfirmedUser();
    const answers = await Promise.all(Array.from({ length: 20 }, () => browser.post("/dashboard/profile/confirm", { password: "Not-The-Password-1" })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOCKOUT.signIn.maxFailures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - LOCKOUT.signIn.maxFailures);
    for (const answer of answers.filter((a) => a.status === 429)) expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The lock holds for the right password too.
    expect((await browser.post("/dashboard/profile/confirm", { password: STRONG_PASSWORD })).status).toBe(429);
  });
});

describe("the owner hears of every passkey added or removed", () => {
  it("mails the device it came from and the page that removes it, for adding and for removing", async () => {
    const { browser, email } = await createConfirmedUser();
    const passkey = new SoftPasskey();
    const started = Date.now();
    const added = await browser.post(PASSKEYS, { intent: "options" }, { ...JSON_ACCEPT, "User-Agent": UA });
    const { options } = (await added.json()) as { options: Parameters<SoftPasskey["register"]>[0] };
    const answer = JSON.stringify(await passkey.register(options));
    const registered = await browser.post(
      PASSKEYS,
      { intent: "register", name: "Click here: evil.example", response: answer },
      { ...JSON_ACCEPT, "User-Agent": UA },
    );
    expect(registered.status).toBe(200);
    const mail = await waitForMail(email, /A passkey was added to your Modelify account/, { after: started });
    expect(mail.text).toContain("Chrome on macOS");
    // The name the user typed is not mailed: the site writes every word of its mails.
    expect(mail.text).not.toContain("evil.example");
    expect(mail.links).toEqual([`${ORIGIN}/dashboard/profile#passkeys-title`]);

    expect((await browser.post(PASSKEYS, { intent: "remove", id: passkey.id }, { "User-Agent": UA })).status).toBe(303);
    const removed = await waitForMail(email, /A passkey was removed from your Modelify account/, { after: started });
    expect(removed.text).toContain("Chrome on macOS");
    // A second removal of the same id removes nothing and mails nothing.
    expect((await browser.post(PASSKEYS, { intent: "remove", id: passkey.id })).headers.get("Location")).toContain("passkeys=not-found");
    await queueSettled();
    const removals = await db.select().from(schema.outbox).where(eq(schema.outbox.to, email));
    expect(removals.filter((m) => /was removed/.test(m.subject))).toHaveLength(1);
  });
});

const UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

// ------------------------------------------------------------------------------ from the route table

const routeSources = import.meta.glob("/app/routes/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const libSources = import.meta.glob("/app/lib/**/*.ts", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

/** Exported lib functions whose parameters take a RecentProof (or a proof to run): the changes to a way in. */
function wayInFunctions(): string[] {
  const names: string[] = [];
  for (const [file, source] of Object.entries(libSources)) {
    // The helper itself makes and checks proofs; it changes nothing.
    if (file.endsWith(".test.ts") || file.endsWith("/recent-proof.server.ts")) continue;
    for (const match of source.matchAll(/export (?:async )?function (\w+)\s*(?:<[^>]*>)?\(([\s\S]*?)\)(?::[^{]*)?\{/g)) {
      if (/\b(RecentProof|ProofResult)\b/.test(match[2]!)) names.push(match[1]!);
    }
  }
  return names;
}

describe("the routes that add or remove a way in, from the route table", () => {
  it("each calls recentProof: the web side of the one helper", () => {
    const ways = wayInFunctions();
    // The lib's own list of changes: each one named here takes a proof (the type only this helper makes).
    expect(ways).toEqual(expect.arrayContaining(["registerPasskey", "removePasskey", "startSetup", "confirmSetup", "disableTwoFactor"]));
    const changing: string[] = [];
    for (const route of Object.values(serverRoutes)) {
      if (!route) continue;
      const file = Object.keys(routeSources).find((path) => path.replace(/^\/app\//, "").replace(/\.tsx?$/, "") === route.id);
      if (!file) continue;
      const source = routeSources[file]!;
      const calls = ways.filter((name) => new RegExp(`\\b${name}\\(`).test(source));
      if (calls.length === 0) continue;
      changing.push(route.id);
      expect(source, `${route.id} calls ${calls.join(", ")} without recentProof`).toMatch(/\brecentProof\(/);
    }
    // Every change is reached from some route (none is dead code that a future route could call unchecked).
    const reached = ways.filter((name) =>
      changing.some((id) => new RegExp(`\\b${name}\\(`).test(routeSources[`/app/${id}.ts`] ?? routeSources[`/app/${id}.tsx`] ?? "")),
    );
    expect(reached.sort()).toEqual([...new Set(ways)].sort());
    expect(changing.length).toBeGreaterThanOrEqual(4);
  });

  it("no lib function writes a passkey, a two-factor secret or recovery codes without taking a proof, but the sign-in's own steps", () => {
    // Writes that are not a change of a way in: a sign-in using a passkey or a code (counters, steps,
    // spent codes), and the deletion of the whole account.
    const exempt = new Set(["verifyPasskeySignIn", "acceptTotp", "spendRecoveryCode", "deleteRows", "reencryptTwoFactorSecrets", "freshRecoveryCodes"]);
    const offenders: string[] = [];
    for (const [file, source] of Object.entries(libSources)) {
      if (file.endsWith(".test.ts")) continue;
      // The way-in tables as this file names them: schema.passkeys, or a short alias of it.
      const tables = ["schema\\.(?:passkeys|twoFactor|twoFactorRecoveryCodes)\\b"];
      for (const alias of source.matchAll(/const (\w+) = schema\.(?:passkeys|twoFactor|twoFactorRecoveryCodes);/g)) tables.push(`${alias[1]}`);
      const write = new RegExp(`\\.(?:insert|delete)\\((?:${tables.join("|")})\\)`);
      const functions = [...source.matchAll(/(?:export )?(?:async )?function (\w+)\s*(?:<[^>]*>)?\(([\s\S]*?)\)(?::[^{]*)?\{/g)];
      functions.forEach((fn, i) => {
        const body = source.slice(fn.index!, functions[i + 1]?.index ?? source.length);
        const writes = write.test(body);
        if (writes && !exempt.has(fn[1]!) && !/\b(RecentProof|ProofResult)\b/.test(fn[2]!)) offenders.push(`${file}: ${fn[1]}`);
      });
    }
    expect(offenders, offenders.join("\n")).toEqual([]);
  });
});
