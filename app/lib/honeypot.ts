// The honeypot field of the public forms (waitlist, contact): hidden from people, so only a bot
// fills it. Such a submission is answered as if it worked and nothing is stored or sent.
export const HONEYPOT_FIELD = "website";

export function filledHoneypot(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return value !== null && value !== "";
}
