import { eq } from "drizzle-orm";
import type { Db } from "./db.server";
import { schema } from "./db.server";
import { countsAsActive } from "./subscription-rules";

export type SubscriptionRow = typeof schema.subscriptions.$inferSelect;

export async function getSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) });
}

export async function hasActiveSubscription(db: Db, userId: string, now = Date.now()): Promise<boolean> {
  return countsAsActive(await getSubscription(db, userId), now);
}
