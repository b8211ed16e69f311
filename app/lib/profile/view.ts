// What the profile page shows: the shapes loaders hand to components (no secrets in them).

export type PhoneStatus = "unverified" | "pending" | "verified";
export type ImageKind = "avatar" | "cover";

export type ProfileView = {
  userId: string;
  email: string;
  /** A new address waiting for confirmation, or null. */
  pendingEmail: string | null;
  username: string | null;
  /** 0 when the username may change now; otherwise whole days until it may. */
  usernameChangeableInDays: number;
  firstName: string;
  lastName: string;
  initial: string;
  bio: string;
  company: string;
  website: string;
  location: string;
  timezone: string;
  /** The locale pinned for numbers and dates, or "" for the browser's (issue 48). */
  locale: string;
  phoneNumber: string | null;
  phoneStatus: PhoneStatus;
  /** While a code is pending: when it expires (epoch ms). */
  phoneCodeExpiresAt: number | null;
  /** Versioned same-origin URLs (/profile-images/…?v=…), or null. */
  avatarUrl: string | null;
  coverPhotoUrl: string | null;
  securityQuestion: string | null;
  hasSecurityAnswer: boolean;
  /** Account creation time (the header's "Joined <month>"). */
  joinedAt: number;
  /** An e-mail change asks for a two-factor code too: two-factor is on and the session has no recent proof. */
  emailChangeNeedsCode: boolean;
};

/** One signed-in browser or desktop app of the account. */
export type SessionView = {
  id: string;
  client: "web" | "desktop";
  /** "Chrome on macOS", "Modelify desktop app", or "Unknown device". */
  device: string;
  createdAt: number;
  /** Last time it renewed its token (or its creation). */
  lastActiveAt: number;
  current: boolean;
  /** A desktop app's key: what the app said about itself, and its use this month. */
  key: DeviceKeyView | null;
};

export type DeviceKeyView = {
  /** "macOS"; null for a key from the legacy password sign-in, which names no platform. */
  platform: string | null;
  appVersion: string | null;
  /** Its last usage report, and the country it came from (a name, e.g. "Germany"). */
  lastUsedAt: number | null;
  country: string | null;
  monthRequests: number;
  monthCostUsd: number;
};
