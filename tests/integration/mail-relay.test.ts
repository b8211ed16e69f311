// Issue 25 F3: the site's mail must not carry an attacker's words. Anyone can type any address into
// the contact form and the waitlist; if the mail to that address quoted what they typed, the site
// would relay phishing from its real sender. Each test replays the attack through the whole Worker
// and reads the outbox: the typed address gets only our fixed text, while our own support inbox
// and a signed-in user's confirmed address may still see the message.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { Browser, db, signedInAs, uniqueEmail, waitForMail } from "./helpers";

const SUPPORT_INBOX = "support@modelify.dev";

/** A word no template could contain, so its absence proves nothing typed reached the mail. */
const marker = () => `zq${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

/** Every way a mail can carry words: subject, text and the listed links. */
const whole = (mail: { subject: string; text: string; links: string[] }) => [mail.subject, mail.text, ...mail.links].join("\n");

function expectNoneOf(mail: { subject: string; text: string; links: string[] }, typed: string[]) {
  const all = whole(mail);
  for (const words of typed) expect(all, `the mail carries "${words}"`).not.toContain(words);
  // Nothing that looks like a link but ours.
  for (const url of all.match(/https?:\/\/[^\s>)]+/g) ?? []) expect(new URL(url).hostname).toBe("localhost");
}

function phishing(tag: string) {
  const link = `https://evil-${tag}.example/login`;
  return {
    link,
    fields: {
      name: `Security Desk ${tag}`,
      subject: `Your account is locked ${tag}`,
      message: `Your password expired ${tag}.\nSign in again at ${link} within 24 hours.`,
      priority: "high",
    },
  };
}

describe("the contact form's acknowledgement", () => {
  it("to an address typed by an anonymous visitor carries none of the visitor's words; the support inbox still gets them", async () => {
    const victim = uniqueEmail("victim");
    const tag = marker();
    const { link, fields } = phishing(tag);
    const sent = await new Browser().post("/contact", { ...fields, email: victim });
    expect(sent.status).toBe(200);

    const ack = await waitForMail(victim, /We received your message/);
    expectNoneOf(ack, [tag, link, "evil-", fields.name, fields.subject, "Your password expired", "Sign in again"]);
    expect(ack.text).toContain("24 hours");

    // Our own staff read the message as it was written, with the sender to reply to.
    const inbox = await waitForMail(SUPPORT_INBOX, new RegExp(tag));
    expect(inbox.subject).toContain(fields.subject);
    expect(inbox.text).toContain(`${fields.name} <${victim}>`);
    expect(inbox.text).toContain(`Sign in again at ${link}`);
    expect(await db.select().from(schema.outbox).where(eq(schema.outbox.to, victim))).toHaveLength(1);
  });

  it("quotes a signed-in user's message to their confirmed address only, never to another address they type", async () => {
    const { browser, email } = await signedInAs("user");
    const own = marker();
    expect((await browser.post("/contact", { name: "Ada Member", email, subject: `Invoice ${own}`, message: `Line one ${own}\nLine two` })).status).toBe(200);
    const copy = await waitForMail(email, /We received your message/);
    expect(copy.text).toContain(`> Line one ${own}`);
    expect(copy.text).toContain("> Line two");

    // Signed in or not, a typed address nobody proved gets the fixed text.
    const victim = uniqueEmail("victim");
    const tag = marker();
    const { link, fields } = phishing(tag);
    expect((await browser.post("/contact", { ...fields, email: victim })).status).toBe(200);
    const ack = await waitForMail(victim, /We received your message/);
    expectNoneOf(ack, [tag, link, fields.name, fields.subject, "Your password expired"]);
  });
});

describe("the waitlist's mails", () => {
  it("confirm joining without the typed names, and the early access key mail does not greet by them either", async () => {
    const victim = uniqueEmail("victim");
    const tag = marker();
    const typed = { firstName: `Visit evil-${tag}.example now`, lastName: `Urgent ${tag}`, company: `Payroll ${tag}` };
    expect((await new Browser().post("/early-access", { email: victim, ...typed })).status).toBe(200);

    const joined = await waitForMail(victim, /waitlist/);
    expectNoneOf(joined, [tag, typed.firstName, typed.lastName, typed.company, "evil-"]);
    expect(joined.text).toContain("Hi,");

    // The key is mailed to the same unproved address when an admin grants the entry.
    const entry = await db.query.waitlist.findFirst({ where: eq(schema.waitlist.email, victim) });
    expect(entry!.firstName).toBe(typed.firstName); // stored for the admin, who reads it on our site
    const { browser: admin } = await signedInAs("admin");
    expect((await admin.post("/dashboard/admin/early-access", { intent: "grant", waitlistId: entry!.id })).status).toBe(200);
    const key = await waitForMail(victim, /early access key/);
    expectNoneOf(key, [tag, typed.firstName, typed.lastName, typed.company, "evil-"]);
    expect(key.text).toContain("Hi,");
  });
});
