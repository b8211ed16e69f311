// The Edit Profile dialog's unsaved-changes flags, kept in step with the form and its local
// backup, and the backup restored when the dialog opens (ADR 0011).
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { clearBackup, freshBackup, writeBackup } from "~/lib/profile/backup";
import { savedValues, unsavedChanges } from "~/lib/profile/unsaved-changes";
import { PROFILE_FORM_FIELDS } from "~/lib/profile/form-fields";
import type { ProfileView } from "~/lib/profile/view";
import { formValues, setFieldValue } from "./profile-form-dom";

export function useUnsavedChanges(formRef: RefObject<HTMLFormElement | null>, profile: ProfileView, onRestored: () => void) {
  const saved = savedValues(profile);
  const savedRef = useRef(saved);
  savedRef.current = saved;
  /** When the auto-save countdown started, or null when no auto-saved field differs. */
  const [dirtySince, setDirtySince] = useState<number | null>(null);
  const [explicitDirty, setExplicitDirty] = useState(false);
  const [usernameDirty, setUsernameDirty] = useState(false);
  const [emailDirty, setEmailDirty] = useState(false);

  /** Compares the form with what is saved and sets the flags (auto-save starts on its own). */
  const recompute = useCallback(() => {
    const el = formRef.current;
    if (!el) return;
    const values = formValues(el, savedRef.current);
    const changes = unsavedChanges(values, savedRef.current);
    setDirtySince((since) => (changes.autoSaved ? (since ?? Date.now()) : null));
    setExplicitDirty(changes.explicitOnly);
    setUsernameDirty(changes.username);
    setEmailDirty(changes.email);
    if (changes.any) writeBackup(profile.userId, values);
    else clearBackup(profile.userId);
  }, [formRef, profile.userId]);

  // Restore a backup under 24 h old (spec: "Restored unsaved changes from previous session!").
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the dialog opens.
  useEffect(() => {
    const el = formRef.current;
    if (!el) return;
    const backup = freshBackup(profile.userId, savedRef.current);
    if (!backup) return;
    for (const f of PROFILE_FORM_FIELDS) {
      const v = backup.values[f];
      if (typeof v === "string") setFieldValue(el, f, v);
    }
    onRestored();
    recompute();
  }, []);

  /** An auto-save ended (saved or refused): its countdown is over until the next change. */
  const stopCountdown = useCallback(() => setDirtySince(null), []);
  /** The Save button's save succeeded: the backup and the flags the dialog still shows go. */
  const afterSave = useCallback(() => {
    clearBackup(profile.userId);
    setDirtySince(null);
    setExplicitDirty(false);
  }, [profile.userId]);
  /** Reset All Changes: the backup and every flag go (the form itself is reset natively). */
  const discard = useCallback(() => {
    clearBackup(profile.userId);
    setDirtySince(null);
    setExplicitDirty(false);
    setUsernameDirty(false);
    setEmailDirty(false);
  }, [profile.userId]);

  return { saved, savedRef, dirtySince, explicitDirty, usernameDirty, emailDirty, recompute, stopCountdown, afterSave, discard };
}
