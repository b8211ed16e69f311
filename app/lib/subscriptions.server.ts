import { eq } from "drizzle-orm";
import type { Db } from "./db.server";
import { schema } from "./db.server";

export type SubscriptionRow = typeof schema.subscriptions.$inferSelect;

export async function getSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) });
}
