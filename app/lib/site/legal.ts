// The documentation and policy texts (the Documentation and policy dialogs), with the spec's
// facts: last updated January 20, 2025; terms version 1.0; no children under 13; 18+ or a
// guardian's consent; liability capped at 12 months of fees; 30 days' notice of price changes;
// 99.9% uptime, RTO under 4 hours, RPO under 1 hour; 1,000 API requests per minute.
// The API tab documents the API this platform really serves (chat and agents run in the desktop
// app against the user's own providers, so they have no endpoint here).
import { PLAN_PRICE } from "../billing/plan-comparison";
import { DATA_EXPORT, LOCKOUT, PLAN, SESSION, SUPPORT, USAGE_API } from "../constants";
import { formatDuration, SITE_FORMATS } from "../format";

export const LEGAL_DOCS = ["privacy", "terms", "security", "api"] as const;
export type LegalDocId = (typeof LEGAL_DOCS)[number];

/** The document a URL names (`/legal/:doc`, `?doc=`), if it is one of the four. */
export function legalDocById(id: string | null | undefined): LegalDocId | undefined {
  return LEGAL_DOCS.find((d) => d === id);
}
type LegalSection = { heading: string; paragraphs: string[]; list?: string[] };
/** `more`: a page that says more, linked after the intro. */
export type LegalDoc = {
  id: LegalDocId;
  tab: string;
  title: string;
  updated: string;
  version?: string;
  intro: string;
  more?: { href: string; text: string };
  sections: LegalSection[];
};

const LAST_UPDATED = "January 20, 2025";
const TERMS_VERSION = "1.0";
const SERVICE_LEVELS = { uptime: "99.9%", rto: "under 4 hours", rpo: "under 1 hour" } as const;
const MIN_AGE = { children: 13, terms: 18 } as const;
const LIABILITY_CAP_MONTHS = 12;
const PRICE_CHANGE_NOTICE_DAYS = 30;

export const LEGAL: Record<LegalDocId, LegalDoc> = {
  privacy: {
    id: "privacy",
    tab: "Privacy Policy",
    title: "Privacy Policy",
    updated: LAST_UPDATED,
    intro: "Modelify is built so that what you write stays with you. This policy says what we do collect, why, and what you can do about it.",
    sections: [
      {
        heading: "What stays on your device",
        paragraphs: [
          "Your conversations, files and provider API keys stay on your computer. API keys are encrypted with AES-256-GCM. The desktop app talks to AI providers directly with your keys; your prompts and their answers never pass through our servers.",
        ],
      },
      {
        heading: "What we collect",
        paragraphs: ["To run your account and subscription we keep:"],
        list: [
          "Account details: e-mail address, name, and what you add to your profile (username, phone number, company, location, website, pictures).",
          "Usage figures the app reports: model, provider, token counts, cost, response time and success, so your dashboard can show usage and budgets. Never the content of a conversation.",
          "Billing records from Stripe, our payment processor: plan, status, invoices and the last four digits of your card. We never see or store full card numbers.",
          "Security records: sign-in sessions and devices, and failed sign-in attempts, to protect your account.",
          "Messages you send to support.",
        ],
      },
      {
        heading: "How we use it",
        paragraphs: [
          "Only to provide the service: to sign you in, bill your subscription, show your usage, send the e-mails you asked for (confirmations, receipts, budget alerts, support replies), and keep the service secure. We do not sell personal data and do not use it for advertising profiles.",
        ],
      },
      {
        heading: "Who processes it",
        paragraphs: ["Stripe processes payments; our hosting and e-mail providers process data on our behalf under data-processing agreements."],
      },
      {
        heading: "Your choices",
        paragraphs: [
          `You can see and change your profile at any time, sign out other devices, and export your usage as CSV. From your profile you can download everything we hold about you as one JSON file ("Your data"; the link works for ${formatDuration(DATA_EXPORT.linkTtlMs, "hour")}), and delete your account yourself ("Danger zone").`,
        ],
      },
      {
        heading: "When you delete your account",
        paragraphs: [
          "Your subscription is cancelled at once (without a refund for the partial month), every session and device key is signed out, and your profile, pictures, usage (including archived months), budgets, download history, early access and waitlist entry, support messages, phone codes and data exports are deleted. Two things stay, and only these:",
        ],
        list: [
          "The security audit log, with your e-mail address and account id replaced by a one-way hash, so past account and billing actions can still be checked.",
          "What Stripe keeps for invoices: tax law requires invoices and payment records to be kept for years.",
        ],
      },
      {
        heading: "Children",
        paragraphs: [`Modelify is not meant for children under ${MIN_AGE.children}, and we do not knowingly collect their data.`],
      },
      {
        heading: "Contact",
        paragraphs: [`Questions about privacy: write to support through the Contact Support form. We answer within ${SUPPORT.responseHours} hours.`],
      },
    ],
  },
  terms: {
    id: "terms",
    tab: "Terms of Service",
    title: "Terms of Service",
    updated: LAST_UPDATED,
    version: TERMS_VERSION,
    intro: "These terms are the agreement between you and Modelify when you use the website, the dashboard and the desktop app.",
    sections: [
      {
        heading: "Who may use Modelify",
        paragraphs: [`You must be ${MIN_AGE.terms} or older, or have the consent of a parent or guardian who accepts these terms for you.`],
      },
      {
        heading: "Your subscription",
        paragraphs: [
          `Modelify ${PLAN.name} costs ${PLAN_PRICE} USD per month. New subscribers get a ${PLAN.trialDays}-day free trial; payment details are required to start it, and the first charge happens when it ends unless you cancel before. Subscriptions renew monthly until cancelled; cancelling stops the next renewal, and access continues until the end of the paid period.`,
          `We will give at least ${PRICE_CHANGE_NOTICE_DAYS} days' notice by e-mail before any price change affects you.`,
        ],
      },
      {
        heading: "Your API keys and providers",
        paragraphs: [
          "Modelify uses the API keys you add. Your use of each AI provider is governed by that provider's terms, and their charges are between you and them. You are responsible for keeping your keys secret.",
        ],
      },
      {
        heading: "Acceptable use",
        paragraphs: ["Do not use Modelify to break the law, infringe others' rights, attack our systems or others', or get around usage limits."],
      },
      {
        heading: "Liability",
        paragraphs: [
          `To the extent the law allows, our total liability for any claim is limited to the fees you paid us in the ${LIABILITY_CAP_MONTHS} months before the claim. We are not liable for the output of AI models or for providers' services.`,
        ],
      },
      {
        heading: "Changes and ending",
        paragraphs: [
          "We may update these terms; material changes are announced by e-mail before they apply. You may stop using Modelify and cancel at any time; we may suspend accounts that break these terms.",
        ],
      },
    ],
  },
  security: {
    id: "security",
    tab: "Security & Compliance",
    title: "Security & Compliance",
    updated: LAST_UPDATED,
    intro: "How we protect your account and what we commit to keep the service running.",
    sections: [
      {
        heading: "Availability",
        paragraphs: [
          `We aim for ${SERVICE_LEVELS.uptime} uptime of the website, dashboard and API. Our recovery targets are a recovery time objective (RTO) ${SERVICE_LEVELS.rto} and a recovery point objective (RPO) ${SERVICE_LEVELS.rpo}.`,
        ],
      },
      {
        heading: "Your data",
        list: [
          "Conversations and API keys stay on your device; keys are encrypted with AES-256-GCM.",
          "Everything between the app, your browser and us travels over TLS.",
          "Passwords and security answers are stored only as salted PBKDF2-SHA256 hashes; session and one-time tokens only as hashes.",
          "Card data is handled by Stripe (PCI DSS Level 1); we never see full card numbers.",
        ],
        paragraphs: [],
      },
      {
        heading: "Your account",
        list: [
          `Accounts are locked for ${formatDuration(LOCKOUT.signIn.lockMs, "minute")} after repeated wrong passwords.`,
          "You can see every signed-in browser and desktop app, and sign any of them out.",
          "E-mail changes are confirmed from the new address; the old one is told.",
        ],
        paragraphs: [],
      },
      {
        heading: "Reporting a problem",
        paragraphs: [
          `Found a vulnerability? Tell us through Contact Support with priority High. We respond within ${SUPPORT.responseHours} hours and credit reporters who wish it.`,
        ],
      },
    ],
  },
  api: {
    id: "api",
    tab: "API Documentation",
    title: "API Documentation",
    updated: LAST_UPDATED,
    intro:
      "The desktop app signs in and reports usage to your account through this API. Chat and agents run in the app itself, straight against your AI providers with your keys, so they have no endpoint here. The machine-readable description is at /api/v1/openapi.json.",
    more: { href: "/api-reference", text: "The API reference: every endpoint with its fields, rules, examples and answers" },
    sections: [
      {
        heading: "Authentication",
        paragraphs: [
          `The desktop app signs in through the browser with OAuth 2.0's device authorization grant (RFC 8628): POST /api/v1/auth/device for codes, then POST /api/v1/auth/token until you approve the device on the /device page. The answer holds an access token (${formatDuration(SESSION.accessTokenTtlMs, "minute")}) and a refresh token; send the access token as Authorization: Bearer <token>, and exchange the refresh token for a new pair at /api/v1/auth/token (grant_type refresh_token) or POST /api/v1/auth/refresh.`,
        ],
      },
      {
        heading: "Endpoints",
        list: [
          "GET /api/v1/me: the signed-in account and whether it is activated.",
          "GET /api/v1/entitlements and POST /api/v1/entitlements/claim: what the account may do, and the claim the app makes before each model call.",
          `POST /api/v1/usage: report model calls, one or up to ${USAGE_API.maxReportsPerRequest} at once; a repeated report_id counts once.`,
          "POST /api/v1/usage/secure-report: an aggregate report the app sends when single reports could not be delivered; a repeated report_hash counts once.",
          "GET /api/v1/health: whether the service is up.",
          "GET /api/v1/openapi.json: the OpenAPI 3.1 description of all of the above.",
        ],
        paragraphs: [],
      },
      {
        heading: "Rate limits",
        paragraphs: [
          `${SITE_FORMATS.integer(USAGE_API.requestsPerMinute)} requests per minute per signed-in device. Over the limit the API answers 429 with a Retry-After header.`,
        ],
      },
      {
        heading: "Errors",
        paragraphs: ['Errors are JSON: { "error": "…" }, with 4xx statuses for anything a client sent wrong and never a 5xx for it.'],
      },
    ],
  },
};
