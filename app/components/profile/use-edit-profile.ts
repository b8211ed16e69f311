// The Edit Profile dialog's behaviour in one place: the unsaved-changes flags and backup, the
// saves, the auto-save countdown and the username confirmation, wired together (ADR 0011). The
// dialog itself only draws what this returns.
import { useForm } from "@conform-to/react";
import { type FormEvent, type RefObject, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { z } from "zod";
import { PROFILE_MESSAGES as M } from "~/lib/profile/messages";
import type { profileFormSchema } from "~/lib/profile/validation";
import { CHECKED_ON_THE_SERVER } from "~/components/forms";
import type { ProfileView } from "~/lib/profile/view";
import { setFieldValue } from "./profile-form-dom";
import { useAutoSave } from "./use-auto-save";
import { type ProfileActionData, useProfileSave } from "./use-profile-save";
import { useUnsavedChanges } from "./use-unsaved-changes";

type Message = { tone: "success" | "error" | "info"; text: string };

export function useEditProfile(profile: ProfileView, actionData: ProfileActionData) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [pausedAfterError, setPausedAfterError] = useState(false);
  const changes = useUnsavedChanges(formRef, profile, () => setMessage({ tone: "info", text: M.restored }));
  const save = useProfileSave(formRef, changes.savedRef, profile.userId, {
    refused: (text) => {
      setPausedAfterError(true);
      changes.stopCountdown();
      setMessage({ tone: "error", text });
    },
    autoSaved: (text) => {
      setMessage({ tone: "success", text });
      // The loader revalidates with the saved row; compare again once it has (below).
      changes.stopCountdown();
    },
    saved: (emailPending) => {
      changes.afterSave();
      navigate(`/dashboard/profile?saved=1${emailPending ? "&emailPending=1" : ""}`, { replace: true, preventScrollReset: true });
    },
  });
  // After the save's effect above, so that a change typed while an auto-save ran starts a new
  // countdown instead of ending with the old one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: compare again whenever the saved profile changes.
  useEffect(() => {
    changes.recompute();
  }, [profile, changes.recompute]);
  const countdown = useAutoSave({
    dirtySince: changes.dirtySince,
    unsaved: changes.dirtySince !== null || changes.explicitDirty,
    busy: save.busy,
    pausedAfterError,
    submit: save.submit,
  });
  const confirmation = useUsernameConfirmation(formRef, changes.usernameDirty, save.lastIntent);
  const [form, fields] = useForm<z.input<typeof profileFormSchema>, z.output<typeof profileFormSchema>>({
    id: "edit-profile",
    lastResult: (save.fetcher.data ?? actionData)?.result,
    ...CHECKED_ON_THE_SERVER,
    defaultValue: changes.saved,
    onSubmit: confirmation.onSubmit,
  });

  const onInput = () => {
    setPausedAfterError(false);
    setMessage(null);
    changes.recompute();
  };
  const resetAll = () => {
    // The native reset puts every field back to its saved value; the flags follow.
    setPausedAfterError(false);
    changes.discard();
    setMessage({ tone: "success", text: M.reset });
    form.reset();
  };
  const resetUsername = () => {
    const el = formRef.current;
    if (el) setFieldValue(el, "username", changes.saved.username);
    changes.recompute();
  };
  return { formRef, form, fields, message, changes, save, countdown, confirmation, onInput, resetAll, resetUsername };
}

/** The Confirm Username Change dialog: a Save that changes the username asks first. */
function useUsernameConfirmation(formRef: RefObject<HTMLFormElement | null>, usernameDirty: boolean, lastIntent: RefObject<"save" | "autosave" | null>) {
  const [open, setOpen] = useState(false);
  const confirmed = useRef(false);
  return {
    open,
    // Conform calls this only for a real, valid submit. Its own field checks (validate on blur)
    // are submit events too, so deciding here rather than in the form's onSubmit keeps a blur
    // from opening the username confirmation or marking a save as under way.
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      if (usernameDirty && !confirmed.current) {
        event.preventDefault();
        setOpen(true);
        return;
      }
      confirmed.current = false;
      lastIntent.current = "save";
    },
    cancel: () => setOpen(false),
    confirm: () => {
      setOpen(false);
      confirmed.current = true;
      formRef.current?.requestSubmit();
    },
  };
}
