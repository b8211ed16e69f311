// What deleting an account does, said once for the Danger zone card's page (issue 29).
const FACTS = [
  "Your subscription is cancelled at once. There is no refund for the part of the month already paid.",
  "Every browser session and every desktop app's device key is signed out.",
  "Your profile, profile pictures, usage history (including archived months), budgets, downloads history, early access and waitlist entry, support messages, phone codes and data exports are deleted.",
  "We keep only what the privacy policy names: the security audit log, with your address replaced by a hash, and the invoices our payment provider must keep.",
  "We send a confirmation to your address. You can sign up again with it later, as a new account.",
] as const;

export function DeletionFacts() {
  return (
    <div className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4">
      <h2 className="text-sm font-semibold text-red-900">What happens</h2>
      <ul className="mt-2 list-disc space-y-1.5 pl-5 text-sm text-red-900">
        {FACTS.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
    </div>
  );
}
