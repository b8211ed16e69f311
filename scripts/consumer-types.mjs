// `wrangler types` names a Durable Object bound from another Worker only in a comment
// (`DurableObjectNamespace /* UsageLedger from modelify */`, `… from modelify-staging */` for an
// environment's site Worker). Both Workers' generated types add to
// the same global Cloudflare.Env, so the two USAGE_LEDGER types must agree: this points the
// consumer's at the class the site's Worker exports.
import { readFileSync, writeFileSync } from "node:fs";

const file = "workers/consumer-configuration.d.ts";
const text = readFileSync(file, "utf8");
const fixed = text.replace(/DurableObjectNamespace \/\* (\w+) from modelify(?:-[a-z]+)? \*\//g, 'DurableObjectNamespace<import("./app").$1>');
if (fixed !== text) writeFileSync(file, fixed);
