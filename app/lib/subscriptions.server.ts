import { eq } from "drizzle-orm";
import type { AccountRef } from "./auth/session.server";
import type { Db } from "./db.server";
import { schema } from "./db.server";

export type SubscriptionRow = typeof schema.subscriptions.$inferSelect;

export async function getSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) });
}

/** The subscription of a signed-in user: the row read with their session when there is one (SessionUser.accountRows). */
export async function subscriptionOf(db: Db, user: AccountRef): Promise<SubscriptionRow | undefined> {
  if (user.accountRows) return user.accountRows.subscription ?? undefined;
  return getSubscription(db, user.id);
}
