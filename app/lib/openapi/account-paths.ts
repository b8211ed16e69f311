// The account and what it may do in the API description: /me, the entitlements and the claim
// before each model call.
import { ENTITLEMENTS, FREE_TIER, HARD_CAPS } from "../constants";
import { formatDuration } from "../format";
import { claimBodySchema } from "../usage/claim";
import { answer, BEARER_CHALLENGE, ERROR, jsonRequest, personalKey403, RETRY_AFTER, UNAVAILABLE } from "./parts";
import { accountBody, bearerAuthErrorBody, claimGrantedBody, claimRefusedBody, entitlementsBody, problemsBody } from "./schemas";

const BEARER_UNAUTHORIZED =
  'Missing or invalid token; with code "session_ended", the device\'s key was revoked (in the dashboard, by a password reset, or replaced by a new sign-in of the same installation): show the error text and start the device sign-in again';
/** Every bearer route's 401. */
export const bearer401 = () => answer(BEARER_UNAUTHORIZED, bearerAuthErrorBody, { "WWW-Authenticate": BEARER_CHALLENGE });
const FREE_TIER_LIMITS = `${FREE_TIER.perMinute} requests a minute, ${FREE_TIER.perHour} an hour, ${FREE_TIER.perDay} a day, ${FREE_TIER.requestsPerMonth} requests and ${FREE_TIER.tokensPerMonth} tokens a month`;

function claimOperation() {
  return {
    operationId: "claimModelCall",
    tags: ["Account"],
    summary: `Claim one model call before making it: the free tier allows ${FREE_TIER_LIMITS}; subscribers and early-access members are always granted.`,
    description: `Ask before each model call, and make the call only when granted. A free account's claims are decided and counted by its usage ledger one at a time, so parallel claims from all its devices get exactly the calls its limits allow: a granted claim counts at once in the minute, hour, day and month, before its report arrives. Each window counts the greater of the calls claimed and the calls reported (an app that reports without claiming is still counted); tokens count the reports. A refused claim counts nothing: wait Retry-After seconds and claim again. Hard caps hold on every plan: when the account made its monthly or daily budget a hard cap, or capped a model or this device, the ledger also checks that the spend of the cap's period, plus the estimates of granted claims not yet reported, plus this claim's estimated_cost_usd stays within each cap that covers the claim; a granted claim holds its estimate until the report carrying its claim_id arrives (or ${formatDuration(HARD_CAPS.reservationTimeoutMs, "minute")} pass). Other subscribers and early-access members are granted without counting and never wait; for them the windows' used figures are not read here (GET /api/v1/entitlements shows them). Use GET /api/v1/entitlements to show the figures without claiming.`,
    security: [{ bearer: [] }],
    // Optional: a claim with no body is a claim of a call nothing is known of.
    requestBody: {
      ...jsonRequest(claimBodySchema, {
        empty: { summary: "Nothing known of the call (or send no body at all)", value: {} },
        estimate: { summary: "The call's estimated cost and its model", value: { estimated_cost_usd: 0.02, model: "gpt-4o", provider: "openai" } },
      }),
      required: false,
    },
    responses: {
      "200": answer(
        "Granted: make the call. The figures include this claim; allowed and retry_after_seconds say whether a next call would be granted now",
        claimGrantedBody,
      ),
      "400": answer(
        "A body that is not a claim (an unknown field, a negative estimate, a model without its provider); problems says which field",
        problemsBody,
      ),
      "401": bearer401(),
      "403": personalKey403(),
      "413": answer(`A body over ${ENTITLEMENTS.claimMaxBodyBytes} bytes`, ERROR),
      "415": answer("A body (other than whitespace) whose Content-Type is not application/json", ERROR),
      "429": answer(
        "Refused: a free-tier limit is reached, or a hard cap (cap says which; for a team device key also the team's budgets and the member's cap in the team, with cap.team) is reached or has no room for the estimate. Do not make the call; claim again after Retry-After seconds. Nothing was counted or held",
        claimRefusedBody,
        {
          "Retry-After": {
            ...RETRY_AFTER,
            description: "Seconds until every exhausted window has ended and every refusing cap has started again (the account's midnight or 1st; at least 1)",
          },
        },
      ),
      "503": UNAVAILABLE,
    },
  };
}

export function accountPaths() {
  return {
    "/api/v1/me": {
      get: {
        operationId: "getAccount",
        tags: ["Account"],
        summary: "The signed-in account",
        security: [{ bearer: [] }],
        responses: { "200": answer("Account", accountBody), "401": bearer401(), "403": personalKey403(), "503": UNAVAILABLE },
      },
    },
    "/api/v1/entitlements": {
      get: {
        operationId: "getEntitlements",
        tags: ["Account"],
        summary: `What the account may do now, for display: the free tier allows ${FREE_TIER_LIMITS}. Before a model call, claim it with POST /api/v1/entitlements/claim.`,
        description:
          "Requests in each window count the greater of the calls claimed and the calls reported; tokens count the reports. Reports reach the count through the queue, about a second after they are sent. Nothing is counted by this read.",
        security: [{ bearer: [] }],
        responses: {
          "200": answer("Plan, limits, use per window, and when a refused call may be retried", entitlementsBody, {
            "Retry-After": { ...RETRY_AFTER, required: false, description: "When a call is not allowed now: retry_after_seconds" },
          }),
          "401": bearer401(),
          "403": personalKey403(),
          "503": UNAVAILABLE,
        },
      },
    },
    "/api/v1/entitlements/claim": { post: claimOperation() },
  };
}
