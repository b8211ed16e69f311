// OAuth 2.0 as standard client libraries expect it (issue 30): the authorization server's metadata
// (RFC 8414), how the desktop app, a public client, names itself (RFC 6749 2.3.1), and the refresh
// grant's refusals. Free of HTTP so it can be tested alone; app/server/oauth.ts answers with it.
import { DEVICE_AUTH, INACTIVITY_LIMIT_MS } from "../constants";
import { formatDuration } from "../format";
import { DEVICE_CODE_GRANT, DEVICE_ERRORS } from "./device-codes";

export const REFRESH_TOKEN_GRANT = "refresh_token";
/** The legacy grant of app versions from before the device sign-in (ADR 0018); still accepted. */
export const PASSWORD_GRANT = "password";

/** The realm of the API's challenges (WWW-Authenticate, RFC 7235 2.2): one protection space for the whole API. */
export const OAUTH_REALM = "modelify";

const OAUTH_PATHS = {
  metadata: "/.well-known/oauth-authorization-server",
  deviceAuthorization: "/api/v1/auth/device",
  token: "/api/v1/auth/token",
} as const;

/**
 * RFC 8414 2: what a client library needs to run the device flow from the issuer alone. There is
 * no authorization endpoint (no redirect-based grant), so no response type is supported; the
 * desktop app has no secret, so it authenticates with nothing ("none") and only names itself.
 */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    device_authorization_endpoint: `${issuer}${OAUTH_PATHS.deviceAuthorization}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    grant_types_supported: [DEVICE_CODE_GRANT, REFRESH_TOKEN_GRANT, PASSWORD_GRANT],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ["none"],
  };
}

/** The issuer: the site's origin, without a trailing slash (RFC 8414 2: no query or fragment). */
export function issuerOf(siteOrigin: string): string {
  return new URL(siteOrigin).origin;
}

export const CLIENT_ERRORS = {
  malformedBasic: "The Authorization header is not HTTP Basic as RFC 6749 2.3.1 has it: base64 of the client_id, a colon and an empty password.",
  secret: "The desktop app is a public client and has no secret: send its client_id with an empty password, or in the body.",
  mismatch: "client_id in the body and in the Authorization header differ.",
  notText: "client_id must be a string.",
} as const;

export type ClientIdentification = { ok: true; clientId: string | null } | { ok: false; error: "invalid_client" | "invalid_request"; description: string };

/** `application/x-www-form-urlencoded` decoding of one Basic credential (RFC 6749 2.3.1), or null. */
function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** The client id of `Authorization: Basic …` with an empty password; "absent" when the scheme is another or there is no header. */
function basicClientId(authorization: string | null): { kind: "absent" } | { kind: "client"; clientId: string } | { kind: "refused"; description: string } {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(authorization ?? "");
  if (!match) return /^Basic(\s|$)/i.test(authorization ?? "") ? { kind: "refused", description: CLIENT_ERRORS.malformedBasic } : { kind: "absent" };
  let decoded: string;
  try {
    const binary = atob(match[1]!);
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return { kind: "refused", description: CLIENT_ERRORS.malformedBasic };
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return { kind: "refused", description: CLIENT_ERRORS.malformedBasic };
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (clientId === null || secret === null || clientId === "") return { kind: "refused", description: CLIENT_ERRORS.malformedBasic };
  if (secret !== "") return { kind: "refused", description: CLIENT_ERRORS.secret };
  return { kind: "client", clientId };
}

/**
 * Who the client says it is, from the body's client_id or HTTP Basic (RFC 6749 2.3.1), checked
 * against the one client there is. null: it did not say (the device endpoints then ask for it;
 * the refresh grant does not need it, RFC 6749 6). Other schemes of Authorization are not client
 * authentication and are left alone, as the token endpoint always did.
 */
export function identifyClient(authorization: string | null, bodyClientId: unknown): ClientIdentification {
  if (bodyClientId !== undefined && typeof bodyClientId !== "string") return { ok: false, error: "invalid_request", description: CLIENT_ERRORS.notText };
  const basic = basicClientId(authorization);
  if (basic.kind === "refused") return { ok: false, error: "invalid_client", description: basic.description };
  const fromHeader = basic.kind === "client" ? basic.clientId : undefined;
  if (fromHeader !== undefined && bodyClientId !== undefined && fromHeader !== bodyClientId) {
    return { ok: false, error: "invalid_request", description: CLIENT_ERRORS.mismatch };
  }
  const clientId = fromHeader ?? bodyClientId ?? null;
  if (clientId !== null && clientId !== DEVICE_AUTH.clientId) return { ok: false, error: "invalid_client", description: DEVICE_ERRORS.invalid_client };
  return { ok: true, clientId };
}

/** Why a refresh token was refused, as the app can show it (both refresh routes). */
export const REFRESH_REFUSALS = {
  unknown: "Invalid refresh token",
  revoked: "Session has been signed out",
  expired: "Session has expired. Please sign in again.",
  inactive: `Signed out after ${formatDuration(INACTIVITY_LIMIT_MS, "day")} without a sign-in. Please sign in again.`,
  reused: "Refresh token was already used; the session has been signed out for safety",
  rotated: "Refresh token was just rotated by another request; use the newest refresh token",
} as const;
