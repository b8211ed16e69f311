// The budget tab's forms for caps of one model or one device key (ADR 0032), on the server and in
// tests. A cap's target is one choice of one list (models the account used, its device keys), so
// the form needs no script to pair a kind with its choices; the server checks the choice is the
// account's own.
import type { NewCap } from "./caps.server";
import { money } from "./budget-form";
import { z } from "../zod";

const TARGET = /^(model:[^/]+\/.+|device:[A-Za-z0-9-]{1,100})$/;

export const capFormSchema = z.object({
  target: z.string({ error: "Choose a model or a device" }).trim().regex(TARGET, "Choose a model or a device from the list"),
  limitUsd: money.refine((n) => n > 0, "A cap must be more than $0: remove the cap to stop capping"),
});

export const removeCapSchema = z.object({ capId: z.uuid({ error: "That cap does not exist" }) });

/** The cap a form's target names, or null when it is not one the form could offer. */
export function capOfTarget(target: string): NewCap | null {
  if (target.startsWith("device:")) return { kind: "device", deviceId: target.slice("device:".length) };
  const [provider, name] = target.slice("model:".length).split("/", 2) as [string, string | undefined];
  try {
    const model = { provider: decodeURIComponent(provider), name: decodeURIComponent(name ?? "") };
    return model.provider && model.name ? { kind: "model", model } : null;
  } catch {
    return null;
  }
}
