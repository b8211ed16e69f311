// Issue 49, caps that hold (ADR 0032): a budget made a hard cap, and caps of one model or one
// device, are decided inside the account's ledger with each claim, one claim at a time, so a burst
// of parallel claims that would cross a cap is granted exactly what fits; the rest answer 429 with
// Retry-After at the cap's reset (the account zone's midnight or 1st). A granted claim holds its
// estimate until its report (same claim_id) arrives or the hold expires.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { HARD_CAPS, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { saveBudget } from "~/lib/usage/budget.server";
import type { CapEntitlement } from "~/lib/usage/caps";
import { saveCap } from "~/lib/usage/caps.server";
import { claimEntitlement, type Entitlements } from "~/lib/usage/entitlements.server";
import { startOfNextMonth } from "~/lib/usage/dates";
import { isoInZone } from "~/lib/time-zone";
import { db, ORIGIN, visibleText } from "./helpers";
import { apiUser, deviceToken, postUsage, report, waitForRows } from "./usage-helpers";

type ClaimBody = Entitlements & { granted: boolean; claim_id?: string; error?: string; cap?: CapEntitlement; problems?: unknown[] };
const json = { "Content-Type": "application/json" };

function claim(token: string, body?: unknown) {
  return SELF.fetch(`${ORIGIN}/api/v1/entitlements/claim`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

async function entitlements(token: string) {
  return (await SELF.fetch(`${ORIGIN}/api/v1/entitlements`, { headers: { Authorization: `Bearer ${token}` } })).json<Entitlements>();
}

/** An early-access account (no free-tier limits: only its caps refuse) in `zone`, with a monthly budget of `monthly` as a hard cap. */
async function cappedAccount({ monthly = 1, daily = 0, zone = "Asia/Tokyo", monthlyHardCap = true, dailyHardCap = false } = {}) {
  const user = await apiUser();
  await db
    .update(schema.userProfiles)
    .set({ earlyAccessStatus: "active", earlyAccessExpiresAt: Date.now() + 30 * MS.DAY, timezone: zone })
    .where(eq(schema.userProfiles.userId, user.userId));
  await saveBudget(db, user.userId, {
    monthlyBudget: monthly,
    dailyBudget: daily,
    alertThresholds: [80],
    notificationsEnabled: false,
    monthlyHardCap,
    dailyHardCap,
  });
  return user;
}

describe("hard caps on POST /api/v1/entitlements/claim, through the real runtime", () => {
  it("grants exactly what fits of 50 parallel claims under a monthly hard cap; the rest 429 with Retry-After at the zone's next 1st", async () => {
    const { token, userId } = await cappedAccount({ monthly: 1, zone: "Asia/Tokyo" });
    // $0.50 already spent this month, reported through the real queue.
    expect((await postUsage(token, report({ cost_usd: 0.5 }))).status).toBe(202);
    await waitForRows(userId, 1);

    const before = Date.now();
    const responses = await Promise.all(Array.from({ length: 50 }, () => claim(token, { estimated_cost_usd: 0.05 })));
    const after = Date.now();
    const bodies = await Promise.all(responses.map((r) => r.json<ClaimBody>()));

    // $0.50 left, $0.05 each: exactly 10.
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(40);
    const ids = new Set(bodies.filter((b) => b.granted).map((b) => b.claim_id));
    expect(ids.size).toBe(10);
    const reset = startOfNextMonth(before, "Asia/Tokyo");
    for (const [i, response] of responses.entries()) {
      if (response.status === 200) continue;
      const body = bodies[i]!;
      const wait = Number(response.headers.get("Retry-After"));
      expect(wait).toBeGreaterThanOrEqual(Math.floor((reset - after) / 1000));
      expect(wait).toBeLessThanOrEqual(Math.ceil((reset - before) / 1000));
      expect(body).toMatchObject({ granted: false, error: expect.stringContaining("hard cap") });
      expect(body.cap).toMatchObject({ kind: "monthly", limit_usd: 1, spent_usd: 0.5, resets_at: isoInZone(reset, "Asia/Tokyo") });
      expect(body.cap!.resets_at).toMatch(/\+09:00$/);
    }
    // The entitlement read says the same: the cap is held to the cent, and reached.
    const shown = await entitlements(token);
    expect(shown.caps).toEqual([expect.objectContaining({ kind: "monthly", limit_usd: 1, spent_usd: 0.5, reserved_usd: 0.5, reached: true })]);
    expect(shown).toMatchObject({ allowed: false, allowed_at: isoInZone(reset, "Asia/Tokyo") });
  });

  it("a claim's report (same claim_id) ends its hold; a hold no report ends expires after the timeout (controlled clock)", async () => {
    const { token, userId } = await cappedAccount({ monthly: 1, zone: "UTC" });
    const first = await claim(token, { estimated_cost_usd: 0.6 });
    expect(first.status).toBe(200);
    const { claim_id } = await first.json<ClaimBody>();
    expect((await claim(token, { estimated_cost_usd: 0.6 })).status).toBe(429);

    expect((await postUsage(token, report({ cost_usd: 0.1, claim_id: claim_id!.toUpperCase() }))).status).toBe(202);
    await waitForRows(userId, 1);
    const profile = { earlyAccessStatus: "active", earlyAccessExpiresAt: Date.now() + 30 * MS.DAY, timeZone: "UTC" };
    const deps = { db, ledgers: env.USAGE_LEDGER };
    const now = Date.now();
    const at = (ms: number, usd: number) => claimEntitlement(deps, userId, profile, ms, { estimateMicros: usd * 1e6, model: null, deviceId: null });
    // $0.10 spent, nothing held: $0.60 fits again, and holds.
    expect((await at(now, 0.6)).granted).toBe(true);
    expect((await at(now, 0.35)).granted).toBe(false);
    expect((await at(now + HARD_CAPS.reservationTimeoutMs - 1, 0.35)).granted).toBe(false);
    // The $0.60 hold has expired: $0.10 spent, $0.35 fits (and now holds).
    const later = await at(now + HARD_CAPS.reservationTimeoutMs + 1, 0.35);
    expect(later.granted).toBe(true);
    expect(later.entitlements.caps[0]).toMatchObject({ spent_usd: 0.1, reserved_usd: 0.35 });
  });

  it("caps one model and one device each on their own, and leaves a second account untouched", async () => {
    const { token, userId, browser } = await cappedAccount({ monthly: 100 });
    const [laptop, desktop] = await Promise.all([deviceToken(browser, "Cap laptop"), deviceToken(browser, "Cap desktop")]);
    const laptopId = (await db.query.sessions.findFirst({ where: eq(schema.sessions.deviceName, "Cap laptop"), columns: { id: true } }))!.id;
    expect(await saveCap(db, userId, { kind: "model", model: { name: "gpt-4o", provider: "openai" } }, 0.1)).toBe(true);
    expect(await saveCap(db, userId, { kind: "device", deviceId: laptopId }, 0.05)).toBe(true);

    const gpt = { model: "gpt-4o", provider: "openai" };
    const modelBurst = await Promise.all(Array.from({ length: 10 }, () => claim(token, { estimated_cost_usd: 0.03, ...gpt })));
    expect(modelBurst.filter((r) => r.status === 200)).toHaveLength(3);
    const refusedModel = (await Promise.all(modelBurst.filter((r) => r.status === 429).map((r) => r.json<ClaimBody>())))[0]!;
    expect(refusedModel.cap).toMatchObject({ kind: "model", model: "gpt-4o", provider: "openai", limit_usd: 0.1 });
    // Another model, or a claim that names none, is not this cap's.
    expect((await claim(token, { estimated_cost_usd: 0.03, model: "claude-3", provider: "anthropic" })).status).toBe(200);
    expect((await claim(token, { estimated_cost_usd: 0.03 })).status).toBe(200);

    const deviceBurst = await Promise.all(Array.from({ length: 6 }, () => claim(laptop, { estimated_cost_usd: 0.02 })));
    expect(deviceBurst.filter((r) => r.status === 200)).toHaveLength(2);
    const refusedDevice = (await Promise.all(deviceBurst.filter((r) => r.status === 429).map((r) => r.json<ClaimBody>())))[0]!;
    expect(refusedDevice.cap).toMatchObject({ kind: "device", device_id: laptopId, limit_usd: 0.05 });
    expect((await claim(desktop, { estimated_cost_usd: 0.02 })).status).toBe(200);

    // A second account: no caps of its own, none of the first's, every claim granted.
    const other = await apiUser();
    const others = await Promise.all(Array.from({ length: 3 }, () => claim(other.token, { estimated_cost_usd: 5, ...gpt })));
    expect(others.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await entitlements(other.token)).caps).toEqual([]);
  });

  it("refuses bad bodies with 400 (or 413/415) and holds nothing", async () => {
    const { token } = await cappedAccount({ monthly: 1 });
    const bad: Array<[string, number]> = [
      ['{"estimated_cost_usd":-1}', 400],
      ['{"estimated_cost_usd":"0.5"}', 400],
      ['{"estimated_cost_usd":1e9}', 400],
      ['{"model":"gpt-4o"}', 400],
      ['{"provider":"openai"}', 400],
      ['{"model":"","provider":"openai"}', 400],
      ['{"estimated_cost_usd":0.1,"tokens":5}', 400],
      ["[]", 400],
      ["null", 400],
      ["{", 400],
      [JSON.stringify({ model: "x".repeat(2000), provider: "p" }), 413],
    ];
    for (const [body, status] of bad) {
      const response = await claim(token, body);
      expect(response.status, body.slice(0, 30)).toBe(status);
      const answer = await response.json<ClaimBody>();
      expect(answer.error, body.slice(0, 30)).toEqual(expect.any(String));
      if (status === 400) expect(answer.problems, body.slice(0, 30)).toEqual(expect.any(Array));
    }
    const form = await SELF.fetch(`${ORIGIN}/api/v1/entitlements/claim`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/plain" },
      body: '{"estimated_cost_usd":0.1}',
    });
    expect(form.status).toBe(415);
    const shown = await entitlements(token);
    expect(shown.caps[0]).toMatchObject({ reserved_usd: 0, reached: false });
    // The bad bodies held nothing: the whole dollar is there.
    expect((await claim(token, { estimated_cost_usd: 1 })).status).toBe(200);
  });

  it("a daily hard cap refuses until the account's midnight; a budget without the switch refuses nothing", async () => {
    const capped = await cappedAccount({ monthly: 100, daily: 0.1, monthlyHardCap: false, dailyHardCap: true, zone: "America/New_York" });
    const before = Date.now();
    expect((await claim(capped.token, { estimated_cost_usd: 0.1 })).status).toBe(200);
    const refused = await claim(capped.token, { estimated_cost_usd: 0.01 });
    expect(refused.status).toBe(429);
    const body = await refused.json<ClaimBody>();
    expect(body.cap).toMatchObject({ kind: "daily", limit_usd: 0.1 });
    const midnight = Date.parse(body.cap!.resets_at);
    expect(midnight - before).toBeLessThanOrEqual(25 * MS.HOUR);
    expect(Math.abs(Number(refused.headers.get("Retry-After")) - Math.ceil((midnight - Date.now()) / 1000))).toBeLessThanOrEqual(2);

    const alertOnly = await cappedAccount({ monthly: 0.1, monthlyHardCap: false });
    expect((await Promise.all(Array.from({ length: 5 }, () => claim(alertOnly.token, { estimated_cost_usd: 0.1 })))).map((r) => r.status)).toEqual(
      Array(5).fill(200),
    );
  });
});

describe("the budget tab's caps", () => {
  it("saves the hard-cap switches and caps of the account's own models and devices, refusing forged choices", async () => {
    const { browser, token, userId } = await cappedAccount({ monthly: 0, monthlyHardCap: false });
    const laptop = await deviceToken(browser, "Form laptop");
    expect(laptop).toBeTruthy();
    const laptopId = (await db.query.sessions.findFirst({ where: eq(schema.sessions.deviceName, "Form laptop"), columns: { id: true } }))!.id;
    expect((await postUsage(token, report({ model_name: "gpt-4o/mini", model_provider: "open ai" }))).status).toBe(202);
    await waitForRows(userId, 1);

    const saved = await browser.post("/dashboard/budget", {
      intent: "save-budget",
      monthlyBudget: "2",
      dailyBudget: "1",
      alertThreshold: "80",
      notificationsEnabled: "on",
      monthlyHardCap: "on",
    });
    expect(saved.status).toBe(302);
    expect(await db.query.budgets.findFirst({ where: eq(schema.budgets.userId, userId) })).toMatchObject({ monthlyHardCap: true, dailyHardCap: false });

    const page = await (await browser.get("/dashboard/budget")).text();
    // The model's target as the form offers it (a name with a slash, a provider with a space).
    const modelTarget = "model:open%20ai/gpt-4o%2Fmini";
    expect(page).toContain(`value="${modelTarget}"`);
    expect(page).toContain(`value="device:${laptopId}"`);

    const other = await apiUser();
    const othersDevice = await deviceToken(other.browser, "Someone else's laptop");
    expect(othersDevice).toBeTruthy();
    const othersId = (await db.query.sessions.findFirst({ where: eq(schema.sessions.deviceName, "Someone else's laptop"), columns: { id: true } }))!.id;
    const refusals: Array<[Record<string, string>, string]> = [
      [{ target: `device:${othersId}`, limitUsd: "1" }, "Choose a model or a device from the list"],
      [{ target: "model:openai/never-used", limitUsd: "1" }, "Choose a model or a device from the list"],
      [{ target: "", limitUsd: "1" }, "Choose a model or a device"],
      [{ target: modelTarget, limitUsd: "0" }, "A cap must be more than $0"],
      [{ target: modelTarget, limitUsd: "-3" }, "Budgets cannot be negative"],
      [{ target: modelTarget, limitUsd: "1.005" }, "Use at most 2 decimals"],
    ];
    for (const [fields, message] of refusals) {
      const response = await browser.post("/dashboard/budget", { intent: "save-cap", ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(visibleText(await response.text()), JSON.stringify(fields)).toContain(message);
    }
    expect(await db.select().from(schema.budgetCaps).where(eq(schema.budgetCaps.userId, userId))).toEqual([]);

    for (const target of [modelTarget, `device:${laptopId}`]) {
      expect((await browser.post("/dashboard/budget", { intent: "save-cap", target, limitUsd: "0.5" })).status).toBe(302);
    }
    const caps = await db.select().from(schema.budgetCaps).where(eq(schema.budgetCaps.userId, userId));
    expect(caps.map((c) => [c.kind, c.modelName, c.modelProvider, c.deviceId, c.limitUsd]).sort()).toEqual([
      ["device", null, null, laptopId, 0.5],
      ["model", "gpt-4o/mini", "open ai", null, 0.5],
    ]);
    // Saved again: the limit changes, no second row.
    expect((await browser.post("/dashboard/budget", { intent: "save-cap", target: modelTarget, limitUsd: "0.75" })).status).toBe(302);
    expect(await db.select().from(schema.budgetCaps).where(eq(schema.budgetCaps.userId, userId))).toHaveLength(2);

    // The other account cannot remove them; the owner can.
    const capId = caps[0]!.id;
    expect((await other.browser.post("/dashboard/budget", { intent: "remove-cap", capId })).status).toBe(404);
    expect((await other.browser.post("/dashboard/budget", { intent: "remove-cap", capId: "not-a-uuid" })).status).toBe(400);
    expect(await db.select().from(schema.budgetCaps).where(eq(schema.budgetCaps.userId, userId))).toHaveLength(2);
    expect((await browser.post("/dashboard/budget", { intent: "remove-cap", capId })).status).toBe(302);
    expect(await db.select().from(schema.budgetCaps).where(eq(schema.budgetCaps.userId, userId))).toHaveLength(1);
  });

  it("the usage and budget tabs say when a hard cap is reached, with the reset in the account's zone", async () => {
    const { browser, token, userId } = await cappedAccount({ monthly: 0.5, zone: "Asia/Tokyo" });
    expect((await postUsage(token, report({ cost_usd: 0.5 }))).status).toBe(202);
    await waitForRows(userId, 1);
    for (const path of ["/dashboard/usage", "/dashboard/budget"]) {
      const text = visibleText(await (await browser.get(path)).text());
      expect(text, path).toMatch(/Your monthly hard cap of \$0\.50 is reached: the desktop app's requests are refused until 00:00 on .+ \(Asia\/Tokyo\)\./);
    }
    const fine = await apiUser();
    expect(visibleText(await (await fine.browser.get("/dashboard/usage")).text())).not.toContain("hard cap");
  });
});
