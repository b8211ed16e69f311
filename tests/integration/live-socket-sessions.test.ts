// Issue 45, F3 and F4: a live-usage socket belongs to its session. Every way a session ends (sign
// out, "end session", "sign out all other sessions", a password reset, the admin's sign-out
// everywhere) closes its sockets within a second; a socket also ends when the access token it
// came with would have expired (the tab opens a new one, and its upgrade checks the session
// again); and an account keeps at most LIVE_USAGE.maxSocketsPerAccount open, the oldest closing.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIVE_USAGE } from "~/lib/constants";
import { accessCookie } from "~/server/cookies.server";
import { Browser, createConfirmedUser, STRONG_PASSWORD, signedInAs, waitFor, waitForMail } from "./helpers";
import { type OpenSocket, openLiveSocket, stillOpen } from "./live-socket";

const LIVE = "/dashboard/usage/live";

/** Waits for the socket to close, within a second of `since`. */
async function closesWithinASecond(socket: OpenSocket, since: number, what: string) {
  await waitFor(() => socket.closed() !== null, `${what}: the socket's close`, 1_000);
  expect(socket.closed()!.at - since, what).toBeLessThanOrEqual(1_000);
}

/** A second browser of the same account, signed in with its password. */
async function anotherBrowser(email: string) {
  const browser = new Browser();
  expect((await browser.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD })).status).toBe(200);
  return browser;
}

const sidOf = (browser: Browser) =>
  JSON.parse(
    atob(
      JSON.parse(atob(browser.cookies.get(accessCookie.name)!))
        .split(".")[1]!
        .replace(/-/g, "+")
        .replace(/_/g, "/"),
    ),
  ).sid as string;

describe("a live socket belongs to its session", () => {
  it("closes within a second when its session signs out, and only that session's socket", async () => {
    const { browser, email } = await createConfirmedUser();
    const other = await anotherBrowser(email);
    const [mine, theirs] = [await openLiveSocket(browser, LIVE), await openLiveSocket(other, LIVE)];
    const start = Date.now();
    expect((await browser.post("/auth/sign-out", {})).status).toBeLessThan(400);
    await closesWithinASecond(mine, start, "sign-out");
    await stillOpen(theirs, "the other session's socket");
    theirs.ws.close(1000, "done");
  });

  it("closes when the session is ended from another one, and when all other sessions are signed out", async () => {
    const { browser, email } = await createConfirmedUser();
    const [second, third] = [await anotherBrowser(email), await anotherBrowser(email)];
    const [own, ofSecond, ofThird] = [await openLiveSocket(browser, LIVE), await openLiveSocket(second, LIVE), await openLiveSocket(third, LIVE)];

    let start = Date.now();
    const ended = await browser.post("/dashboard/profile/sessions", { intent: "end", sessionId: sidOf(second) });
    expect(ended.status).toBe(303);
    await closesWithinASecond(ofSecond, start, "end session");
    await stillOpen(ofThird, "a third session's socket");

    start = Date.now();
    expect((await browser.post("/dashboard/profile/sessions", { intent: "end-others" })).status).toBe(303);
    await closesWithinASecond(ofThird, start, "sign out all other sessions");
    await stillOpen(own, "the session that asked keeps its socket");
    own.ws.close(1000, "done");
  });

  it("closes every socket of the account when its password is reset", async () => {
    const { browser, email } = await createConfirmedUser();
    const socket = await openLiveSocket(browser, LIVE);
    const resetter = new Browser();
    expect((await resetter.post("/auth?mode=forgot-password", { intent: "forgot-password", email })).status).toBe(200);
    const mail = await waitForMail(email, /Reset your Modelify password/);
    const link = new URL(mail.links[0]!);
    expect((await resetter.get(`${link.pathname}${link.search}`)).status).toBeLessThan(400);
    const start = Date.now();
    const reset = await resetter.post("/auth/reset-password", { password: "Brand-New-Secret-91", confirmPassword: "Brand-New-Secret-91" });
    expect(reset.status).toBe(200);
    await closesWithinASecond(socket, start, "password reset");
  });

  it("closes when an admin signs the account out everywhere", async () => {
    const { browser, email } = await createConfirmedUser();
    const socket = await openLiveSocket(browser, LIVE);
    const admin = await signedInAs("admin");
    const start = Date.now();
    expect((await admin.browser.post("/dashboard/admin", { intent: "sign-out-everywhere", email })).status).toBe(200);
    await closesWithinASecond(socket, start, "admin sign-out everywhere");
  });

  it("ends when the access token it came with would have expired (the tab renews with a new socket)", async () => {
    const { browser, id } = await createConfirmedUser();
    const socket = await openLiveSocket(browser, LIVE);
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(id));
    const token = JSON.parse(atob(browser.cookies.get(accessCookie.name)!)) as string;
    const { exp } = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { exp: number };
    // The socket carries its session and the token's own end.
    const carried = await runInDurableObject(stub, (_instance, state) => state.getWebSockets().map((ws) => ws.deserializeAttachment()));
    expect(carried).toEqual([expect.objectContaining({ sessionId: sidOf(browser), expiresAt: exp * 1000 })]);
    // A socket whose token ends in a moment: the ledger's alarm closes it then, asking for a new one.
    const soon = await env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(id)).fetch("https://ledger.internal/live", {
      headers: { Upgrade: "websocket", "X-Session-Id": sidOf(browser), "X-Session-Expires": String(Date.now() + 300) },
    });
    const short = soon.webSocket!;
    let code: number | null = null;
    short.addEventListener("close", (event) => {
      code = event.code;
    });
    short.accept();
    await waitFor(() => code !== null, "the expired socket's close", 5_000);
    expect(code).toBe(4002);
    await stillOpen(socket, "a socket whose token lives on");
    socket.ws.close(1000, "done");
  });

  it("refuses a socket that names no live session", async () => {
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(crypto.randomUUID()));
    const named: Array<Record<string, string>> = [
      {},
      { "X-Session-Id": crypto.randomUUID(), "X-Session-Expires": String(Date.now() - 1) },
      { "X-Session-Expires": "soon" },
    ];
    for (const headers of named) {
      const answer = await stub.fetch("https://ledger.internal/live", { headers: { Upgrade: "websocket", ...headers } });
      expect(answer.status).toBe(400);
      expect(answer.webSocket).toBeNull();
    }
  });
});

describe("live sockets per account", () => {
  it(`keeps at most ${LIVE_USAGE.maxSocketsPerAccount} open: the ${LIVE_USAGE.maxSocketsPerAccount + 1}th closes the oldest`, async () => {
    const { browser, id } = await createConfirmedUser();
    const sockets: OpenSocket[] = [];
    for (let i = 0; i < LIVE_USAGE.maxSocketsPerAccount; i++) sockets.push(await openLiveSocket(browser, LIVE));
    for (const socket of sockets) expect(socket.closed()).toBeNull();
    const newest = await openLiveSocket(browser, LIVE);
    await waitFor(() => sockets[0]!.closed() !== null, "the oldest socket's close", 1_000);
    expect(sockets[0]!.closed()!.code).toBe(4003);
    for (const socket of [...sockets.slice(1), newest]) await stillOpen(socket, "a newer socket");
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(id));
    const open = await runInDurableObject(stub, (_instance, state) => state.getWebSockets().filter((ws) => ws.readyState === WebSocket.OPEN).length);
    expect(open).toBe(LIVE_USAGE.maxSocketsPerAccount);
    for (const socket of [...sockets, newest]) socket.ws.close(1000, "done");
  });

  it(`holds the cap under a burst: 30 upgrades at once leave ${LIVE_USAGE.maxSocketsPerAccount} open`, async () => {
    const { browser, id } = await createConfirmedUser();
    const sockets = await Promise.all(Array.from({ length: 30 }, () => openLiveSocket(browser, LIVE)));
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(id));
    await waitFor(
      async () =>
        (await runInDurableObject(stub, (_i, state) => state.getWebSockets().filter((ws) => ws.readyState === WebSocket.OPEN).length)) <=
        LIVE_USAGE.maxSocketsPerAccount,
      "the cap",
      2_000,
    );
    await waitFor(() => sockets.filter((s) => s.closed() === null).length === LIVE_USAGE.maxSocketsPerAccount, "the browser's view of the cap", 2_000);
    for (const socket of sockets) socket.ws.close(1000, "done");
  });
});
