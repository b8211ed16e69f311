// The browser's side of the first-party marketing events (lib/marketing/events.ts) and the
// optional advertising pixel (lib/marketing/pixel.ts). Events are posted to /events without a
// cookie of their own; nothing here may break a page, so every failure is swallowed.
import { Link } from "react-router";
import { useEffect, useState, type RefObject } from "react";
import { MARKETING, MS } from "~/lib/constants";
import type { BrowserEventName } from "~/lib/marketing/events";
import { CONSENT_STORAGE_KEY, type PixelConsent, PIXEL_SCRIPT_URL, readConsent, shouldLoadPixel } from "~/lib/marketing/pixel";
import { Button } from "../ui";

type Fbq = ((...args: unknown[]) => void) & { loaded?: boolean; queue?: unknown[]; callMethod?: (...args: unknown[]) => void; version?: string };
declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

/** Records one event: first-party always, and on the pixel when it is there. */
function sendMarketingEvent(name: BrowserEventName): void {
  try {
    void fetch("/events", {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name, path: window.location.pathname }),
    }).catch(() => undefined);
    window.fbq?.("track", name);
  } catch {
    // A blocked request or a broken pixel must not break the page.
  }
}

const VISIT_KEY = "modelify:visit";

/** On mount; `perVisit` sends at most once per browser tab session (a visit), not per page view. */
export function useMarketingEvent(name: BrowserEventName, { perVisit = false, enabled = true }: { perVisit?: boolean; enabled?: boolean } = {}) {
  useEffect(() => {
    if (!enabled) return;
    if (perVisit) {
      try {
        if (window.sessionStorage.getItem(VISIT_KEY) === "1") return;
        window.sessionStorage.setItem(VISIT_KEY, "1");
      } catch {
        // Storage refused (private mode settings): count the view.
      }
    }
    sendMarketingEvent(name);
  }, [name, perVisit, enabled]);
}

/** Once per mount, when at least a third of the element has been on screen. */
export function useSeenEvent(ref: RefObject<Element | null>, name: BrowserEventName) {
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          sendMarketingEvent(name);
        }
      },
      { threshold: 0.3 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, name]);
}

function loadPixel(pixelId: string) {
  if (window.fbq) return;
  // Meta's loader stub: calls made before the script arrives are queued and replayed by it.
  const fbq: Fbq = (...args: unknown[]) => {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue?.push(args);
  };
  fbq.queue = [];
  fbq.loaded = false;
  fbq.version = "2.0";
  window.fbq = fbq;
  window._fbq = fbq;
  const script = document.createElement("script");
  script.async = true;
  script.src = PIXEL_SCRIPT_URL;
  script.onerror = () => console.info("The advertising pixel did not load (blocked or offline); ignored.");
  document.head.appendChild(script);
  fbq("init", pixelId);
  fbq("track", "PageView");
  // The pixel is checked every 100 ms until it has loaded; a blocker means it never does,
  // which is logged and otherwise ignored.
  const started = Date.now();
  const timer = window.setInterval(() => {
    if (window.fbq?.callMethod !== undefined) return window.clearInterval(timer);
    if (Date.now() - started < MARKETING.pixelInitGiveUpMs) return;
    window.clearInterval(timer);
    console.info(`The advertising pixel did not start within ${MARKETING.pixelInitGiveUpMs / MS.SECOND} s; ignored.`);
  }, MARKETING.pixelInitRetryMs);
}

/** The consent question, shown only when a pixel is configured and this browser has not answered. */
export function AdMeasurement({ pixelId }: { pixelId: string | null }) {
  const [consent, setConsent] = useState<PixelConsent | null | "unknown">("unknown");
  useEffect(() => {
    if (!pixelId) return;
    let stored: string | null = null;
    try {
      stored = window.localStorage.getItem(CONSENT_STORAGE_KEY);
    } catch {
      // No storage: ask every time, load nothing until asked.
    }
    setConsent(readConsent(stored));
  }, [pixelId]);
  useEffect(() => {
    if (consent !== "unknown" && shouldLoadPixel(pixelId, consent)) loadPixel(pixelId);
  }, [pixelId, consent]);

  if (!pixelId || consent !== null) return null;
  const choose = (choice: PixelConsent) => {
    try {
      window.localStorage.setItem(CONSENT_STORAGE_KEY, choice);
    } catch {
      // Kept for this page only.
    }
    setConsent(choice);
  };
  return (
    <section
      aria-label="Ad measurement"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto max-w-xl rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-lg sm:inset-x-6"
      data-testid="ad-consent"
    >
      <p>
        May we measure our ads with Meta's pixel? It loads a script from Meta and sets Meta's cookies. Our own statistics need neither.{" "}
        <Link to="/legal/privacy" className="font-medium text-brand-700 underline hover:text-brand-800">
          Privacy policy
        </Link>
      </p>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={() => choose("denied")}>
          No, thanks
        </Button>
        <Button size="sm" onClick={() => choose("granted")}>
          Allow
        </Button>
      </div>
    </section>
  );
}
