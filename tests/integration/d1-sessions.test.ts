// Reads of shared data through D1's Sessions API (ADR 0019): where each request's session starts,
// the bookmark cookie that lets a browser read its own writes, the header that does the same for
// the desktop app, and what must not change: a bad cookie is no error, and the cached marketing
// pages set no cookie. Locally D1 has one copy, so these check the path (which session, which
// bookmark) as well as the result.
import { env, SELF } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { schema } from "~/lib/db.server";
import { metered, requestDb } from "~/server/db.server";
import { PAGE_CACHE_HEADER } from "~/server/page-cache.server";
import { API_BOOKMARK_HEADER, apiBookmark, BOOKMARK_COOKIE, BOOKMARK_MAX_AGE_SECONDS, bookmarkCookie, startD1Session } from "~/server/d1-session.server";
import { Browser, createConfirmedUser, ORIGIN, STRONG_PASSWORD, signUpFields, uniqueEmail, uniqueIp } from "./helpers";

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
// The oldest position there is: valid, and behind everything the tests wrote.
const OLDEST = `00000000-00000000-00000000-${"0".repeat(32)}`;
const MALFORMED = [
  "garbage",
  "x".repeat(5000),
  `${OLDEST}0`,
  OLDEST.toUpperCase().replace(/0/g, "F"),
  `${OLDEST.slice(0, -1)}g`,
  "first-primary",
  "%00%0d%0aSet-Cookie:%20x=1",
  '"quoted"',
];

/** The bookmark cookie's Set-Cookie line of a response, or undefined. */
const bookmarkLine = (response: Response) => response.headers.getSetCookie().find((line) => line.startsWith(`${BOOKMARK_COOKIE}=`));
const bookmarkOf = (response: Response) =>
  bookmarkLine(response)
    ?.split(";")[0]
    ?.slice(BOOKMARK_COOKIE.length + 1);

/** Records what the Worker asks D1's withSession for, and still opens the real sessions. */
function watchSessions() {
  const starts: (string | null | undefined)[] = [];
  const real = env.DB.withSession.bind(env.DB);
  vi.spyOn(env.DB, "withSession").mockImplementation((from) => {
    starts.push(from);
    return real(from);
  });
  return starts;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("where a request's D1 session starts", () => {
  function fakeD1(refuse = false) {
    const calls: (string | null | undefined)[] = [];
    const d1 = {
      withSession(from: string | null | undefined) {
        calls.push(from);
        if (refuse && from !== "first-primary") throw new Error("D1_ERROR: invalid bookmark");
        return { getBookmark: () => null } as unknown as D1DatabaseSession;
      },
    } as unknown as D1Database;
    return { d1, calls };
  }
  const request = (method: string, headers: Record<string, string> = {}) => new Request(`${ORIGIN}/dashboard`, { method, headers });
  const valid = `0000000a-0000b26e-00001538-${"c".repeat(32)}`;

  it("starts a read at the bookmark the browser or the desktop app brought back", () => {
    const brought: Record<string, string>[] = [{ Cookie: `a=1; ${BOOKMARK_COOKIE}=${valid}; b=2` }, { [API_BOOKMARK_HEADER]: valid }];
    for (const headers of brought) {
      const { d1, calls } = fakeD1();
      expect(startD1Session(d1, request("GET", headers))).toMatchObject({ start: "bookmark", received: valid });
      expect(calls).toEqual([valid]);
    }
  });

  it("starts a read without a bookmark anywhere, and every mutation at the primary", () => {
    const read = fakeD1();
    expect(startD1Session(read.d1, request("HEAD")).start).toBe("first-unconstrained");
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const { d1, calls } = fakeD1();
      expect(startD1Session(d1, request(method, { Cookie: `${BOOKMARK_COOKIE}=${valid}` }))).toMatchObject({ start: "first-primary", received: valid });
      expect(calls).toEqual(["first-primary"]);
    }
    expect(read.calls).toEqual(["first-unconstrained"]);
  });

  it("never hands D1 a malformed or oversized bookmark", () => {
    for (const bad of MALFORMED) {
      const { d1, calls } = fakeD1();
      expect(startD1Session(d1, request("GET", { Cookie: `${BOOKMARK_COOKIE}=${bad}`, [API_BOOKMARK_HEADER]: bad })), bad).toMatchObject({
        start: "first-unconstrained",
        received: null,
      });
      expect(calls, bad).toEqual(["first-unconstrained"]);
    }
  });

  it("starts at the primary when D1 refuses the bookmark, and without a session when it refuses any", () => {
    const { d1, calls } = fakeD1(true);
    expect(startD1Session(d1, request("GET", { Cookie: `${BOOKMARK_COOKIE}=${valid}` }))).toMatchObject({ start: "first-primary", received: null });
    expect(calls).toEqual([valid, "first-primary"]);

    const prepared: string[] = [];
    const down = {
      withSession() {
        throw new Error("D1 is unavailable");
      },
      prepare(query: string) {
        prepared.push(query);
        return {} as D1PreparedStatement;
      },
    } as unknown as D1Database;
    const started = startD1Session(down, request("GET", { Cookie: `${BOOKMARK_COOKIE}=${valid}` }));
    expect(started).toMatchObject({ start: "first-primary", received: null });
    started.session.prepare("select 1");
    expect(prepared).toEqual(["select 1"]);
    expect(started.session.getBookmark()).toBeNull();
  });
});

describe("statements prepared once", () => {
  /** A D1 binding or session that records the statements sent through it (and answers no rows). */
  function recorder(name: string, sent: string[]) {
    const statement = (query: string) => ({
      bind: () => statement(query),
      raw: async () => {
        sent.push(`${name}: ${query}`);
        return [];
      },
    });
    return { prepare: statement, batch: async () => [], getBookmark: () => null, withSession: () => recorder(name, sent) };
  }

  it("run on the D1 session of each request that runs them, and count once per run", async () => {
    const sent: string[] = [];
    const binding = recorder("binding", sent) as unknown as D1Database;
    // Prepared outside any request, as a module does once per isolate.
    const byId = requestDb(binding)
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.id, sql.placeholder("id")))
      .prepare();
    const runs = await Promise.all(
      ["first", "second"].map((name) =>
        metered(async () => {
          requestDb(binding, recorder(name, sent) as unknown as D1DatabaseSession);
          await byId.all({ id: "u1" });
          await byId.all({ id: "u2" });
        }),
      ),
    );
    expect(runs.map((run) => run.statements)).toEqual([2, 2]);
    expect(sent.map((line) => line.split(":")[0]).sort()).toEqual(["first", "first", "second", "second"]);
    // Outside a request, the binding itself.
    await byId.all({ id: "u3" });
    expect(sent.at(-1)).toMatch(/^binding: select/);
  });
});

describe("which answers carry the bookmark", () => {
  const [older, newer] = ["0000000a", "0000000b"].map((n) => `00000001-${n}-00000000-${"0".repeat(32)}`) as [string, string];
  const session = (now: string | null, received: string | null = older) => ({
    session: { getBookmark: () => now } as unknown as D1DatabaseSession,
    start: "bookmark" as const,
    received,
  });
  const answer = (headers: [string, string][] = [], status = 200) =>
    new Response("<p>ok</p>", { status, headers: [["Content-Type", "text/html"], ...headers] });
  const html = answer();
  const at = (method: string, origin = ORIGIN, path = "/dashboard", headers: Record<string, string> = {}) =>
    new Request(`${origin}${path}`, { method, headers });

  it("hands a signed-in visitor a changed bookmark, Secure over https, and the answer that signs one in", () => {
    expect(bookmarkCookie(at("POST"), html, session(newer), true)).toBe(
      `${BOOKMARK_COOKIE}=${newer}; Max-Age=${BOOKMARK_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax`,
    );
    expect(bookmarkCookie(at("GET"), html, session(newer), true)).toContain(`${BOOKMARK_COOKIE}=${newer};`);
    expect(bookmarkCookie(at("POST", "https://modelify.example"), html, session(newer, null), true)).toMatch(/; Secure$/);
    const signIn = answer([["Set-Cookie", "mfy_access=eyJ0.x.y; Max-Age=900; Path=/; HttpOnly; SameSite=Lax"]]);
    expect(bookmarkCookie(at("POST"), signIn, session(newer, null), false)).toContain(`${BOOKMARK_COOKIE}=${newer};`);
  });

  it("sets nothing when the bookmark did not change or is unknown or malformed, when signed out, on a public answer or the beacon's", () => {
    expect(bookmarkCookie(at("POST"), html, session(older), true)).toBeNull();
    expect(bookmarkCookie(at("POST"), html, session(null), true)).toBeNull();
    expect(bookmarkCookie(at("POST"), html, session("garbage; Domain=evil.example"), true)).toBeNull();
    for (const method of ["GET", "HEAD", "POST"]) expect(bookmarkCookie(at(method), html, session(newer), false), method).toBeNull();
    const signOut = answer([["Set-Cookie", "mfy_access=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"]]);
    expect(bookmarkCookie(at("POST"), signOut, session(newer), false)).toBeNull();
    const cached = answer([["Cache-Control", "public, s-maxage=60"]]);
    expect(bookmarkCookie(at("GET"), cached, session(newer), true)).toBeNull();
    // The page-view beacon sets no cookie, signed in or not (routes/events.ts).
    expect(bookmarkCookie(at("POST", ORIGIN, "/events"), new Response(null, { status: 204 }), session(newer), true)).toBeNull();
  });

  it("puts it in the API's successful answers to bearer clients and of the token endpoints only", () => {
    const bearer = { Authorization: "Bearer abc.def.ghi" };
    expect(apiBookmark(at("GET", ORIGIN, "/api/v1/me", bearer), answer(), session(newer))).toBe(newer);
    expect(apiBookmark(at("POST", ORIGIN, "/api/v1/auth/token"), answer(), session(newer))).toBe(newer);
    expect(apiBookmark(at("GET", ORIGIN, "/api/v1/me", bearer), answer([], 401), session(newer))).toBeNull();
    expect(apiBookmark(at("POST", ORIGIN, "/api/v1/auth/token"), answer([], 400), session(newer))).toBeNull();
    expect(apiBookmark(at("GET", ORIGIN, "/api/v1/health"), answer(), session(newer))).toBeNull();
    expect(apiBookmark(at("POST", ORIGIN, "/api/stripe/webhook"), answer(), session(newer))).toBeNull();
  });
});

describe("the bookmark cookie through the Worker", () => {
  it("is set by a form's answer, and the next page starts at it and shows the write", async () => {
    const { browser, email } = await createConfirmedUser();
    // Signing in is a mutation: its answer carries the bookmark that has the new session.
    const signedIn = browser.cookies.get(BOOKMARK_COOKIE);
    expect(signedIn).toMatch(BOOKMARK);

    const company = `Engines ${crypto.randomUUID().slice(0, 8)}`;
    const starts = watchSessions();
    const save = await browser.post("/dashboard/profile?edit=1", {
      intent: "save",
      firstName: "Ada",
      initial: "K",
      lastName: "Lovelace",
      username: "",
      email,
      phoneNumber: "+1 555 123 4567",
      bio: "",
      company,
      location: "",
      website: "",
      timezone: "Europe/London",
      securityQuestion: "",
      securityAnswer: "",
    });
    expect(save.status).toBe(302);
    // The save started at the primary, whatever bookmark the browser had.
    expect(starts).toEqual(["first-primary"]);
    const line = bookmarkLine(save);
    expect(line).toBeDefined();
    expect(line).toMatch(new RegExp(`Max-Age=${BOOKMARK_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax$`));
    const afterSave = bookmarkOf(save)!;
    expect(afterSave).toMatch(BOOKMARK);
    // Fixed-width hex: later positions sort later.
    expect(afterSave > signedIn!).toBe(true);

    const page = await browser.get(save.headers.get("Location")!);
    expect(page.status).toBe(200);
    expect(starts).toEqual(["first-primary", afterSave]);
    expect(await page.text()).toContain(company);
  });

  it("moves a signed-in reader's bookmark forward, and the next page starts there", async () => {
    const { browser } = await createConfirmedUser();
    browser.cookies.set(BOOKMARK_COOKIE, OLDEST);
    const starts = watchSessions();
    const page = await browser.get("/dashboard/profile");
    expect(page.status).toBe(200);
    expect(starts).toEqual([OLDEST]);
    const moved = bookmarkOf(page);
    expect(moved).toMatch(BOOKMARK);
    expect(moved! > OLDEST).toBe(true);
    // The next page starts there. (Local D1 moves its bookmark with every statement, reads too,
    // so whether this answer sets a newer one says nothing here; it is never an older one.)
    expect(browser.cookies.get(BOOKMARK_COOKIE)).toBe(moved);
    const again = await browser.get("/dashboard/profile");
    expect(again.status).toBe(200);
    expect(starts).toEqual([OLDEST, moved]);
    expect(browser.cookies.get(BOOKMARK_COOKIE)! >= moved!).toBe(true);
  });

  it("answers a malformed or oversized bookmark cookie with the normal page, and replaces it", async () => {
    const { browser, email } = await createConfirmedUser();
    browser.cookies.delete(BOOKMARK_COOKIE);
    for (const bad of MALFORMED) {
      const starts = watchSessions();
      const page = await SELF.fetch(`${ORIGIN}/dashboard/profile`, {
        redirect: "manual",
        headers: { Cookie: `${browser.cookieHeader()}; ${BOOKMARK_COOKIE}=${encodeURIComponent(bad)}`, "CF-Connecting-IP": browser.ip },
      });
      expect(page.status, bad).toBe(200);
      expect(await page.text(), bad).toContain(email);
      expect(starts, bad).toEqual(["first-unconstrained"]);
      expect(bookmarkOf(page), bad).toMatch(BOOKMARK);
      vi.restoreAllMocks();
    }
    // Signed out too, and for a mutation: the same answers as without the cookie.
    const visitor = new Browser();
    visitor.cookies.set(BOOKMARK_COOKIE, "x".repeat(5000));
    expect((await visitor.get("/auth")).status).toBe(200);
    const wrong = await visitor.post("/auth?mode=signin", { intent: "signin", email: uniqueEmail(), password: "Wrong-Pass-1" });
    expect(wrong.status).toBe(401);
    const signIn = await visitor.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(signIn.status).toBe(200);
    expect(bookmarkOf(signIn)).toMatch(BOOKMARK);
  });

  it("is never set on a signed-out page, so the cached pages stay cached", async () => {
    // A visitor who signed out still has the bookmark of their sign-out: they get the stored
    // pages as everyone does, with no Set-Cookie, stored on the first visit, answered from the copy after.
    const { browser: visitor } = await createConfirmedUser();
    const signOut = await visitor.post("/auth/sign-out", { redirectTo: "/" });
    expect(signOut.status).toBe(302);
    expect(bookmarkOf(signOut)).toMatch(BOOKMARK);
    expect([...visitor.cookies.keys()].filter((name) => name.startsWith("mfy_"))).toEqual([BOOKMARK_COOKIE]);
    visitor.cookies.set(BOOKMARK_COOKIE, OLDEST);
    for (const path of ["/", "/pricing", "/changelog", "/contact", "/legal/privacy"]) {
      const url = `${path}?c=${crypto.randomUUID()}`;
      const first = await visitor.get(url);
      expect(first.status, path).toBe(200);
      expect(first.headers.getSetCookie(), path).toEqual([]);
      expect(first.headers.get(PAGE_CACHE_HEADER), path).toBe("miss");
      const second = await visitor.get(url);
      expect(second.headers.getSetCookie(), path).toEqual([]);
      expect(second.headers.get(PAGE_CACHE_HEADER), path).toBe("hit");
    }
    // Any other signed-out read neither.
    expect((await visitor.get("/auth")).headers.getSetCookie()).toEqual([]);
  });

  it("is not handed out by the signed-out forms that must answer a known and an unknown address alike", async () => {
    const { email } = await createConfirmedUser();
    for (const address of [email, uniqueEmail("nobody")]) {
      const forgot = await new Browser().post("/auth?mode=forgot-password", { intent: "forgot-password", email: address });
      expect(forgot.status, address).toBe(200);
      expect(bookmarkLine(forgot), address).toBeUndefined();
      const signUp = await new Browser().post("/auth?mode=signup", signUpFields(address));
      expect(signUp.status, address).toBe(200);
      expect(bookmarkLine(signUp), address).toBeUndefined();
    }
  });
});

describe("the bookmark header of the API", () => {
  it("answers a token exchange with the bookmark, and a read that sends it back starts there", async () => {
    const { email } = await createConfirmedUser();
    const exchange = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({ email, password: STRONG_PASSWORD }),
    });
    expect(exchange.status).toBe(200);
    expect(exchange.headers.getSetCookie()).toEqual([]);
    const bookmark = exchange.headers.get(API_BOOKMARK_HEADER);
    expect(bookmark).toMatch(BOOKMARK);
    const { access_token: token } = await exchange.json<{ access_token: string }>();

    const starts = watchSessions();
    const me = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${token}`, [API_BOOKMARK_HEADER]: bookmark! } });
    expect(me.status).toBe(200);
    expect(starts).toEqual([bookmark]);
    expect(me.headers.get(API_BOOKMARK_HEADER)! >= bookmark!).toBe(true);
    // A malformed one is ignored, not an error.
    const bad = await SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${token}`, [API_BOOKMARK_HEADER]: "garbage" } });
    expect(bad.status).toBe(200);
    expect(starts).toEqual([bookmark, "first-unconstrained"]);
  });
});
