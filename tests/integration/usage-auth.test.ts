// Who may report usage, and how fast a revocation reaches the usage routes (ADR 0015): a desktop
// session is re-read at most every few seconds; a web session's token at every request.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signAccessToken } from "~/lib/auth/jwt";
import { authenticateUsageToken, revokeUserSessions } from "~/lib/auth/session.server";
import { endSession } from "~/lib/auth/sessions-list.server";
import { SESSION, USAGE_API } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { accessCookie } from "~/server/cookies.server";
import { createConfirmedUser, db, queueSettled, revocationDeps, SESSION_KEYS } from "./helpers";
import { apiUser, postUsage, rawReports, report, storedCount } from "./usage-helpers";

const SECRET = SESSION_KEYS;
const sessionIdOf = (token: string) => JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).sid as string;

/** A revocation written by another Worker isolate: this one's memory does not hear of it. */
const revokeElsewhere = (sessionId: string) =>
  db.update(schema.sessions).set({ revokedAt: Date.now(), revokedReason: "test" }).where(eq(schema.sessions.id, sessionId));

const me = async (token: string) => (await SELF.fetch("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${token}` } })).status;

describe("usage reporting after a revocation", () => {
  it("stops a desktop token revoked elsewhere within the recheck time; other routes at once", async () => {
    const { token, userId } = await apiUser();
    expect((await postUsage(token, report())).status).toBe(202);
    await revokeElsewhere(sessionIdOf(token));

    const now = Date.now();
    expect(await authenticateUsageToken(db, SECRET, token, now)).toEqual({ id: userId, deviceId: sessionIdOf(token), teamId: null });
    expect(await authenticateUsageToken(db, SECRET, token, now + USAGE_API.desktopSessionRecheckMs + 1)).toEqual({ ended: true });
    // Everything but usage reporting reads the session every time.
    expect(await me(token)).toBe(401);
    expect(USAGE_API.desktopSessionRecheckMs).toBeLessThanOrEqual(5_000);
  });

  it("stops a desktop token at once when this Worker ends the session (a device ended, a password reset)", async () => {
    const ended = await apiUser();
    expect((await postUsage(ended.token, report())).status).toBe(202);
    expect(await endSession(revocationDeps, ended.userId, sessionIdOf(ended.token))).toBe(true);
    expect((await postUsage(ended.token, report())).status).toBe(401);

    const reset = await apiUser();
    expect((await postUsage(reset.token, report())).status).toBe(202);
    await revokeUserSessions(revocationDeps, reset.userId, "password_reset");
    expect((await postUsage(reset.token, report())).status).toBe(401);
    // Only the reports sent before the end reach the ledgers.
    await queueSettled();
    expect([await storedCount(ended.userId), await storedCount(reset.userId)]).toEqual([1, 1]);
  });

  it("checks a web session's token against its row on every report", async () => {
    const { browser } = await createConfirmedUser();
    const token: string = await accessCookie.parse(browser.cookieHeader());
    expect((await postUsage(token, report())).status).toBe(202);
    await revokeElsewhere(sessionIdOf(token));
    expect((await postUsage(token, report())).status).toBe(401);
  });

  it("refuses a burst of reports with a revoked desktop token once the recheck is due", async () => {
    const { token } = await apiUser();
    expect((await postUsage(token, report())).status).toBe(202);
    await revokeElsewhere(sessionIdOf(token));
    const later = Date.now() + USAGE_API.desktopSessionRecheckMs + 1;
    const answers = await Promise.all(Array.from({ length: 20 }, () => authenticateUsageToken(db, SECRET, token, later)));
    expect(answers.every((a) => a !== null && "ended" in a)).toBe(true);
    // Found revoked, it is not remembered again: the next report is refused too.
    expect(await authenticateUsageToken(db, SECRET, token)).toEqual({ ended: true });
  });

  it("keeps two accounts' remembered desktop sessions apart: each report lands in its own account", async () => {
    const [a, b] = await Promise.all([apiUser(), apiUser()]);
    expect((await postUsage(a.token, report())).status).toBe(202);
    expect((await postUsage(b.token, report())).status).toBe(202);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => authenticateUsageToken(db, SECRET, i % 2 ? a.token : b.token)));
    expect(answers.map((x) => (x && "id" in x ? x.id : null))).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 ? a.userId : b.userId)));
    // Ending one account's device leaves the other's remembered session reporting.
    expect(await endSession(revocationDeps, a.userId, sessionIdOf(a.token))).toBe(true);
    expect((await postUsage(a.token, report())).status).toBe(401);
    expect((await postUsage(b.token, report())).status).toBe(202);
    // Each accepted report is in its own account's ledger, with the device key that sent it.
    await queueSettled();
    expect((await rawReports(a.userId)).map((r) => r.device_id)).toEqual([sessionIdOf(a.token)]);
    expect((await rawReports(b.userId)).map((r) => r.device_id)).toEqual([sessionIdOf(b.token), sessionIdOf(b.token)]);
  });
});

describe("the API's bearer check", () => {
  /** What a refusal says: its status, body and WWW-Authenticate. */
  const refusal = async (response: Response) => ({ status: response.status, body: await response.json(), challenge: response.headers.get("WWW-Authenticate") });
  const meWith = (headers: Record<string, string>) => SELF.fetch("http://localhost/api/v1/me", { headers });
  const usageWith = (headers: Record<string, string>) =>
    SELF.fetch("http://localhost/api/v1/usage", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(report()),
    });

  it("refuses a token the same way on the usage routes as on every other API route", async () => {
    const { token, userId } = await apiUser();
    const sid = sessionIdOf(token);
    const ended = await apiUser();
    await revokeElsewhere(sessionIdOf(ended.token));
    const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      malformed: { Authorization: "Basic dXNlcjpwYXNz" },
      "signed with another secret": bearer(
        await signAccessToken({ sub: userId, sid }, { current: "another-secret-of-at-least-32-chars!!" }, SESSION.accessTokenTtlMs),
      ),
      "naming another user's session": bearer(await signAccessToken({ sub: crypto.randomUUID(), sid }, SECRET, SESSION.accessTokenTtlMs)),
      "of a session that ended": bearer(ended.token),
    };
    for (const [name, headers] of Object.entries(cases)) {
      const [fromMe, fromUsage] = [await refusal(await meWith(headers)), await refusal(await usageWith(headers))];
      expect(fromMe.status, name).toBe(401);
      expect(fromUsage, name).toEqual(fromMe);
    }
    expect((await refusal(await meWith(bearer(ended.token)))).body).toMatchObject({ code: "session_ended" });
  });
});
