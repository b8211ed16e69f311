// The spec's numbers for the site: the plan and its checkout, downloads, early access, support,
// marketing, the edge copies of pages, and the operators' queues and logs (part of ./index.ts).
import { SECOND, MINUTE, HOUR, DAY } from "./time.ts";

export const PLAN = {
  name: "Pro",
  priceUsd: 4.99,
  trialDays: 7,
} as const;

// Not in the spec: an open Checkout Session is handed out again while it has this long left.
export const CHECKOUT = { reuseMinRemainingMs: 30 * MINUTE } as const;

// Signed-out copies of the marketing pages in the edge cache (app/server/page-cache.ts): a newly
// published release shows on the landing page within this long.
export const PAGE_CACHE = {
  ttlSeconds: 60,
  // Pages one Worker isolate also keeps in memory (each some tens of KB).
  memoryPages: 32,
} as const;

// Not in the spec: queue messages that failed for good are kept (redacted, lib/queue-redaction.ts)
// this long for an operator to look into, then the hourly cron deletes them (ADR 0024). The admins
// hear of new ones by e-mail at most once per alertWindowMs; the admin page lists the newest
// `listed`. A mail or text is replayable only within replayMessageMs of being sent: the mail
// provider's idempotency key lasts a day, and the links and codes it carries expire sooner.
export const DEAD_LETTERS = { keepMs: 14 * DAY, alertWindowMs: 1 * HOUR, listed: 100, replayMessageMs: 1 * DAY } as const;

// The events queue's retries (wrangler.consumer.toml's max_retries, which a test holds to this):
// a message reaches the dead-letter queue after maxRetries + 1 deliveries, and the dead-letter
// queue's own count starts again at 1, so that is the count a dead letter records.
export const EVENTS_QUEUE = { maxRetries: 3 } as const;

// Not in the spec: the structured logs (app/lib/log). An account is the first 16 hex characters
// (64 bits) of HMAC-SHA-256(LOG_SALT, its id): enough to tell accounts apart and follow one
// through the logs, nothing to reverse without the salt. Values are cut so that a line stays
// readable and one bad field cannot make it huge.
export const LOG = { accountHashHexChars: 16, maxStringChars: 1000, maxStackChars: 4000, maxDepth: 4, maxArrayItems: 20 } as const;

// The largest form and JSON bodies the site reads (app/server/requests.ts), unless a route names
// its own limit; the API description states them with each 413.
export const REQUEST_BODY = { formMaxBytes: 32 * 1024, jsonMaxBytes: 32 * 1024 } as const;

export const DOWNLOAD = {
  // A signed download link lives for minutes: long enough to start and resume a download, too
  // short to be worth sharing. Re-download from history mints a fresh one.
  linkTtlMs: 15 * MINUTE,
  historyFetchLimit: 10,
  historyShown: 5,
  dialogCloseMs: 1 * SECOND, // the dialog closes this long after a download starts
  paymentBadgeMs: 3 * SECOND, // "Payment Successful!" on the post-payment dialog
  // Installers are up to a few hundred MB: uploads go to R2 in parts of this size.
  uploadPartBytes: 10 * 1024 * 1024,
  maxInstallerBytes: 2 * 1024 * 1024 * 1024,
  // How long an isolate keeps the list of newest builds: as long as the page cache keeps a page.
  currentReleasesMs: PAGE_CACHE.ttlSeconds * SECOND,
  // Not in the spec (issue 46): on a phone, the Downloads page mails the account's own address a
  // link to itself, to open on a computer. A few a day would do; the cap keeps us from being used
  // to fill an inbox, counted per account.
  emailLinkPerUser: { limit: 3, windowMs: 1 * HOUR },
} as const;

export const EARLY_ACCESS = {
  keyLength: 16, // A-Z and 0-9, shown 4-4-4-4
  keyValidityDays: 30,
  keyValidityMs: 30 * DAY,
  // Not in the spec: how long redeemed early access lasts, and limits on redeeming.
  accessDays: 90,
  accessMs: 90 * DAY,
  redeemAttempts: { perUser: { maxFailures: 5, windowMs: 15 * MINUTE }, perIp: { maxFailures: 20, windowMs: 15 * MINUTE } },
  waitlistJoinsPerIp: { limit: 10, windowMs: 1 * HOUR },
  // The waitlist's priority score (ADR 0012): a company, a referral by a member (their username in
  // ?ref=), and being among the first places each raise an entry; ties go to the earlier entry.
  priority: { company: 20, referral: 30, early: 10, earlyPlaces: 100 },
  /** A key opened from its e-mail link while signed out waits in a cookie this long. */
  pendingKeyMs: 7 * DAY,
  bulkMax: 500,
  pageSize: 25,
} as const;

// The admin's debug tab: its messages dismiss themselves after this long.
export const ADMIN_DEBUG = { messageMs: 5 * SECOND } as const;

// Timings of the site's dialogs (ADR 0013).
export const MODAL = {
  exitMs: 300, // modals fade out, then unmount
  copyFeedbackMs: 2 * SECOND, // the check icon after copying a sample key
} as const;

export const SUPPORT = {
  responseHours: 24, // "A response within 24 hours is promised."
  // The confirmation shows 3 s, then the form is cleared and shown again.
  successShownMs: 3 * SECOND,
  priorities: ["low", "medium", "high"] as const,
  defaultPriority: "medium" as const,
  // Not in the spec: input bounds and caps, so nobody can flood the support mailbox through us.
  nameMax: 100,
  subjectMax: 200,
  messageMax: 5000,
  perIp: { limit: 5, windowMs: 1 * HOUR },
  perAddress: { limit: 3, windowMs: 1 * HOUR },
} as const;

// First-party marketing events and the admin funnel (ADR 0013). Not in the spec: the
// funnel's span and the cap on browser events, so nobody can flood the table through us.
export const MARKETING = {
  funnelWeeks: 8,
  browserEventsPerIp: { limit: 120, windowMs: 1 * HOUR },
  pathMax: 200,
  // The pixel is checked every 100 ms until its script has loaded.
  pixelInitRetryMs: 100,
  pixelInitGiveUpMs: 10 * SECOND,
} as const;

// The files under /.well-known/ (issue 30). security.txt (RFC 9116) names the address that already
// answers users within a day; its Expires is computed when asked, less than a year ahead as
// RFC 9116 2.5.5 recommends, so it can never go stale. Both files are the same for every
// visitor and change only with a deploy: caches may keep them this long.
export const WELL_KNOWN = {
  securityContact: "support@modelify.dev",
  securityTxtExpiresInDays: 364,
  securityTxtLanguages: "en",
  cacheSeconds: 3600,
} as const;
