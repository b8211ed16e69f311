// Figures and dates in the visitor's locale and the account's zone (issue 48), through the whole
// Worker: the server's HTML follows Accept-Language (en-US without one), an account may pin a
// locale, and the dashboard's question of the time zone is answered once, through a checked form.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CHANGELOG } from "~/lib/changelog";
import { schema } from "~/lib/db.server";
import { UTC } from "~/lib/time-zone";
import { startOfNextMonth } from "~/lib/usage/dates";
import { resolveWebAuth } from "~/server/auth.server";
import type { AppContext } from "~/server/context.server";
import { Browser, createConfirmedUser, db, keySettings, ORIGIN, visibleText } from "./helpers";

const GERMAN = { "Accept-Language": "de-DE,de;q=0.9,en;q=0.8" };
const JAPANESE = { "Accept-Language": "ja-JP,ja;q=0.9" };

/** A date as Intl writes it in a locale, the options the pages use for a day ("Sep 3, 2026"). */
const dayIn = (locale: string, ms: number, timeZone = UTC) =>
  new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", timeZone }).format(ms);
/** A date and time as the pages write one ("Dec 1, 00:00 UTC"). */
const dateTimeIn = (locale: string, ms: number, timeZone = UTC) =>
  new Intl.DateTimeFormat(locale, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
    timeZoneName: "short",
  }).format(ms);
const text = async (response: Response) => visibleText(await response.text()).replace(/\s/g, " ");

async function accountWithBudget(monthlyBudget: number) {
  const account = await createConfirmedUser();
  await db.insert(schema.budgets).values({ userId: account.id, monthlyBudget, dailyBudget: 12.5, alertThreshold: 80, notificationsEnabled: true });
  return account;
}

/** The signed-in user as a page's loader has it (the session's one statement). */
async function pageUser(browser: Browser) {
  const app = { db, env: keySettings, ctx: { waitUntil: () => {} } } as unknown as AppContext;
  const request = new Request(`${ORIGIN}/dashboard`, { headers: { Cookie: browser.cookieHeader() } });
  return (await resolveWebAuth(request, app)).auth.user!;
}

describe("the visitor's locale", () => {
  it("writes a signed-out page's dates the visitor's way, en-US without Accept-Language", async () => {
    const signedOut = new Browser();
    const post = CHANGELOG[0]!;
    const day = Date.parse(post.date);
    const pages = {
      none: await text(await signedOut.get("/changelog")),
      de: await text(await signedOut.get("/changelog", { headers: GERMAN })),
      ja: await text(await signedOut.get("/changelog", { headers: JAPANESE })),
    };
    expect(pages.none).toContain(dayIn("en-US", day));
    expect(pages.de).toContain(dayIn("de-DE", day));
    expect(pages.de).toMatch(/\b\d{1,2}\. [A-Z][a-zä]{2,4}\.? \d{4}\b/);
    expect(pages.de).not.toContain(dayIn("en-US", day));
    expect(pages.ja).toContain(dayIn("ja-JP", day));
    expect(pages.ja).toMatch(/\d{4}年\d{1,2}月\d{1,2}日/);
  });

  it("writes a German account's money 1.234,56 $ and a Japanese one's $1,234.56, with their dates, in the server's HTML", async () => {
    const { browser } = await accountWithBudget(1234.56);
    const resets = startOfNextMonth(Date.now(), UTC);
    const en = await text(await browser.get("/dashboard/budget"));
    expect(en).toContain("$1,234.56");
    expect(en).toContain(dateTimeIn("en-US", resets));

    const de = await text(await browser.get("/dashboard/budget", { headers: GERMAN }));
    expect(de).toContain("1.234,56 $");
    expect(de).toContain("12,50 $");
    expect(de).not.toContain("$1,234.56");
    expect(de).toContain(dateTimeIn("de-DE", resets));
    // The site's words stay English.
    expect(de).toContain("Monthly budget");

    const ja = await text(await browser.get("/dashboard/budget", { headers: JAPANESE }));
    expect(ja).toContain("$1,234.56");
    expect(ja).toContain(dateTimeIn("ja-JP", resets));
    expect(ja).toMatch(/\d{1,2}月\d{1,2}日 00:00/);
  });

  it("follows the locale the account pinned on its profile, whatever the browser asks, and refuses one it does not offer", async () => {
    const { browser, email } = await accountWithBudget(1234.56);
    const profile = { intent: "save", firstName: "Ada", lastName: "Lovelace", email, timezone: UTC };
    const refused = await browser.post("/dashboard/profile?edit=1", { ...profile, locale: "xx-XX" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Please choose a number and date format from the list.");

    expect((await browser.post("/dashboard/profile?edit=1", { ...profile, locale: "de-DE" })).status).toBeLessThan(400);
    expect(await text(await browser.get("/dashboard/budget", { headers: JAPANESE }))).toContain("1.234,56 $");
    // Back to the browser's.
    expect((await browser.post("/dashboard/profile?edit=1", { ...profile, locale: "" })).status).toBeLessThan(400);
    expect(await text(await browser.get("/dashboard/budget", { headers: JAPANESE }))).toContain("$1,234.56");
  });
});

describe("the dashboard's question of the time zone", () => {
  it("is asked until answered; 'use' moves the account to the browser's zone, and every date follows", async () => {
    const { browser, id } = await accountWithBudget(10);
    expect((await pageUser(browser)).profile).toMatchObject({ timeZone: UTC, timeZoneConfirmedAt: null });

    const answered = await browser.post("/dashboard?index", { answer: "use", timeZone: "Asia/Tokyo" });
    expect(answered.status).toBe(200);
    const user = await pageUser(browser);
    expect(user.profile.timeZone).toBe("Asia/Tokyo");
    expect(user.profile.timeZoneConfirmedAt).toBeGreaterThan(Date.now() - 60_000);
    // The month starts again at Tokyo's midnight, written as Tokyo's time.
    const resets = startOfNextMonth(Date.now(), "Asia/Tokyo");
    const page = await text(await browser.get("/dashboard/budget"));
    expect(page).toContain(dateTimeIn("en-US", resets, "Asia/Tokyo"));
    expect(page).toMatch(/00:00 GMT\+9/);
    const row = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, id) });
    expect(row?.timezone).toBe("Asia/Tokyo");
  });

  it("remembers 'keep' without changing the zone", async () => {
    const { browser } = await createConfirmedUser();
    expect((await browser.post("/dashboard?index", { answer: "keep", timeZone: "Asia/Tokyo" })).status).toBe(200);
    expect((await pageUser(browser)).profile).toMatchObject({ timeZone: UTC, timeZoneConfirmedAt: expect.any(Number) });
  });

  it("refuses an answer it cannot read, a zone it does not know, and another site's post", async () => {
    const { browser } = await createConfirmedUser();
    const answers: Record<string, string>[] = [{ answer: "maybe", timeZone: "Asia/Tokyo" }, { answer: "use", timeZone: "Mars/Olympus" }, { answer: "use" }];
    for (const fields of answers) expect((await browser.post("/dashboard?index", fields)).status, JSON.stringify(fields)).toBe(400);
    // Refused before it is read: React Router's own check of a page action's origin answers 400.
    const foreign = await browser.post("/dashboard?index", { answer: "use", timeZone: "Asia/Tokyo" }, { Origin: "https://elsewhere.example" });
    expect([400, 403]).toContain(foreign.status);
    expect((await pageUser(browser)).profile).toMatchObject({ timeZone: UTC, timeZoneConfirmedAt: null });
  });

  it("counts a zone chosen on the profile as an answer", async () => {
    const { browser, email } = await createConfirmedUser();
    const profile = { intent: "save", firstName: "Ada", lastName: "Lovelace", email };
    expect((await browser.post("/dashboard/profile?edit=1", { ...profile, timezone: UTC })).status).toBeLessThan(400);
    expect((await pageUser(browser)).profile.timeZoneConfirmedAt).toBeNull();
    expect((await browser.post("/dashboard/profile?edit=1", { ...profile, timezone: "Asia/Kolkata" })).status).toBeLessThan(400);
    expect((await pageUser(browser)).profile).toMatchObject({ timeZone: "Asia/Kolkata", timeZoneConfirmedAt: expect.any(Number) });
  });
});
