// Changing the account's e-mail address: the link goes to the new address, nothing changes until
// it is confirmed there (with a POST), links are single-use and only the latest counts, a taken
// address answers the same without a link, and parallel requests cannot double anything.
import { env, SELF } from "cloudflare:test";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/lib/auth/messages";
import { EMAIL_CHANGE } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { cancelEmailChange, confirmEmailChange, requestEmailChange } from "~/lib/profile/email-change.server";
import { EMAIL_CHANGE_MESSAGES, PROFILE_MESSAGES } from "~/lib/profile/messages";
import { Browser, createConfirmedUser, db, linkPath, ORIGIN, proveWithPassword, queueSettled, STRONG_PASSWORD, uniqueEmail, waitForMail } from "./helpers";

const deps = { db, queue: (env as unknown as { EVENTS: Queue }).EVENTS, origin: ORIGIN };

async function userOf(email: string) {
  const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

async function accountState(userId: string) {
  const user = await db.query.users.findFirst({ where: eq(schema.users.id, userId) });
  const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) });
  return { email: user!.email, profileEmail: profile!.email, pendingEmail: profile!.pendingEmail };
}

async function mailsTo(address: string) {
  return db.select().from(schema.outbox).where(eq(schema.outbox.to, address)).orderBy(desc(schema.outbox.createdAt));
}

/** A confirmed user and a request to move to a fresh address; returns the link's path and token. */
async function requestedChange() {
  const { browser, email } = await createConfirmedUser();
  const user = await userOf(email);
  const newEmail = uniqueEmail("moved");
  const started = Date.now();
  const result = await requestEmailChange(deps, {
    userId: user.id,
    currentEmail: email,
    newEmail,
    prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
  });
  expect(result).toEqual({ ok: true, pendingEmail: newEmail });
  const mail = await waitForMail(newEmail, /Confirm your new Modelify e-mail address/, { after: started });
  const link = mail.links[0]!;
  return { browser, email, user, newEmail, path: linkPath(link), token: new URL(link).searchParams.get("token")!, started };
}

function tokenSignIn(email: string) {
  return SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.77" },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
}

describe("requesting a change", () => {
  it("sets the pending address, mails a link to the new address and a cancel link to the current one, and changes nothing else", async () => {
    const { email, user, newEmail, path, started } = await requestedChange();
    expect(path).toMatch(/^\/profile\/confirm-email\?token=[A-Za-z0-9_-]{43}$/);
    expect(await accountState(user.id)).toEqual({ email, profileEmail: email, pendingEmail: newEmail });
    const notice = await waitForMail(email, /A change of your Modelify e-mail address was requested/, { after: started });
    expect(notice.text).toContain(newEmail);
    expect(notice.links).toHaveLength(1);
    expect(linkPath(notice.links[0]!)).toMatch(/^\/profile\/cancel-email-change\?token=[A-Za-z0-9_-]{43}$/);
    await queueSettled();
    expect((await mailsTo(email)).filter((m) => m.createdAt >= started)).toHaveLength(1);
    const [token] = await db
      .select()
      .from(schema.oneTimeTokens)
      .where(and(eq(schema.oneTimeTokens.userId, user.id), eq(schema.oneTimeTokens.type, "email_change")));
    // Only the hash is stored, and the link lives for EMAIL_CHANGE.linkTtlMs.
    expect(token!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(path).not.toContain(token!.tokenHash);
    expect(token!.expiresAt - token!.createdAt).toBe(EMAIL_CHANGE.linkTtlMs);
  });

  it("lower-cases the address and treats the current address as no change (dropping a pending one)", async () => {
    const { email, user, token } = await requestedChange();
    const upper = uniqueEmail("Mixed").replace("mixed", "MiXeD");
    expect(
      await requestEmailChange(deps, {
        userId: user.id,
        currentEmail: email,
        newEmail: ` ${upper} `,
        prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
      }),
    ).toEqual({
      ok: true,
      pendingEmail: upper.toLowerCase(),
    });
    expect(
      await requestEmailChange(deps, {
        userId: user.id,
        currentEmail: email,
        newEmail: email.toUpperCase(),
        prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
      }),
    ).toEqual({ ok: true, pendingEmail: null });
    expect((await accountState(user.id)).pendingEmail).toBeNull();
    // The earlier link died with the pending change.
    expect((await confirmEmailChange(deps, token)).ok).toBe(false);
    expect(
      (
        await requestEmailChange(deps, {
          userId: user.id,
          currentEmail: email,
          newEmail: "no-at-sign",
          prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
        })
      ).ok,
    ).toBe(false);
  });

  it("sends nothing again while the same address is pending with a live link (auto-save repeats the save)", async () => {
    const { email, user, newEmail, token } = await requestedChange();
    for (let i = 0; i < 3; i++) {
      expect(
        await requestEmailChange(deps, {
          userId: user.id,
          currentEmail: email,
          newEmail,
          prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
        }),
      ).toEqual({
        ok: true,
        pendingEmail: newEmail,
      });
    }
    await queueSettled();
    expect(await mailsTo(newEmail)).toHaveLength(1);
    expect((await confirmEmailChange(deps, token)).ok).toBe(true);
  });

  it("answers a taken address exactly like a free one, but mails a note instead of a link and changes nothing", async () => {
    const other = await createConfirmedUser();
    const { email } = await createConfirmedUser();
    const user = await userOf(email);
    const started = Date.now();
    const answer = await requestEmailChange(deps, {
      userId: user.id,
      currentEmail: email,
      newEmail: other.email.toUpperCase(),
      prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
    });
    expect(answer).toEqual({ ok: true, pendingEmail: other.email });
    const note = await waitForMail(other.email, /Your e-mail address was entered on Modelify/, { after: started });
    expect(note.links).toEqual([]);
    expect(note.text).not.toMatch(/token=/);
    await queueSettled();
    expect((await mailsTo(other.email)).filter((m) => m.createdAt >= started && /Confirm your new/.test(m.subject))).toEqual([]);
    // The stored state is the same shape as for a free address (a pending address), and no link
    // anyone holds can confirm it.
    expect(await accountState(user.id)).toEqual({ email, profileEmail: email, pendingEmail: other.email });
    expect((await tokenSignIn(other.email)).status).toBe(200);
    const otherUser = await userOf(other.email);
    expect(otherUser.email).toBe(other.email);
  });

  it("accepts exactly the per-user limit of a parallel burst", async () => {
    const { email } = await createConfirmedUser();
    const user = await userOf(email);
    const burst = await Promise.all(
      Array.from({ length: EMAIL_CHANGE.requestsPerUser.limit + 7 }, (_, i) =>
        requestEmailChange(deps, {
          userId: user.id,
          currentEmail: email,
          newEmail: `burst-${i}-${email}`,
          prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
        }),
      ),
    );
    expect(burst.filter((r) => r.ok)).toHaveLength(EMAIL_CHANGE.requestsPerUser.limit);
    const refused = burst.filter((r) => !r.ok);
    expect(refused).toHaveLength(7);
    // Each request also proves the password under the sign-in lockout, whose parallel allowance
    // can refuse some first; either way a refusal is a 429 that says when to try again.
    for (const r of refused) {
      expect(r).toMatchObject({ ok: false, status: 429 });
      expect([PROFILE_MESSAGES.tooManyEmailChanges, AUTH_MESSAGES.signInLocked]).toContain(r.ok ? "" : r.error);
      expect(r.ok ? 0 : r.retryAfterSeconds).toBeGreaterThan(0);
    }
    expect(
      await requestEmailChange(deps, {
        userId: user.id,
        currentEmail: email,
        newEmail: `after-${email}`,
        prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
      }),
    ).toMatchObject({ ok: false, status: 429, error: PROFILE_MESSAGES.tooManyEmailChanges });
    // Of all the accepted requests, exactly one link is alive: the one for the pending address.
    const live = await db
      .select()
      .from(schema.oneTimeTokens)
      .where(and(eq(schema.oneTimeTokens.userId, user.id), eq(schema.oneTimeTokens.type, "email_change")));
    expect(live.filter((t) => t.usedAt === null)).toHaveLength(1);
  });

  it("cancels: the pending address goes and its link stops working", async () => {
    const { user, token, email } = await requestedChange();
    await cancelEmailChange(db, user.id);
    expect(await accountState(user.id)).toEqual({ email, profileEmail: email, pendingEmail: null });
    expect(await confirmEmailChange(deps, token)).toEqual({ ok: false, status: 400, error: EMAIL_CHANGE_MESSAGES.invalidLink });
  });
});

describe("confirming a change", () => {
  it("shows the new address on GET without changing anything; the POST changes it and notifies the old address", async () => {
    const { email, user, newEmail, path, token } = await requestedChange();
    const visitor = new Browser();
    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Confirm your new e-mail address");
    expect(html).toContain(newEmail);
    // A scanner fetching the link twice changes nothing.
    await visitor.get(path);
    expect(await accountState(user.id)).toEqual({ email, profileEmail: email, pendingEmail: newEmail });

    const confirmedAt = Date.now();
    const confirm = await visitor.post(path, { token });
    expect(confirm.status).toBe(200);
    const done = await confirm.text();
    expect(done).toContain("E-mail address changed");
    expect(done).toContain("Go to Dashboard");
    expect(await accountState(user.id)).toEqual({ email: newEmail, profileEmail: newEmail, pendingEmail: null });

    const notice = await waitForMail(email, /Your Modelify e-mail address was changed/, { after: confirmedAt });
    expect(notice.text).toContain(newEmail);
    expect((await tokenSignIn(newEmail)).status).toBe(200);
    expect((await tokenSignIn(email)).status).toBe(401);

    // The link works once.
    const again = await visitor.post(path, { token });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(EMAIL_CHANGE_MESSAGES.invalidLink);
    const reopened = await visitor.get(path);
    expect(reopened.status).toBe(400);
    expect(await reopened.text()).toContain(EMAIL_CHANGE_MESSAGES.invalidLink);
  });

  it("keeps the signed-in browser signed in, now under the new address", async () => {
    const { browser, newEmail, path, token } = await requestedChange();
    expect((await browser.post(path, { token })).status).toBe(200);
    const me = await browser.get("/dashboard");
    expect(me.status).toBe(200);
    expect(await me.text()).toContain(newEmail.split("@")[0]!);
  });

  it("refuses an older link once a newer change was requested", async () => {
    const { email, user, token: older } = await requestedChange();
    const newer = uniqueEmail("newer");
    await requestEmailChange(deps, {
      userId: user.id,
      currentEmail: email,
      newEmail: newer,
      prove: () => proveWithPassword(user.id, {}, { passwordAlways: true }),
    });
    const mail = await waitForMail(newer, /Confirm your new Modelify e-mail address/);
    expect(await confirmEmailChange(deps, older)).toEqual({ ok: false, status: 400, error: EMAIL_CHANGE_MESSAGES.invalidLink });
    expect((await accountState(user.id)).email).toBe(email);
    const newerToken = new URL(mail.links[0]!).searchParams.get("token")!;
    expect(await confirmEmailChange(deps, newerToken)).toMatchObject({ ok: true, email: newer, previousEmail: email });
  });

  it("refuses an expired link", async () => {
    const { email, user, path, token } = await requestedChange();
    await db
      .update(schema.oneTimeTokens)
      .set({ expiresAt: Date.now() - 1000 })
      .where(and(eq(schema.oneTimeTokens.userId, user.id), eq(schema.oneTimeTokens.type, "email_change")));
    const page = await new Browser().get(path);
    expect(page.status).toBe(400);
    expect((await new Browser().post(path, { token })).status).toBe(400);
    expect((await accountState(user.id)).email).toBe(email);
  });

  it("changes the address once when two confirmations race", async () => {
    const { email, user, newEmail, path, token } = await requestedChange();
    const confirmedAt = Date.now();
    const results = await Promise.all(Array.from({ length: 6 }, () => new Browser().post(path, { token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await accountState(user.id)).toEqual({ email: newEmail, profileEmail: newEmail, pendingEmail: null });
    await waitForMail(email, /Your Modelify e-mail address was changed/, { after: confirmedAt });
    await queueSettled();
    expect((await mailsTo(email)).filter((m) => m.createdAt >= confirmedAt)).toHaveLength(1);
  });

  it("fails cleanly when the address was taken in the meantime", async () => {
    const { email, user, newEmail, path, token } = await requestedChange();
    // Someone else's account gets the address before the link is opened.
    const squatter = await createConfirmedUser();
    const squatterUser = await userOf(squatter.email);
    await db.update(schema.users).set({ email: newEmail }).where(eq(schema.users.id, squatterUser.id));
    const answer = await new Browser().post(path, { token });
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain(PROFILE_MESSAGES.emailTaken);
    expect(await accountState(user.id)).toEqual({ email, profileEmail: email, pendingEmail: null });
    expect((await userOf(newEmail)).id).toBe(squatterUser.id);
  });

  it("only ever changes the account the link was made for, whoever is signed in", async () => {
    const a = await requestedChange();
    const b = await createConfirmedUser();
    const bUser = await userOf(b.email);
    const bBefore = await accountState(bUser.id);
    // B, signed in, opens and confirms A's link.
    expect((await b.browser.post(a.path, { token: a.token })).status).toBe(200);
    expect(await accountState(bUser.id)).toEqual(bBefore);
    expect((await accountState(a.user.id)).email).toBe(a.newEmail);
    expect((await b.browser.get("/dashboard")).status).toBe(200);
  });

  it("answers garbage tokens and bodies with a 4xx, never a 500", async () => {
    const { user, email, newEmail } = await requestedChange();
    const visitor = new Browser();
    for (const query of ["", "?token=", "?token=abc", `?token=${"A".repeat(43)}`, `?token=${"x".repeat(5000)}`, "?token=%00%FF", "?token=a&token=b"]) {
      const page = await visitor.get(`/profile/confirm-email${query}`);
      expect([400, 404]).toContain(page.status);
    }
    const bodies: Array<Record<string, string>> = [{}, { token: "" }, { token: "A".repeat(43) }, { token: "x".repeat(20_000) }, { token: "' OR 1=1 --" }];
    for (const body of bodies) {
      const answer = await visitor.post("/profile/confirm-email", body);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    const json = await SELF.fetch(`${ORIGIN}/profile/confirm-email`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
      body: "{",
    });
    expect(json.status).toBe(415);
    const crossSite = await SELF.fetch(`${ORIGIN}/profile/confirm-email`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "token=x",
    });
    // React Router refuses a cross-site page action itself (400) before the web layout's 403.
    expect([400, 403]).toContain(crossSite.status);
    expect(await accountState(user.id)).toEqual({ email, profileEmail: email, pendingEmail: newEmail });
  });
});
