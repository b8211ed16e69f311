// The landing page's questions. The product spec's own FAQ promised a 14-day trial
// without a card and 500 MB of disk; what the product does is a 7-day trial that needs payment
// details, and the installers need 2 GB, so the answers say that (ADR 0013).
import { FREE_MONTHLY_LIMITS, FREE_RATE_LIMITS, PLAN_PRICE } from "../billing/plan-comparison";
import { EARLY_ACCESS, PLAN } from "../constants";

export type FaqItem = { id: string; question: string; answer: string; link?: { label: string; to: string } };

export const FAQ: FaqItem[] = [
  {
    id: "what-is-modelify",
    question: "What is Modelify?",
    answer:
      "Modelify is a desktop app for Windows, macOS and Linux that puts 160+ AI models from 12+ providers and 120+ specialised agents in one place. You chat, compare models and run agents without switching between websites.",
  },
  {
    id: "api-keys",
    question: "Do I need my own API keys?",
    answer:
      "Yes. Modelify uses your own keys from providers such as OpenAI, Anthropic or Google, so you pay them directly at their prices. Keys are stored encrypted on your device and never sent to us. Our setup guide walks you through getting a key from each provider.",
    link: { label: "Open the API key setup guide", to: "/api-setup" },
  },
  {
    id: "price",
    question: "How much does it cost?",
    answer: `Modelify ${PLAN.name} is ${PLAN_PRICE} USD a month. New subscribers get a ${PLAN.trialDays}-day free trial; payment details are needed to start it, and nothing is charged if you cancel before it ends.`,
  },
  {
    // Every new account is on the free plan: its limits are said here, built from the constants
    // they are enforced with, not found only when one is hit (issue 46).
    id: "free-vs-pro",
    question: `What is the difference between Free and ${PLAN.name}?`,
    answer: `Every new account starts on Free, at no cost: the usage dashboard and budget alerts, with ${FREE_RATE_LIMITS}, and ${FREE_MONTHLY_LIMITS}. Each limit starts again from zero when its minute, hour, day or month (UTC) ends. ${PLAN.name} removes every limit and adds the desktop app's downloads, Model Analytics and premium support.`,
    link: { label: "Compare the plans", to: "/pricing" },
  },
  {
    id: "requirements",
    question: "What do I need to run it?",
    answer:
      "Windows 10 or later, macOS 12.0 or later, or Linux (Ubuntu 20.04+ or Fedora 36+), with 4 GB of RAM and 2 GB of free disk space, plus an internet connection for cloud models.",
  },
  {
    id: "privacy",
    question: "Where are my conversations stored?",
    answer:
      "On your computer. Conversations and keys stay on your device; your keys are encrypted with AES-256-GCM. The app reports only usage figures (model, tokens, cost, timing) to your dashboard, never what you wrote.",
  },
  {
    id: "local-models",
    question: "Can I use local models?",
    answer:
      "Yes. Point Modelify at a local model server (the default endpoint is http://localhost:11434) and chat with local models offline. Local models need no API key.",
  },
  {
    id: "cancel",
    question: "How do I cancel?",
    answer:
      "Any time, from the Billing tab of your dashboard. Your subscription stays active until the end of the period you paid for, and you will not be charged again.",
  },
  {
    id: "early-access",
    question: "What is the early-access programme?",
    answer: `Join the waitlist and we will e-mail you an activation key when your place comes up. Redeem it in your dashboard for ${EARLY_ACCESS.accessDays} days of the full app, downloads included.`,
    link: { label: "Join the waitlist", to: "/early-access" },
  },
];
