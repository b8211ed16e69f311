// The Edit Profile form through the whole Worker: the spec's validation, the username rules
// decided on the server (14 days, reserved words, case-insensitive uniqueness, races), the hashed
// security answer, and that nobody writes anyone's profile but their own.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { USERNAME } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, ORIGIN, STRONG_PASSWORD, waitForMail } from "./helpers";

async function profileOf(email: string) {
  const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
  return (await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user!.id) }))!;
}

function fields(email: string, overrides: Record<string, string> = {}) {
  return {
    intent: "save",
    firstName: "Ada",
    initial: "K",
    lastName: "Lovelace",
    username: "",
    email,
    phoneNumber: "+1 555 123 4567",
    bio: "Writes programs for engines.",
    company: "Analytical Ltd",
    location: "London",
    website: "ada.example.com",
    timezone: "Europe/London",
    securityQuestion: "",
    securityAnswer: "",
    ...overrides,
  };
}

async function save(browser: Browser, email: string, overrides: Record<string, string> = {}) {
  return browser.post("/dashboard/profile?edit=1", fields(email, overrides));
}

// Letters without vowels and without digits (which the profanity check reads as letters), so a
// generated name can never spell a refused word by chance.
const SAFE = "bcdfgjpqvwxyz";
const uniqueName = (prefix = "user") => `${prefix}_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => SAFE[b % SAFE.length]).join("")}`;

describe("saving the profile", () => {
  it("saves every field and goes back to the profile with the spec's message", async () => {
    const { browser, email } = await createConfirmedUser();
    const response = await save(browser, email, { bio: "Line one\nLine two", company: "Engines & Co" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/profile?saved=1");
    const row = await profileOf(email);
    expect(row).toMatchObject({ firstName: "Ada", lastName: "Lovelace", bio: "Line one\nLine two", company: "Engines & Co", timezone: "Europe/London" });
    const page = await browser.get("/dashboard/profile?saved=1");
    const html = await page.text();
    expect(html).toContain("Profile saved successfully!");
    expect(html).toContain("Engines &amp; Co");
    expect(html).toContain("London");
  });

  it("auto-saves without leaving the dialog", async () => {
    const { browser, email } = await createConfirmedUser();
    const response = await save(browser, email, { intent: "autosave", js: "1", location: "Paris" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Changes auto-saved!");
    expect((await profileOf(email)).location).toBe("Paris");
  });

  it.each([
    [{ firstName: "" }, "First name is required."],
    [{ firstName: "A" }, "First name must be at least 2 characters long."],
    [{ lastName: " " }, "Last name is required."],
    [{ lastName: "L" }, "Last name must be at least 2 characters long."],
    [{ email: "not-an-address" }, "Please enter a valid email address"],
    [{ website: "nodot" }, "Please enter a valid website URL (e.g., https://example.com)."],
    [{ website: "javascript:alert(1)//x.com" }, "Please enter a valid website URL (e.g., https://example.com)."],
    [{ username: "ab" }, "Username must be at least 3 characters long"],
    [{ username: "a".repeat(21) }, "Username must be 20 characters or less"],
    [{ username: "ada lovelace" }, "Username can only contain letters, numbers, underscores, and hyphens"],
    [{ username: "shithead_99" }, "Username contains inappropriate language"],
    [{ username: "the_admin" }, "Username cannot contain reserved terms"],
    [{ username: "HelpDesk" }, "Username cannot contain reserved terms"],
    [{ timezone: "Mars/Olympus" }, "Please choose a timezone from the list."],
    [{ securityQuestion: "favorite_color", securityAnswer: "ab" }, "Please provide a security answer (at least 3 characters)"],
    [{ phoneNumber: "12345" }, "Please enter a valid phone number"],
  ])("refuses %o with the spec's message and writes nothing", async (change, text) => {
    const { browser, email } = await createConfirmedUser();
    const before = await profileOf(email);
    const response = await save(browser, email, { ...change, bio: "must not be written" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(text.replaceAll("'", "&#x27;"));
    const after = await profileOf(email);
    expect(after.bio).toBe(before.bio);
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it("stores the security answer only hashed and asks for one when the question changes", async () => {
    const { browser, email } = await createConfirmedUser();
    const missing = await save(browser, email, { securityQuestion: "birth_city", securityAnswer: "" });
    expect(missing.status).toBe(400);
    const ok = await save(browser, email, { securityQuestion: "birth_city", securityAnswer: "Gotham City" });
    expect(ok.status).toBe(302);
    const row = await profileOf(email);
    expect(row.securityQuestion).toBe("birth_city");
    expect(row.securityAnswerHash).toMatch(/^pbkdf2_sha256\$/);
    expect(row.securityAnswerHash).not.toContain("Gotham");
    // A blank answer keeps the stored one.
    await save(browser, email, { securityQuestion: "birth_city", securityAnswer: "" });
    expect((await profileOf(email)).securityAnswerHash).toBe(row.securityAnswerHash);
  });

  it("a new phone number has to be verified again", async () => {
    const { browser, email } = await createConfirmedUser();
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    await db.update(schema.userProfiles).set({ phoneVerified: true }).where(eq(schema.userProfiles.userId, user!.id));
    await save(browser, email, { phoneNumber: "+1 555 123 4567" });
    const same = await profileOf(email);
    expect(same.phoneNumber).toBe("+15551234567");
    expect(same.phoneVerified).toBe(true);
    await save(browser, email, { phoneNumber: "555 987 6543" });
    const changed = await profileOf(email);
    expect(changed.phoneNumber).toBe("+15559876543"); // no + gets +1
    expect(changed.phoneVerified).toBe(false);
  });

  it("writes only the signed-in user's own profile, whatever ids the body carries", async () => {
    const a = await createConfirmedUser();
    const b = await createConfirmedUser();
    const bUser = await db.query.users.findFirst({ where: eq(schema.users.email, b.email) });
    const bBefore = await profileOf(b.email);
    const response = await save(a.browser, a.email, { userId: bUser!.id, user_id: bUser!.id, id: bBefore.id, bio: "written by a" });
    expect(response.status).toBe(302);
    expect((await profileOf(a.email)).bio).toBe("written by a");
    expect(await profileOf(b.email)).toEqual(bBefore);
  });

  it("refuses visitors, other sites, unknown intents and bodies that are not a form", async () => {
    const { browser, email } = await createConfirmedUser();
    const visitor = await new Browser().post("/dashboard/profile", fields(email));
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/auth/);
    const crossSite = await browser.post("/dashboard/profile", fields(email), { Origin: "https://evil.example" });
    // React Router refuses a cross-site document POST itself (400) before our middleware would (403).
    expect([400, 403]).toContain(crossSite.status);
    expect((await browser.post("/dashboard/profile", fields(email, { intent: "delete" }))).status).toBe(400);
    const json = await SELF.fetch(`${ORIGIN}/dashboard/profile`, {
      method: "POST",
      headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify(fields(email)),
    });
    expect(json.status).toBeGreaterThanOrEqual(400);
    expect(json.status).toBeLessThan(500);
    const before = await profileOf(email);
    expect(before.bio).toBeNull();
  });
});

describe("usernames", () => {
  it("allows a first username, then no change for 14 days", async () => {
    const { browser, email } = await createConfirmedUser();
    const first = uniqueName("ada");
    expect((await save(browser, email, { username: first })).status).toBe(302);
    const row = await profileOf(email);
    expect(row.username).toBe(first);
    expect(row.usernameLastChanged).not.toBeNull();

    const again = await save(browser, email, { username: uniqueName("other"), bio: "not written" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Can change in 14 days");
    const after = await profileOf(email);
    expect(after.username).toBe(first);
    expect(after.bio).toBe(row.bio);

    // Saving the form with the same (or an empty) username is not a change.
    expect((await save(browser, email, { username: first })).status).toBe(302);
    expect((await save(browser, email, { username: "" })).status).toBe(302);
    expect((await profileOf(email)).username).toBe(first);

    // Thirteen days later there is one day left; after fourteen it may change.
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    const day = 24 * 60 * 60 * 1000;
    await db
      .update(schema.userProfiles)
      .set({ usernameLastChanged: Date.now() - 13 * day })
      .where(eq(schema.userProfiles.userId, user!.id));
    expect(await (await save(browser, email, { username: uniqueName("later") })).text()).toContain("Can change in 1 day");
    expect(await (await browser.get("/dashboard/profile?edit=1")).text()).toContain("Can change in 1 day");
    await db
      .update(schema.userProfiles)
      .set({ usernameLastChanged: Date.now() - USERNAME.changeIntervalMs - 1000 })
      .where(eq(schema.userProfiles.userId, user!.id));
    const next = uniqueName("later");
    expect((await save(browser, email, { username: next })).status).toBe(302);
    expect((await profileOf(email)).username).toBe(next);
  });

  it("is unique without regard to case", async () => {
    const a = await createConfirmedUser();
    const b = await createConfirmedUser();
    const name = uniqueName("Grace");
    expect((await save(a.browser, a.email, { username: name })).status).toBe(302);
    const taken = await save(b.browser, b.email, { username: name.toLowerCase() });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("This username is already taken.");
    expect((await profileOf(b.email)).username).toBeNull();
  });

  it("two users racing for one name: exactly one gets it", async () => {
    const users = await Promise.all([createConfirmedUser(), createConfirmedUser(), createConfirmedUser(), createConfirmedUser()]);
    const name = uniqueName("race");
    const answers = await Promise.all(users.map((u, i) => save(u.browser, u.email, { username: i % 2 ? name : name.toUpperCase() })));
    expect(answers.filter((r) => r.status === 302)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(3);
    const owners = await Promise.all(users.map((u) => profileOf(u.email)));
    expect(owners.filter((p) => p.username?.toLowerCase() === name.toLowerCase())).toHaveLength(1);
  });

  it("one user changing twice at once: the 14-day rule lets one change through", async () => {
    const { browser, email } = await createConfirmedUser();
    expect((await save(browser, email, { username: uniqueName("first") })).status).toBe(302);
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    await db
      .update(schema.userProfiles)
      .set({ usernameLastChanged: Date.now() - USERNAME.changeIntervalMs - 1000 })
      .where(eq(schema.userProfiles.userId, user!.id));
    const names = Array.from({ length: 6 }, () => uniqueName("burst"));
    const answers = await Promise.all(names.map((n) => save(browser, email, { username: n })));
    expect(answers.filter((r) => r.status === 302)).toHaveLength(1);
    const row = await profileOf(email);
    expect(names).toContain(row.username);
  });
});

describe("the overview's profile completion", () => {
  it("is Incomplete (a link to the profile) until names, a username and a verified phone are there", async () => {
    const { browser, email } = await createConfirmedUser();
    expect(await (await browser.get("/dashboard")).text()).toContain("Incomplete · finish it");
    await save(browser, email, { username: uniqueName("done") });
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    await db.update(schema.userProfiles).set({ phoneVerified: true }).where(eq(schema.userProfiles.userId, user!.id));
    const html = await (await browser.get("/dashboard")).text();
    expect(html).not.toContain("Incomplete");
    expect(html).toMatch(/Profile<\/dt><dd[^>]*>Complete</);
  });
});

describe("changing the e-mail address from the profile", () => {
  it("Save asks for confirmation from the new inbox and changes nothing until then; auto-save never does", async () => {
    const { browser, email } = await createConfirmedUser();
    const next = email.replace("@", "+new@");
    const auto = await save(browser, email, { intent: "autosave", js: "1", email: next });
    expect(auto.status).toBe(200);
    expect((await profileOf(email)).pendingEmail).toBeNull();

    // The session is not enough: the current password proves the change.
    const withoutPassword = await save(browser, email, { email: next });
    expect(withoutPassword.status).toBe(400);
    expect((await profileOf(email)).pendingEmail).toBeNull();

    const response = await save(browser, email, { email: next, currentPassword: STRONG_PASSWORD });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/profile?saved=1&emailPending=1");
    const row = await profileOf(email);
    expect(row.pendingEmail).toBe(next);
    expect(row.email).toBe(email);
    expect(await db.query.users.findFirst({ where: eq(schema.users.email, email) })).toBeTruthy();
    const mail = await waitForMail(next, /confirm/i);
    expect(mail.links[0]).toContain("/profile/confirm-email?token=");
    const page = await (await browser.get("/dashboard/profile?saved=1&emailPending=1")).text();
    expect(page).toContain(`We sent a confirmation link to ${next}`);

    // Saving other fields again keeps the pending change; putting the current address back ends it.
    await save(browser, email, { email: next, company: "Still pending" });
    expect((await profileOf(email)).pendingEmail).toBe(next);
    await save(browser, email, { email });
    expect((await profileOf(email)).pendingEmail).toBeNull();
  });
});
