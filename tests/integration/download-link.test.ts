// "E-mail me the download link" (issue 46): on a phone, the Downloads page mails the account's own
// address a link to itself; our words, our page (never a signed installer link), a few an hour.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DOWNLOAD } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { EMAIL_LINK_MESSAGES } from "~/lib/downloads/messages";
import { Browser, createConfirmedUser, db, ORIGIN, queueSettled, waitForMail } from "./helpers";

const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const SUBJECT = /Download Modelify on your computer/;

async function subscriber() {
  const account = await createConfirmedUser();
  await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId: account.id, status: "active", currentPeriodEnd: Date.now() + 86400_000 });
  return account;
}

const ask = (browser: Browser, fields: Record<string, string> = { intent: "email-link" }) =>
  browser.post("/dashboard/downloads", fields, { "User-Agent": IPHONE_UA });

async function mailsTo(email: string) {
  await queueSettled();
  return db.select().from(schema.outbox).where(eq(schema.outbox.to, email));
}

describe("e-mailing the download link", () => {
  it("sends the account's own address our text with a link to the Downloads page, and says so on the page", async () => {
    const { browser, email } = await subscriber();
    const response = await ask(browser);
    expect(response.status).toBe(200);
    const page = (await response.text()).replaceAll("<!-- -->", "");
    expect(page).toContain(EMAIL_LINK_MESSAGES.sent(email));
    const mail = await waitForMail(email, SUBJECT);
    expect(mail.links).toEqual([`${ORIGIN}/dashboard/downloads`]);
    expect(mail.text).toContain(`${ORIGIN}/dashboard/downloads`);
    // No signed installer link (those expire in minutes) and nothing the request carried.
    expect(mail.text).not.toContain("/downloads/file/");
  });

  it("sends at most the hourly cap to one account, even when asked many times at once", async () => {
    const { browser, email } = await subscriber();
    const answers = await Promise.all(Array.from({ length: 12 }, () => ask(browser)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(DOWNLOAD.emailLinkPerUser.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - DOWNLOAD.emailLinkPerUser.limit);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain(EMAIL_LINK_MESSAGES.tooMany);
    for (const r of answers.filter((a) => a.status !== 429)) await r.body?.cancel();
    expect(await mailsTo(email)).toHaveLength(DOWNLOAD.emailLinkPerUser.limit);
  });

  it("refuses a form it did not make with a 400, and signed-out callers are sent to sign in, sending nothing", async () => {
    const { browser, email } = await subscriber();
    const bad = await ask(browser, { intent: "email-link-to", to: "someone@example.com" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(EMAIL_LINK_MESSAGES.invalid);
    const anonymous = await ask(new Browser());
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/auth");
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await mailsTo("someone@example.com")).toHaveLength(0);
  });
});
