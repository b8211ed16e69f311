// Runs in Node before the workerd test pool starts: a Stripe stand-in for the billing tests.
import type { TestProject } from "vitest/node";
// @ts-expect-error plain JavaScript module without types
import { startStripeStandin } from "../tools/stripe-standin/server.mjs";
import { TEST_SECRETS } from "./test-secrets";

export default async function setup(project: TestProject) {
  const standin = await startStripeStandin({ port: 0, webhookSecret: TEST_SECRETS.STRIPE_WEBHOOK_SECRET });
  project.provide("stripeBase", standin.url);
  return async () => {
    await standin.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    stripeBase: string;
  }
}
