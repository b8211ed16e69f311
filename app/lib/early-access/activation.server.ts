// Spec §4: an account is activated with early access or an active subscription. Everything that
// unlocks the product (downloads, Model Analytics, what the dashboard and the API report) asks here.
import { eq } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { countsAsActive } from "../subscription-rules";
import { hasEarlyAccess } from "./keys.server";

export type Activation = { activated: boolean; subscription: boolean; earlyAccess: boolean; earlyAccessExpiresAt: number | null };

export async function accountActivation(db: Db, userId: string, now = Date.now()): Promise<Activation> {
  const [subscription, profile] = await Promise.all([
    db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) }),
    db.query.userProfiles.findFirst({
      where: eq(schema.userProfiles.userId, userId),
      columns: { earlyAccessStatus: true, earlyAccessExpiresAt: true },
    }),
  ]);
  const paid = countsAsActive(subscription, now);
  const early = hasEarlyAccess(profile, now);
  return { activated: paid || early, subscription: paid, earlyAccess: early, earlyAccessExpiresAt: early ? (profile?.earlyAccessExpiresAt ?? null) : null };
}

export async function isAccountActivated(db: Db, userId: string, now = Date.now()): Promise<boolean> {
  return (await accountActivation(db, userId, now)).activated;
}
