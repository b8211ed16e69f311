// The usage tab's live socket (GET /dashboard/usage/live): a signed-in browser's WebSocket goes
// to its own account's ledger, which says so when a report of that account is stored.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accessCookie } from "~/server/cookies.server";
import { withSecurityHeaders } from "~/server/security-headers.server";
import { Browser, ORIGIN, waitFor } from "./helpers";
import { apiUser, postUsage, report, waitForRows } from "./usage-helpers";

const LIVE = "/dashboard/usage/live";
const UPGRADE = { Upgrade: "websocket", Origin: ORIGIN };

/** Opens the live socket as `browser` and keeps every message it hears. */
async function openLive(browser: Browser) {
  const response = await browser.get(LIVE, { headers: UPGRADE });
  expect(response.status).toBe(101);
  const ws = response.webSocket;
  if (!ws) throw new Error("the 101 carried no WebSocket");
  const messages: string[] = [];
  ws.addEventListener("message", (event) => {
    messages.push(String(event.data));
  });
  ws.accept();
  return { response, ws, messages };
}

describe("the usage tab's live socket", () => {
  it("tells a signed-in user's socket when their ledger stores a report", async () => {
    const user = await apiUser();
    const { response, ws, messages } = await openLive(user.browser);
    // The Worker's headers reach the handshake without costing it its socket.
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");

    expect((await postUsage(user.token, { reports: [report()] })).status).toBe(202);
    await waitFor(() => messages.length > 0, "the usage message", 15_000);
    const message = JSON.parse(messages[0]!) as { type: string; version: number };
    expect(message.type).toBe("usage");
    expect(message.version).toBeGreaterThan(0);
    ws.close(1000, "done");
  });

  it("answers a ping with a pong", async () => {
    const user = await apiUser();
    const { ws, messages } = await openLive(user.browser);
    ws.send("ping");
    await waitFor(() => messages.includes("pong"), "the pong");
    ws.close(1000, "done");
  });

  it("never passes another account's report to the socket", async () => {
    const [first, second] = await Promise.all([apiUser(), apiUser()]);
    const { ws, messages } = await openLive(first.browser);

    expect((await postUsage(second.token, { reports: [report()] })).status).toBe(202);
    await waitForRows(second.userId, 1);
    expect(messages).toEqual([]);

    // The socket is alive: the first user's own report arrives, and it is the only message.
    expect((await postUsage(first.token, { reports: [report()] })).status).toBe(202);
    await waitFor(() => messages.length > 0, "the first user's own message", 15_000);
    expect(messages.map((m) => (JSON.parse(m) as { type: string }).type)).toEqual(["usage"]);
    ws.close(1000, "done");
  });

  it("upgrades while the session renews, and sets the renewed cookies", async () => {
    const user = await apiUser();
    user.browser.cookies.delete(accessCookie.name);
    const { response, ws } = await openLive(user.browser);
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${accessCookie.name}=`))).toBe(true);
    ws.close(1000, "done");
  });

  it("refuses a browser without a session: 401, no socket", async () => {
    const response = await new Browser().get(LIVE, { headers: UPGRADE });
    expect(response.status).toBe(401);
    expect(response.webSocket).toBeNull();
  });

  it("refuses a socket opened from another site, or with no Origin: 403", async () => {
    const user = await apiUser();
    const refused: Record<string, string>[] = [{ Upgrade: "websocket", Origin: "https://evil.example" }, { Upgrade: "websocket" }];
    for (const headers of refused) {
      const response = await user.browser.get(LIVE, { headers });
      expect(response.status).toBe(403);
      expect(response.webSocket).toBeNull();
    }
  });

  it("answers a request that is not a WebSocket upgrade with 426", async () => {
    const user = await apiUser();
    const response = await user.browser.get(LIVE, { headers: { Origin: ORIGIN } });
    expect(response.status).toBe(426);
    expect(response.headers.get("Upgrade")).toBe("websocket");
    expect(response.webSocket).toBeNull();
  });

  it("keeps the socket of a ledger's answer (immutable headers) when the security headers are added", async () => {
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(crypto.randomUUID()));
    const session = { "X-Session-Id": crypto.randomUUID(), "X-Session-Expires": String(Date.now() + 60_000) };
    const answer = await stub.fetch("https://ledger.internal/live", { headers: { Upgrade: "websocket", ...session } });
    const request = new Request(`${ORIGIN}${LIVE}`, { headers: UPGRADE });
    const sent = withSecurityHeaders(request, answer, { nonce: "n", stripeOrigin: null, development: false });
    expect(sent.status).toBe(101);
    expect(sent.headers.get("X-Frame-Options")).toBe("DENY");
    const ws = sent.webSocket;
    if (!ws) throw new Error("the socket was lost");
    const messages: string[] = [];
    ws.addEventListener("message", (event) => {
      messages.push(String(event.data));
    });
    ws.accept();
    ws.send("ping");
    await waitFor(() => messages.includes("pong"), "the pong");
    ws.close(1000, "done");
  });
});
