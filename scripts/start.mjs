// `npm start`: set up the local state while the site builds, then serve the site (and, unless
// real Stripe keys are configured, the local Stripe stand-in) at http://localhost:$PORT (default 8787).
import { COMPILE_CACHE, buildSite, ensureDevVars, readDevVars, run, serveBuiltWorkers } from "./lib.mjs";
import { startStripeStandin } from "../tools/stripe-standin/server.mjs";

const port = Number(process.env.PORT ?? 8787);
// Before the build, which copies .dev.vars into the built Workers.
ensureDevVars();
// Both at once: neither touches what the other writes (build/, .wrangler/state), and on 2 cores a
// fresh start answered in 8.4-9.0 s, against 10.0-10.6 s one after the other. wrangler dev starts
// after both.
//
// The set-up (scripts/local-state.mjs) runs in a process of its own at a lower priority: it is done
// in about 4 s of the build's 7-9 s whatever it gets, and every share of the CPU it leaves to the
// build comes off the start (the build was done 0.5 s sooner, three fresh starts each way). Its
// workerd inherits the priority. It writes the compiled code of wrangler and Miniflare to
// COMPILE_CACHE as it exits, where `wrangler dev` then finds it.
const setUp = { env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE }, priority: 10 };
const failed = (await Promise.allSettled([buildSite(), run(process.execPath, ["scripts/local-state.mjs"], setUp)])).find((r) => r.status === "rejected");
if (failed) throw failed.reason;

const vars = readDevVars();
let standin = null;
if (vars.STRIPE_API_BASE) {
  const base = new URL(vars.STRIPE_API_BASE);
  standin = await startStripeStandin({
    port: Number(base.port),
    webhookUrl: `http://localhost:${port}/api/stripe/webhook`,
    webhookSecret: vars.STRIPE_WEBHOOK_SECRET,
  });
  console.log(`Stripe stand-in at ${standin.url} (test card 4242 4242 4242 4242)`);
}

const server = serveBuiltWorkers({ port, stdio: "inherit" });
console.log(`\nModelify: http://localhost:${port}  (demo@modelify.dev / Modelify-Demo-2026, mail at /dev/outbox)\n`);
const stop = async () => {
  server.kill("SIGTERM");
  await standin?.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", async (code) => {
  await standin?.close();
  process.exit(code ?? 0);
});
