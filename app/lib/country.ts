/** A country as Cloudflare names it (request.cf.country): two letters, or T1 for Tor. */
export const COUNTRY_CODE = /^[A-Z][A-Z0-9]$/;
