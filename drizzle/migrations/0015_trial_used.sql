-- What Stripe said about an account's trials, asked once (app/lib/billing/trial.server.ts): null until
-- asked. Accounts with a trial in their stored subscription row need no answer from Stripe.
ALTER TABLE `user_profiles` ADD `trial_used` integer;
