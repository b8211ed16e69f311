// The API key setup guide (the dialog and /api-setup, ADR 0013): fifteen cloud providers and
// the local option. Prices and limits change: each entry says where its numbers come from, and
// `reviewed` is when these texts were last checked against the provider's pages.
type GuideStep = { title: string; description: string; action?: { label: string; url: string }; note?: string; sampleKey?: string };
export type ProviderGuide = {
  id: string;
  name: string;
  description: string;
  pricing: string;
  rateLimit: string;
  website: string;
  steps: GuideStep[];
  /** Local models need no key. */
  local?: boolean;
};

export const GUIDE_REVIEWED = "2026-11-01";
export const LOCAL_ENDPOINT = "http://localhost:11434";

/** The three steps every hosted provider shares: account, key, paste into Modelify. */
function hosted(input: { consoleUrl: string; keysUrl: string; keyName: string; sampleKey: string; billingNote?: string }): GuideStep[] {
  return [
    {
      title: "Create an account",
      description: "Sign up or sign in to the provider's developer console.",
      action: { label: "Open console", url: input.consoleUrl },
      note: input.billingNote,
    },
    {
      title: `Create ${input.keyName}`,
      description: 'Create a new key, give it a name you will recognise (for example "Modelify"), and copy it: most consoles show it only once.',
      action: { label: "Open API keys", url: input.keysUrl },
      sampleKey: input.sampleKey,
    },
    {
      title: "Add it to Modelify",
      description: "In the desktop app open Settings, then API Keys, choose the provider and paste the key. It is encrypted and stays on this computer.",
    },
  ];
}

export const PROVIDERS: ProviderGuide[] = [
  {
    id: "openai",
    name: "OpenAI",
    description: "GPT models for chat, reasoning, vision and images.",
    pricing: "Pay as you go per million tokens; prepaid credits.",
    rateLimit: "Set by usage tier: limits rise automatically as you spend more.",
    website: "https://platform.openai.com",
    steps: hosted({
      consoleUrl: "https://platform.openai.com/signup",
      keysUrl: "https://platform.openai.com/api-keys",
      keyName: "a secret key",
      sampleKey: "sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
      billingNote: "Add a payment method or credits under Billing before the key works.",
    }),
  },
  {
    id: "anthropic",
    name: "Anthropic",
    description: "Claude models, strong at writing, analysis and code.",
    pricing: "Pay as you go per million tokens; prepaid credits.",
    rateLimit: "Set by usage tier (requests and tokens per minute), raised as you spend.",
    website: "https://console.anthropic.com",
    steps: hosted({
      consoleUrl: "https://console.anthropic.com",
      keysUrl: "https://console.anthropic.com/settings/keys",
      keyName: "an API key",
      sampleKey: "sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
      billingNote: "Buy credits under Plans & Billing to lift the free evaluation limits.",
    }),
  },
  {
    id: "google",
    name: "Google Gemini",
    description: "Gemini models with long context and multimodal input.",
    pricing: "A free tier with lower limits; paid per million tokens above it.",
    rateLimit: "Per model, in requests per minute and per day; higher on the paid tier.",
    website: "https://aistudio.google.com",
    steps: hosted({
      consoleUrl: "https://aistudio.google.com",
      keysUrl: "https://aistudio.google.com/app/apikey",
      keyName: "an API key",
      sampleKey: "AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "mistral",
    name: "Mistral AI",
    description: "Efficient open-weight and commercial models from Europe.",
    pricing: "Pay as you go per million tokens; a free experiment plan.",
    rateLimit: "Per workspace, in requests per second and tokens per minute.",
    website: "https://console.mistral.ai",
    steps: hosted({
      consoleUrl: "https://console.mistral.ai",
      keysUrl: "https://console.mistral.ai/api-keys",
      keyName: "an API key",
      sampleKey: "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "cohere",
    name: "Cohere",
    description: "Command models for retrieval-augmented chat and tools.",
    pricing: "A free trial key; production keys are paid per million tokens.",
    rateLimit: "Trial keys are limited per minute and per month; production keys much higher.",
    website: "https://dashboard.cohere.com",
    steps: hosted({
      consoleUrl: "https://dashboard.cohere.com",
      keysUrl: "https://dashboard.cohere.com/api-keys",
      keyName: "an API key",
      sampleKey: "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "groq",
    name: "Groq",
    description: "Very fast inference of open models on Groq hardware.",
    pricing: "A free tier; paid per million tokens on the developer tier.",
    rateLimit: "Per model, in requests and tokens per minute and per day.",
    website: "https://console.groq.com",
    steps: hosted({
      consoleUrl: "https://console.groq.com",
      keysUrl: "https://console.groq.com/keys",
      keyName: "an API key",
      sampleKey: "gsk_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "together",
    name: "Together AI",
    description: "Hosted open models (Llama, Qwen, DeepSeek and more).",
    pricing: "Pay as you go per million tokens; starter credits.",
    rateLimit: "Set by account tier, in requests per minute.",
    website: "https://api.together.ai",
    steps: hosted({
      consoleUrl: "https://api.together.ai",
      keysUrl: "https://api.together.ai/settings/api-keys",
      keyName: "an API key",
      sampleKey: "tgp_v1_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "perplexity",
    name: "Perplexity",
    description: "Sonar models that search the web and cite sources.",
    pricing: "Per million tokens plus a fee per search request.",
    rateLimit: "Set by usage tier, in requests per minute.",
    website: "https://www.perplexity.ai/settings/api",
    steps: hosted({
      consoleUrl: "https://www.perplexity.ai/settings/api",
      keysUrl: "https://www.perplexity.ai/settings/api",
      keyName: "an API key",
      sampleKey: "pplx-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
      billingNote: "Add credits before creating a key.",
    }),
  },
  {
    id: "deepseek",
    name: "DeepSeek",
    description: "DeepSeek chat and reasoning models at low prices.",
    pricing: "Pay as you go per million tokens, with off-peak discounts.",
    rateLimit: "No fixed per-minute cap; requests may queue under heavy load.",
    website: "https://platform.deepseek.com",
    steps: hosted({
      consoleUrl: "https://platform.deepseek.com",
      keysUrl: "https://platform.deepseek.com/api_keys",
      keyName: "an API key",
      sampleKey: "sk-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
      billingNote: "Top up your balance before the key works.",
    }),
  },
  {
    id: "xai",
    name: "xAI",
    description: "Grok models with real-time knowledge.",
    pricing: "Pay as you go per million tokens; prepaid credits.",
    rateLimit: "Per model, in requests and tokens per minute, shown in the console.",
    website: "https://console.x.ai",
    steps: hosted({
      consoleUrl: "https://console.x.ai",
      keysUrl: "https://console.x.ai",
      keyName: "an API key",
      sampleKey: "xai-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "openrouter",
    name: "OpenRouter",
    description: "One key for hundreds of models from many providers.",
    pricing: "The providers' prices plus a small fee on credit purchases.",
    rateLimit: "Depends on your credit balance; free models have their own daily cap.",
    website: "https://openrouter.ai",
    steps: hosted({
      consoleUrl: "https://openrouter.ai",
      keysUrl: "https://openrouter.ai/settings/keys",
      keyName: "an API key",
      sampleKey: "sk-or-v1-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "fireworks",
    name: "Fireworks AI",
    description: "Fast serving of open models, including fine-tunes.",
    pricing: "Pay as you go per million tokens; starter credits.",
    rateLimit: "Per account, in requests per minute; raised on request.",
    website: "https://fireworks.ai",
    steps: hosted({
      consoleUrl: "https://fireworks.ai/login",
      keysUrl: "https://fireworks.ai/account/api-keys",
      keyName: "an API key",
      sampleKey: "fw_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "azure-openai",
    name: "Azure OpenAI",
    description: "OpenAI models in your own Azure subscription and region.",
    pricing: "Per million tokens on your Azure bill.",
    rateLimit: "The tokens-per-minute quota you assign to each deployment.",
    website: "https://ai.azure.com",
    steps: [
      {
        title: "Create an Azure OpenAI resource",
        description: "In the Azure portal create an Azure OpenAI resource in a region that offers the models you want.",
        action: { label: "Open Azure portal", url: "https://portal.azure.com" },
      },
      { title: "Deploy a model", description: "In Azure AI Foundry deploy a model and note its deployment name." },
      {
        title: "Copy the endpoint and a key",
        description: "Under Keys and Endpoint copy the endpoint URL and Key 1.",
        sampleKey: "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
      },
      { title: "Add it to Modelify", description: "In Settings, then API Keys, choose Azure OpenAI and enter the endpoint, the deployment name and the key." },
    ],
  },
  {
    id: "bedrock",
    name: "Amazon Bedrock",
    description: "Claude, Llama, Mistral and Amazon models in your AWS account.",
    pricing: "Per million tokens on your AWS bill.",
    rateLimit: "Per model and region, in requests and tokens per minute (service quotas).",
    website: "https://aws.amazon.com/bedrock",
    steps: [
      {
        title: "Enable model access",
        description: "In the Bedrock console of your region, request access to the models you want.",
        action: { label: "Open Bedrock console", url: "https://console.aws.amazon.com/bedrock" },
      },
      {
        title: "Create an access key",
        description: "Create an IAM user (or role) allowed to invoke Bedrock models and create an access key for it.",
        sampleKey: "AKIAXXXXXXXXXXXXXXXX",
      },
      { title: "Add it to Modelify", description: "In Settings, then API Keys, choose Amazon Bedrock and enter the region, the access key id and its secret." },
    ],
  },
  {
    id: "huggingface",
    name: "Hugging Face",
    description: "Thousands of open models through Inference Providers.",
    pricing: "Monthly included credits; pay as you go beyond them.",
    rateLimit: "Depends on your plan and the provider serving the model.",
    website: "https://huggingface.co",
    steps: hosted({
      consoleUrl: "https://huggingface.co/join",
      keysUrl: "https://huggingface.co/settings/tokens",
      keyName: "an access token",
      sampleKey: "hf_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    }),
  },
  {
    id: "local",
    name: "Local models",
    description: "Run open models on your own computer, offline and free.",
    pricing: "Free: your hardware does the work.",
    rateLimit: "No limits beyond your computer's speed.",
    website: "https://ollama.com",
    local: true,
    steps: [
      {
        title: "Install a local model server",
        description: "Install Ollama (or another server with the same API) and download a model, for example with `ollama pull llama3.2`.",
        action: { label: "Download Ollama", url: "https://ollama.com/download" },
      },
      {
        title: "Connect Modelify",
        description: `In Settings, then Local Models, keep the default endpoint ${LOCAL_ENDPOINT} (or enter your server's). No API key is needed.`,
        note: "Local models need a capable computer: 8 GB of RAM for small models, more for larger ones.",
      },
    ],
  },
];

export function providerById(id: string | null): ProviderGuide | undefined {
  return PROVIDERS.find((p) => p.id === id);
}
