// The desktop API, described for the app's developers (served at /api/v1/openapi.json, shown at
// /api-reference, linted by `npm run lint:api`, and the source of the typed client in scripts/api).
// Request bodies are generated from the very zod schemas the routes validate with, so the
// description cannot drift from what the API accepts; rules across fields, which JSON Schema
// cannot express, are in those schemas' descriptions. The answers' shapes are in ./schemas, and
// tests/e2e/api-conformance.test.ts holds the running site to every one of them.
import { SESSION, USAGE_API } from "../constants";
import { formatDuration } from "../format";
import { accountPaths } from "./account-paths";
import { authPaths } from "./auth-paths";
import { ERROR } from "./parts";
import { errorBody, schemaOf } from "./schemas";
import { personalKeyScheme, readPaths } from "./read-paths";
import { usagePaths } from "./usage-paths";

const DESCRIPTION = `Sign-in for the desktop app, model usage reporting, and a read API for one's own usage (with a personal API key made on the dashboard). The desktop app signs in with the OAuth 2.0 device authorization grant (RFC 8628): it asks POST /api/v1/auth/device for codes, shows the user code and opens the /device page in the browser, where the user signs in and approves the device, and meanwhile polls POST /api/v1/auth/token with the device code until it gets its tokens. The app never sees the password, and each device gets its own key (a session the dashboard lists and can revoke). E-mail and password on /api/v1/auth/token is LEGACY and deprecated, kept for app versions released before the device grant. OAuth libraries find the endpoints in the authorization server metadata at /.well-known/oauth-authorization-server (RFC 8414).

Every answer is JSON. Besides the answers each operation lists, a method a path does not take answers 405 with an Allow header and an Error body, and an unknown path under /api/ answers 404 with an Error body.`;

const TAGS = [
  { name: "Sign-in", description: "The device authorization grant (RFC 8628), its tokens and their refresh" },
  { name: "Account", description: "The signed-in account, and what it may do before each model call" },
  { name: "Usage", description: "Reports of the model calls the app made" },
  { name: "Read", description: "Your own usage, summed or row by row, for your scripts: with a personal API key (or the app's token)" },
  { name: "Service", description: "Whether the site is up" },
];

export function buildOpenApi() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Modelify desktop API",
      version: "1.0.0",
      description: DESCRIPTION,
      termsOfService: "/legal/terms",
      contact: { name: "Modelify support", url: "/contact" },
      // Relative references resolve against the document's own address (OpenAPI 3.1, 4.3).
      license: { name: "Proprietary: use is governed by the Modelify Terms of Service", url: "/legal/terms" },
    },
    servers: [{ url: "/", description: "The site that serves this document" }],
    // Operations that take no token say so with `security: []`.
    security: [{ bearer: [] }],
    tags: TAGS,
    paths: { ...authPaths(), ...accountPaths(), ...usagePaths(), ...readPaths() },
    components: {
      securitySchemes: {
        personalKey: personalKeyScheme,
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: `The access_token of /api/v1/auth/token or /api/v1/auth/refresh, valid ${formatDuration(SESSION.accessTokenTtlMs, "minute")}. Each sign-in of the app is a device key. A 401 with code "session_ended" means the device's key was revoked (in the dashboard, by a password reset, or replaced by a new sign-in of the same installation): show the error text and start the device sign-in again; its refresh is refused too. The usage endpoints allow ${USAGE_API.requestsPerMinute} requests per minute per device key, not per account.`,
        },
      },
      schemas: { Error: schemaOf(errorBody, "output") },
      responses: {
        Unavailable: {
          description: "The service is not configured (a deploy without its settings): try again later",
          content: { "application/json": { schema: ERROR } },
        },
      },
    },
  };
}
