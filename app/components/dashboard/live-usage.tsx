// Live totals for the usage tab: after hydration the page opens a WebSocket to the account's
// usage ledger (GET /dashboard/usage/live), which says {"type":"usage"} whenever it stores a
// report; the page then reloads its loader data, so every figure on it updates together.
// Without JavaScript nothing here runs and the page is the server's, as before.
import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { useFormat } from "../format";

const LIVE_PATH = "/dashboard/usage/live";
// The close code of a team's ledger when the viewer was removed from the team (workers/usage-ledger.ts).
const MEMBER_REMOVED = 4004;
// Proxies and load balancers close a socket that says nothing for about a minute.
const PING_MS = 30_000;
// Reconnecting: 1 s, 2 s, 4 s … up to 30 s, each with some jitter so tabs do not return in step.
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
// A burst of reports (one per model call) reloads the figures at most once a second.
const RELOAD_GAP_MS = 1_000;

export type LiveState = { connected: boolean; updatedAt: number | null };

/**
 * Reloads: one at a time; news during one brings exactly one more, RELOAD_GAP_MS after the last
 * began. A hidden tab waits until shown (`onVisible`).
 */
function reloadQueue(revalidate: () => Promise<void>, onReloaded: () => void, stopped: () => boolean) {
  let reloading = false;
  let pending = false;

  async function reload() {
    pending = true;
    if (reloading || document.visibilityState === "hidden") return;
    reloading = true;
    try {
      while (pending && !stopped()) {
        pending = false;
        const started = Date.now();
        await revalidate();
        if (stopped()) return;
        onReloaded();
        const wait = RELOAD_GAP_MS - (Date.now() - started);
        if (pending && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } catch {
      // The next report (or reconnect) tries again; the page keeps what it shows.
    } finally {
      reloading = false;
    }
  }

  function onVisible() {
    if (document.visibilityState === "visible" && pending) void reload();
  }

  return { reload, onVisible };
}

/** `path`: the socket's route (a team's usage page opens one to its team's ledger, ADR 0038). */
export function useLiveUsage(path: string = LIVE_PATH): LiveState {
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  const [connected, setConnected] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);

  useEffect(() => {
    let ws: WebSocket | null = null;
    let stopped = false;
    let failures = 0;
    let wasOpen = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let pingTimer: ReturnType<typeof setInterval> | undefined;
    const { reload, onVisible } = reloadQueue(
      () => revalidateRef.current(),
      () => setUpdatedAt(Date.now()),
      () => stopped,
    );

    function connect() {
      if (stopped) return;
      const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path}`;
      const socket = new WebSocket(url);
      ws = socket;
      socket.onopen = () => {
        failures = 0;
        setConnected(true);
        // Reports may have landed while no socket was open.
        if (wasOpen) void reload();
        wasOpen = true;
        pingTimer = setInterval(() => {
          if (socket.readyState === WebSocket.OPEN) socket.send("ping");
        }, PING_MS);
      };
      socket.onmessage = (event) => {
        if (typeof event.data !== "string" || event.data === "pong") return;
        try {
          if ((JSON.parse(event.data) as { type?: unknown }).type === "usage") void reload();
        } catch {
          // Not ours to read.
        }
      };
      socket.onclose = (event) => {
        clearInterval(pingTimer);
        if (ws === socket) ws = null;
        setConnected(false);
        if (stopped) return;
        // Removed from the team: no new socket; the page reloads and finds it is no longer the viewer's.
        if (event.code === MEMBER_REMOVED) {
          void revalidateRef.current();
          return;
        }
        const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures);
        failures++;
        retryTimer = setTimeout(connect, delay * (0.75 + Math.random() * 0.5));
      };
    }

    connect();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", onVisible);
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      ws?.close(1000, "page closed");
    };
  }, [path]);

  return { connected, updatedAt };
}

/**
 * A quiet note beside the page's title, shown only while the socket is open: "Live", then the time
 * of the last update (a status region, so screen readers hear it without losing their place).
 */
export function LiveStatus({ connected, updatedAt }: LiveState) {
  const f = useFormat();
  const time = updatedAt === null ? null : new Date(updatedAt);
  return (
    <span role="status" className="inline-flex items-center gap-1.5 text-slate-500" data-testid="live-status" data-connected={connected}>
      {connected ? (
        <>
          <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-emerald-500" />
          {time ? (
            <span>
              Updated <time dateTime={time.toISOString()}>{f.time(time.getTime())}</time>
            </span>
          ) : (
            <span>Live</span>
          )}
        </>
      ) : null}
    </span>
  );
}
