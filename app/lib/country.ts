/** A country as Cloudflare names it (request.cf.country): two letters, or T1 for Tor. */
export const COUNTRY_CODE = /^[A-Z][A-Z0-9]$/;

// Made on first use: the first Intl object a page makes costs Chromium 15-25 ms (app/lib/format.ts).
let countryNames: Intl.DisplayNames | undefined;

/** A country code as a person reads it ("Germany"); null when unknown (XX is Cloudflare's "unknown"). */
export function countryName(code: string | null | undefined): string | null {
  if (!code || !COUNTRY_CODE.test(code) || code === "XX") return null;
  if (code === "T1") return "the Tor network";
  try {
    countryNames ??= new Intl.DisplayNames(["en"], { type: "region" });
    return countryNames.of(code) ?? code;
  } catch {
    // A code Intl does not know still says more than nothing.
    return code;
  }
}

// English says "the" before these names: "from the United States", "from the Netherlands".
const NAMED_WITH_THE = /^United |Islands$|Republic$|^(Bahamas|Comoros|Gambia|Maldives|Netherlands|Philippines|Seychelles|Vatican City)$/;

/** A country as a sentence names it after "from" ("the United States", "Germany"); null when unknown. */
export function countryInSentence(code: string | null | undefined): string | null {
  const name = countryName(code);
  return name && NAMED_WITH_THE.test(name) ? `the ${name}` : name;
}
