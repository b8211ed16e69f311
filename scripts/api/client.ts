// The desktop API's typed client: openapi-fetch over the types generated from the document the
// site serves (openapi.d.ts, `npm run api:client`). Paths, methods, bodies and every documented
// answer are checked by `npm run typecheck`, so a call the document does not describe, or an
// answer read as a shape the document does not give, fails to compile.
import createClient from "openapi-fetch";
import type { paths } from "./openapi.d.ts";

export type ApiClient = ReturnType<typeof createClient<paths>>;
export type { paths };

/** The API of the site at `base` (e.g. http://localhost:8787). */
export function apiClient(base: string): ApiClient {
  return createClient<paths>({ baseUrl: base });
}

/** OAuth clients send forms (RFC 6749 appendix B): openapi-fetch encodes the body as one for this header. */
export const FORM = { "Content-Type": "application/x-www-form-urlencoded" } as const;
