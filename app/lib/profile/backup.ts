// The Edit Profile dialog's local backup (ADR 0011): saving writes what the form
// holds to the browser's storage first, a successful save clears it, and a backup under 24 h old
// is restored when the dialog opens again. Storage may be full, disabled or missing (the server
// renders this code too): every call then does nothing, and the server save still happens.
import { PROFILE } from "../constants";
import { PROFILE_FORM_FIELDS, type ProfileFormValues } from "./form-fields";

type ProfileBackup = { savedAt: number; values: Partial<ProfileFormValues> };

/** Where backups live; a test hands in its own. Read inside each call's try: reading it can throw. */
type BackupStorage = () => Pick<Storage, "getItem" | "setItem" | "removeItem">;

const browserStorage: BackupStorage = () => window.localStorage;

function backupKey(userId: string) {
  return `modelify:profile-backup:${userId}`;
}

function readBackup(userId: string, storage: BackupStorage): ProfileBackup | null {
  try {
    const raw = storage().getItem(backupKey(userId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as ProfileBackup;
    return typeof parsed?.savedAt === "number" && parsed.values && typeof parsed.values === "object" ? parsed : null;
  } catch {
    return null;
  }
}

export function writeBackup(userId: string, values: ProfileFormValues, storage = browserStorage, now = Date.now()) {
  // The security answer is a secret: it never goes to local storage.
  const { securityAnswer: _secret, ...rest } = values;
  try {
    storage().setItem(backupKey(userId), JSON.stringify({ savedAt: now, values: rest } satisfies ProfileBackup));
  } catch {
    // Storage full or disabled: the server save still happens.
  }
}

export function clearBackup(userId: string, storage = browserStorage) {
  try {
    storage().removeItem(backupKey(userId));
  } catch {
    // nothing to clear
  }
}

/** A backup under 24 h old that differs from what is saved; an older one is dropped. */
export function freshBackup(userId: string, saved: ProfileFormValues, now = Date.now(), storage = browserStorage): ProfileBackup | null {
  const backup = readBackup(userId, storage);
  if (!backup) return null;
  if (now - backup.savedAt > PROFILE.backupValidityMs) {
    clearBackup(userId, storage);
    return null;
  }
  const differs = PROFILE_FORM_FIELDS.some((f) => typeof backup.values[f] === "string" && backup.values[f] !== saved[f]);
  return differs ? backup : null;
}
