// The usage pages' live sockets, opened as a browser opens them, for the tests that watch one close
// (a session ended, a member removed).
import { expect } from "vitest";
import { type Browser, ORIGIN } from "./helpers";

export type OpenSocket = { ws: WebSocket; closed: () => { code: number; at: number } | null };

/** Opens the live socket at `path` (a usage page's `…/live`) as `browser`, noting when (and with which code) it closes. */
export async function openLiveSocket(browser: Browser, path: string): Promise<OpenSocket> {
  const response = await browser.get(path, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
  expect(response.status).toBe(101);
  const ws = response.webSocket;
  if (!ws) throw new Error("the 101 carried no WebSocket");
  let closed: { code: number; at: number } | null = null;
  ws.addEventListener("close", (event) => {
    closed = { code: event.code, at: Date.now() };
  });
  ws.accept();
  return { ws, closed: () => closed };
}

/** Still open: a ping is answered (so a close cannot be in flight unseen). */
export async function stillOpen(socket: OpenSocket, what: string) {
  const pong = new Promise<void>((resolve) => socket.ws.addEventListener("message", (event) => event.data === "pong" && resolve()));
  socket.ws.send("ping");
  await pong;
  expect(socket.closed(), what).toBeNull();
}
