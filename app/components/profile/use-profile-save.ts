// The Edit Profile dialog's saves through its fetcher: the Save button's ("save") and the
// countdown's ("autosave"), each writing the local backup first (ADR 0011).
import type { SubmissionResult } from "@conform-to/react";
import { type RefObject, useCallback, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { writeBackup } from "~/lib/profile/backup";
import { PROFILE_MESSAGES as M } from "~/lib/profile/messages";
import { EXPLICIT_ONLY } from "~/lib/profile/unsaved-changes";
import type { ProfileFormValues } from "~/lib/profile/form-fields";
import { clearPassword, formValues, setFieldValue } from "./profile-form-dom";

export type ProfileActionData = { result: SubmissionResult<string[]>; ok: boolean; message: string | null; emailPending: boolean } | null;
type Intent = "save" | "autosave";

/** What the dialog does when a save it sent has ended. */
type SaveOutcomes = {
  refused: (message: string) => void;
  autoSaved: (message: string) => void;
  saved: (emailPending: boolean) => void;
};

export function useProfileSave(formRef: RefObject<HTMLFormElement | null>, savedRef: RefObject<ProfileFormValues>, userId: string, outcomes: SaveOutcomes) {
  const fetcher = useFetcher<ProfileActionData>({ key: "profile-save" });
  /** The save under way, so its answer is read once (the keyed fetcher keeps its last answer). */
  const lastIntent = useRef<Intent | null>(null);
  const outcomesRef = useRef(outcomes);
  outcomesRef.current = outcomes;

  const submit = useCallback(
    (intent: Intent) => {
      const el = formRef.current;
      if (!el) return;
      writeBackup(userId, formValues(el, savedRef.current));
      const data = new FormData(el);
      data.set("intent", intent);
      data.set("js", "1");
      if (intent === "autosave") {
        for (const f of EXPLICIT_ONLY) data.set(f, savedRef.current[f]);
        data.delete("currentPassword");
        data.delete("currentCode");
      }
      lastIntent.current = intent;
      fetcher.submit(data, { method: "post", action: "/dashboard/profile?edit=1" });
    },
    [fetcher, formRef, savedRef, userId],
  );

  // A finished save: the secrets leave the form, and the dialog hears how it went.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const intent = lastIntent.current;
    lastIntent.current = null;
    if (!intent) return;
    if (!fetcher.data.ok) {
      outcomesRef.current.refused(fetcher.data.result.error?.[""]?.[0] ?? M.saveFailed);
      return;
    }
    const el = formRef.current;
    if (el) {
      setFieldValue(el, "securityAnswer", "");
      if (intent === "save") clearPassword(el);
    }
    if (intent === "save") outcomesRef.current.saved(fetcher.data.emailPending);
    else outcomesRef.current.autoSaved(fetcher.data.message ?? M.autoSaved);
  }, [fetcher.state, fetcher.data, formRef]);

  return { fetcher, busy: fetcher.state !== "idle", submit, lastIntent };
}
