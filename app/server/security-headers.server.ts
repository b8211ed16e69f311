// Headers every answer carries, applied once in the Worker entry so pages, `.data` requests,
// API answers, downloads and redirects all get them.
import { PIXEL_BEACON_ORIGIN, PIXEL_SCRIPT_ORIGIN } from "~/lib/marketing/pixel";
import { accessCookie, refreshCookie } from "./cookies.server";

// Pages whose content is personal even before a session exists (links carrying one-time tokens,
// the post-payment page, the local outbox).
const ALWAYS_PRIVATE = [/^\/auth\/(reset-password|success|callback)(\.data)?$/, /^\/dev\//];

const STRIPE_FORM_TARGETS = ["https://checkout.stripe.com", "https://billing.stripe.com"];

export type HeaderOptions = {
  nonce: string;
  /** Where a form may send the browser: our origin and Stripe's hosted pages. */
  stripeOrigin: string | null;
  /** Vite's dev server injects inline scripts of its own: no CSP there. */
  development: boolean;
  /** An advertising pixel is configured: its script and beacons are allowed (it loads only after consent). */
  pixel?: boolean;
};

/** A fresh nonce per response: the only inline scripts that run are the ones we rendered. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(
  nonce: string,
  { https, formTargets, pixel = false }: { https: boolean; formTargets: string[]; pixel?: boolean },
): string {
  const pixelScript = pixel ? ` ${PIXEL_SCRIPT_ORIGIN}` : "";
  const pixelBeacon = pixel ? ` ${PIXEL_BEACON_ORIGIN}` : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${pixelScript}`,
    // React renders style attributes (chart sizes, progress bars); no script runs from them.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${pixelBeacon}`,
    "font-src 'self'",
    `connect-src 'self'${pixelBeacon}`,
    `form-action 'self' ${formTargets.join(" ")}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/**
 * The headers a page of the site carries over HTTPS (as deployed), graded for the features
 * dialog's Security Score (lib/site/security-score.ts): the score shown is the one these earn.
 */
export function pageSecurityHeaders(): Headers {
  const page = new Response(null, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  // Any nonce: the grade reads the policy's shape, not its value.
  const options: HeaderOptions = { nonce: "graded", stripeOrigin: null, development: false };
  return withSecurityHeaders(new Request("https://modelify.invalid/"), page, options).headers;
}

// Anything that is not a page (JSON, CSV, images, redirects) may load nothing and be framed nowhere.
const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const SESSION_COOKIES = [accessCookie.name, refreshCookie.name];

function isSignedIn(request: Request, response: Response): boolean {
  const sent = (request.headers.get("Cookie") ?? "").split(";").map((part) => part.split("=")[0]!.trim());
  if (SESSION_COOKIES.some((name) => sent.includes(name))) return true;
  return response.headers.getSetCookie().some((c) => SESSION_COOKIES.some((name) => c.startsWith(`${name}=`)));
}

export function withSecurityHeaders(request: Request, response: Response, options: HeaderOptions): Response {
  // Some responses (Response.redirect, fetched assets) have immutable headers: copy once.
  let res = response;
  try {
    res.headers.set("X-Content-Type-Options", "nosniff");
  } catch {
    res = new Response(response.body, response);
    res.headers.set("X-Content-Type-Options", "nosniff");
  }
  const url = new URL(request.url);
  const https = url.protocol === "https:";
  const headers = res.headers;
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (https) headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");

  const isHtml = (headers.get("Content-Type") ?? "").startsWith("text/html");
  if (!options.development) {
    const formTargets = options.stripeOrigin ? [options.stripeOrigin] : STRIPE_FORM_TARGETS;
    headers.set("Content-Security-Policy", isHtml ? contentSecurityPolicy(options.nonce, { https, formTargets, pixel: options.pixel }) : NON_DOCUMENT_CSP);
  }

  // Personal answers are never stored by a browser cache, a proxy or the edge.
  // A route that chose a private lifetime itself keeps it (profile pictures: versioned URLs, for
  // their owner only, cached in that browser for the spec's hour).
  if ((isSignedIn(request, res) || ALWAYS_PRIVATE.some((re) => re.test(url.pathname))) && !/^private\b/.test(headers.get("Cache-Control") ?? "")) {
    headers.set("Cache-Control", "private, no-store");
  }
  headers.append("Vary", "Cookie");
  return res;
}
