// The Features dialog: eight tabs of three or four cards, and the key statistics.
type FeatureCard = { title: string; text: string };
export type FeatureTab = { id: string; label: string; cards: FeatureCard[] };

// The fourth, the spec's "100/100 Security Score", is the grade the site's security headers earn
// (lib/site/security-score.ts), shown by the dialog from the site's data with what it measures.
export const KEY_STATISTICS = [
  { value: "160+", label: "AI Models" },
  { value: "12+", label: "Providers" },
  { value: "5", label: "Export Formats" },
] as const;

/** What the Security Score measures, in the dialog's words. */
export const SECURITY_SCORE_NOTE =
  "Security Score: the grade our web pages' security headers earn (Content-Security-Policy, Strict-Transport-Security, X-Frame-Options, X-Content-Type-Options, Referrer-Policy and Permissions-Policy), each set as strictly as header graders ask. Our tests grade the headers a page really gets.";

const EXPORT_FORMATS = ["Word", "Markdown", "JSON", "Notion CSV", "Google Docs HTML"] as const;

export const FEATURE_TABS: FeatureTab[] = [
  {
    id: "overview",
    label: "Overview",
    cards: [
      { title: "Every model in one app", text: "160+ models from 12+ providers, cloud and local, behind one chat window." },
      { title: "120+ specialised agents", text: "Ready-made agents for writing, coding, research and analysis, each tuned for its job." },
      { title: "Your keys, your costs", text: "Bring your own provider keys and pay providers directly; Modelify shows what each call cost." },
    ],
  },
  {
    id: "models",
    label: "AI Models",
    cards: [
      { title: "120+ cloud models", text: "OpenAI, Anthropic, Google, Mistral, xAI, DeepSeek and more, as soon as providers release them." },
      { title: "40+ local models", text: "Run Llama, Qwen, Mistral and other open models on your own hardware, offline." },
      { title: "Compare side by side", text: "Send one prompt to several models and compare answers, speed and cost." },
      { title: "Model Analytics", text: "See which models are fastest, most reliable and cheapest for the way you work." },
    ],
  },
  {
    id: "chat",
    label: "Chat Features",
    cards: [
      { title: "Switch models mid-chat", text: "Continue a conversation with another model without losing context." },
      { title: "Files and images", text: "Attach documents, code and images to models that read them." },
      { title: "Prompt library", text: "Save prompts you reuse and start chats from them in one click." },
    ],
  },
  {
    id: "workspace",
    label: "Workspace",
    cards: [
      { title: "Projects and folders", text: "Group conversations by project and find them again with full-text search." },
      { title: "Budgets", text: "Set monthly and daily budgets and get an e-mail before you overspend." },
      { title: "Usage dashboard", text: "Tokens, cost and response times per model, day and conversation." },
    ],
  },
  {
    id: "security",
    label: "Security",
    cards: [
      { title: "Keys encrypted on your device", text: "Provider keys are stored with AES-256-GCM encryption and never leave your computer." },
      { title: "Conversations stay local", text: "What you write goes from your computer to the provider you chose, never through our servers." },
      { title: "Account protection", text: "Lockouts after repeated wrong passwords, and every signed-in device visible and revocable." },
    ],
  },
  {
    id: "export",
    label: "Export",
    cards: [
      { title: "Five formats", text: `Export conversations as ${EXPORT_FORMATS.slice(0, -1).join(", ")} or ${EXPORT_FORMATS.at(-1)}.` },
      { title: "Usage as CSV", text: "Download your usage history for your own reports and expense claims." },
      { title: "Nothing locked in", text: "Your conversations are files on your computer; take them anywhere." },
    ],
  },
  {
    id: "technical",
    label: "Technical",
    cards: [
      { title: "Streaming answers", text: "Answers appear as they are generated, with token counts and timing." },
      { title: "OpenAI-compatible endpoints", text: "Point Modelify at any server that speaks the OpenAI API, including your own." },
      { title: "Local model server", text: "Works with Ollama and compatible servers on http://localhost:11434 by default." },
    ],
  },
  {
    id: "platforms",
    label: "Platforms",
    cards: [
      { title: "Windows", text: "Windows 10 or later, x64 and x86 installers." },
      { title: "macOS", text: "macOS 12.0 or later, for Apple silicon and Intel." },
      { title: "Linux", text: "Ubuntu 20.04+ or Fedora 36+, x64 and ARM64." },
      { title: "Automatic updates", text: "New versions install themselves; see the changelog for what changed." },
    ],
  },
];
