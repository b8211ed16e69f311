export type ChangelogPost = {
  id: string;
  version: string;
  date: string;
  title: string;
  description: string;
  type: "new" | "feature" | "improvement" | "bugfix";
  highlights: string[];
  author: string;
};

// Release notes of the desktop app, newest first.
export const CHANGELOG: ChangelogPost[] = [
  {
    id: "v1-0-5",
    version: "v1.0.5",
    date: "2025-03-03",
    title: "Faster start-up and smaller installers",
    description: "The app now starts in under two seconds on most machines and the installers are about 10% smaller.",
    type: "improvement",
    highlights: ["Lazy loading of agent catalogues", "Smaller installers on every platform", "Lower memory use with long conversations"],
    author: "Modelify Team",
  },
  {
    id: "v1-0-4",
    version: "v1.0.4",
    date: "2025-02-24",
    title: "Usage analytics in the dashboard",
    description: "The app reports token counts, cost and response times so you can follow your spend per model in the web dashboard.",
    type: "feature",
    highlights: ["Per-model cost and token totals", "Success rate and average response time", "CSV export of the last 30 days"],
    author: "Modelify Team",
  },
  {
    id: "v1-0-3",
    version: "v1.0.3",
    date: "2025-02-14",
    title: "Fixes for proxies and long prompts",
    description: "Requests through corporate proxies work again and very long prompts no longer time out early.",
    type: "bugfix",
    highlights: ["Respect system proxy settings", "Longer time-outs for large prompts", "Clearer messages for provider rate limits"],
    author: "Modelify Team",
  },
  {
    id: "v1-0-2",
    version: "v1.0.2",
    date: "2025-02-06",
    title: "Local models",
    description: "Run models on your own machine through a local endpoint (port 11434 by default), no API key needed.",
    type: "feature",
    highlights: ["Automatic discovery of local models", "Mix local and cloud models in one conversation", "No key required for local use"],
    author: "Modelify Team",
  },
  {
    id: "v1-0-1",
    version: "v1.0.1",
    date: "2025-01-28",
    title: "Export everywhere",
    description: "Export conversations to Word, Markdown, JSON, Notion CSV and Google Docs HTML.",
    type: "improvement",
    highlights: ["Five export formats", "Keeps code blocks and tables", "Batch export of whole folders"],
    author: "Modelify Team",
  },
  {
    id: "v1-0-0",
    version: "v1.0.0",
    date: "2025-01-20",
    title: "Modelify 1.0",
    description: "The first public release: many models and specialised agents in one desktop app, with your own API keys.",
    type: "new",
    highlights: ["120+ specialised agents", "160+ models from 12+ providers", "Windows, macOS and Linux"],
    author: "Modelify Team",
  },
];
