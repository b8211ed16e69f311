/** A country as Cloudflare names it (request.cf.country): two letters, or T1 for Tor. */
export const COUNTRY_CODE = /^[A-Z][A-Z0-9]$/;

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

/** A country code as a person reads it ("Germany"); null when unknown (XX is Cloudflare's "unknown"). */
export function countryName(code: string | null | undefined): string | null {
  if (!code || !COUNTRY_CODE.test(code) || code === "XX") return null;
  if (code === "T1") return "the Tor network";
  try {
    return countryNames.of(code) ?? code;
  } catch {
    // A code Intl does not know still says more than nothing.
    return code;
  }
}
