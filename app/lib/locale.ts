// The locales numbers, money and dates are written in (issue 48): the visitor's browser's
// (Accept-Language), unless the account pins one on its profile. The site's words stay English;
// only the way figures and dates are written follows the locale. A short list, so that a page
// copy kept per locale (the page cache) and the formats kept per locale stay few.

export const DEFAULT_LOCALE = "en-US";

/** The profile's choices, each named in English (the site's language). */
export const LOCALES = [
  { value: "en-US", label: "English (United States)" },
  { value: "en-GB", label: "English (United Kingdom)" },
  { value: "de-DE", label: "German (Germany)" },
  { value: "fr-FR", label: "French (France)" },
  { value: "es-ES", label: "Spanish (Spain)" },
  { value: "it-IT", label: "Italian (Italy)" },
  { value: "pt-BR", label: "Portuguese (Brazil)" },
  { value: "nl-NL", label: "Dutch (Netherlands)" },
  { value: "sv-SE", label: "Swedish (Sweden)" },
  { value: "pl-PL", label: "Polish (Poland)" },
  { value: "ja-JP", label: "Japanese (Japan)" },
  { value: "ko-KR", label: "Korean (South Korea)" },
  { value: "zh-CN", label: "Chinese (China)" },
  { value: "zh-TW", label: "Chinese (Taiwan)" },
  { value: "hi-IN", label: "Hindi (India)" },
] as const;

export type Locale = (typeof LOCALES)[number]["value"];

// Made on first use: a page that only needs DEFAULT_LOCALE does not carry the list.
let byLower: ReadonlyMap<string, Locale> | null = null;
const lookUp = (tag: string) => {
  byLower ??= new Map(LOCALES.map((l) => [l.value.toLowerCase(), l.value]));
  return byLower.get(tag.toLowerCase());
};

export function isLocale(value: string): value is Locale {
  return lookUp(value) === value;
}

// Chinese is told apart by script more than by region: Hong Kong and Macau write traditional
// characters, as Taiwan does; Singapore simplified, as China does.
const TRADITIONAL_CHINESE = /^zh-(hant|tw|hk|mo)\b/;

/** The supported locale for one language tag of Accept-Language, or null: the tag itself, else the first of its language. */
function supportedFor(tag: string): Locale | null {
  const lower = tag.toLowerCase();
  const exact = lookUp(lower);
  if (exact) return exact;
  if (lower === "zh" || lower.startsWith("zh-")) return TRADITIONAL_CHINESE.test(lower) ? "zh-TW" : "zh-CN";
  const language = lower.split("-")[0];
  return LOCALES.find((l) => l.value.toLowerCase().startsWith(`${language}-`))?.value ?? null;
}

/**
 * The best supported locale for an Accept-Language header (RFC 9110 12.5.4): its tags by
 * preference (q, then order), the first one we support by itself or by its language; en-US when
 * none is, or there is no header.
 */
export function bestLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const tags = acceptLanguage
    // A header is a few tags; one sent to make work is cut short.
    .slice(0, 512)
    .split(",")
    .map((part, order) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((t) => t.q > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(t.tag))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of tags) {
    const found = supportedFor(tag);
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}
