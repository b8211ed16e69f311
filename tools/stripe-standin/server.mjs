// Stripe stand-in: a local HTTP server imitating the subset of Stripe's API (2026-10-28) that Modelify uses,
// with hosted checkout / customer portal / invoice pages and signed webhooks. A dev/test tool only: it is never
// part of the production bundle (nothing under app/ or workers/ imports it). All state lives in memory.
// README.md in this folder lists the endpoints, events and modules.
//
//   node tools/stripe-standin/server.mjs   (env: STRIPE_STANDIN_PORT, STRIPE_WEBHOOK_URL, STRIPE_WEBHOOK_SECRET)
//   import { startStripeStandin } from "./tools/stripe-standin/server.mjs"
import http from "node:http";
import { pathToFileURL } from "node:url";
import { createApi } from "./api.mjs";
import { createControl } from "./control.mjs";
import { sendError } from "./http.mjs";
import { createPages } from "./pages.mjs";
import { createState } from "./state.mjs";
import { createWebhooks } from "./webhooks.mjs";

/**
 * Starts the stand-in. `publicUrl` (default: `url`) is the origin used in hosted page links.
 * @param {{ port?: number, host?: string, webhookUrl?: string | null, webhookSecret?: string, publicUrl?: string }} [options]
 * @returns {Promise<{ url: string, port: number, close(): Promise<void>, setWebhookUrl(url: string | null): void }>}
 */
export async function startStripeStandin({ port = 0, host = "127.0.0.1", webhookUrl = null, webhookSecret = "whsec_local_modelify_standin", publicUrl } = {}) {
  // Set once the server listens (the default depends on the port); nothing reads it before a request arrives.
  let origin = "";
  const webhooks = createWebhooks({ url: webhookUrl, secret: webhookSecret });
  const state = createState({ publicUrl: () => origin });
  const handleApi = createApi({ state, webhooks, publicUrl: () => origin });
  const handleControl = createControl({ state, webhooks });
  const handlePages = createPages({ state, webhooks });

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://standin.invalid");
      if (url.pathname.startsWith("/v1/")) await handleApi(req, res, url);
      else if (url.pathname.startsWith("/__control/")) await handleControl(req, res, url.pathname);
      else await handlePages(req, res, url);
    } catch (err) {
      sendError(req, res, err);
    }
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actualPort = server.address().port;
  const url = `http://localhost:${actualPort}`;
  origin = (publicUrl ?? url).replace(/\/+$/, "");
  return {
    url,
    port: actualPort,
    setWebhookUrl(next) {
      webhooks.setUrl(next);
    },
    close() {
      webhooks.close();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const standin = await startStripeStandin({
    port: Number(process.env.STRIPE_STANDIN_PORT ?? 12111),
    webhookUrl: process.env.STRIPE_WEBHOOK_URL || null,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET || "whsec_local_modelify_standin",
  });
  console.log(`Stripe stand-in listening on ${standin.url} (webhooks: ${process.env.STRIPE_WEBHOOK_URL || "none"})`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => standin.close().then(() => process.exit(0)));
}
