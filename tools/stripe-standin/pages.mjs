// The hosted pages Stripe would show the customer: Checkout (card form), the customer portal (cancel /
// renew), and invoice receipts with a PDF. Plain server-rendered HTML forms, so they work without JavaScript
// and tests can drive them with fetch.
import { html, readBody, redirect, send } from "./http.mjs";
import { money } from "./stripe-objects.mjs";

// Stripe's test cards: one that pays, one that is declined. Any other number is "invalid".
const CARD_OK = "4242424242424242";
const CARD_DECLINED = "4000000000000002";

const longDate = (sec) => new Date(sec * 1000).toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** A minimal but valid one-page PDF (ASCII text only) with correct xref offsets. */
function minimalPdf(lines) {
  const text = lines
    .map((l, i) => `BT /F1 ${i === 0 ? 18 : 12} Tf 72 ${720 - i * 22} Td (${l.replace(/[^\x20-\x7e]/g, "").replace(/[\\()]/g, "\\$&")}) Tj ET`)
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const CSS = `*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f8fa;color:#1a1f36}
main{max-width:880px;margin:48px auto;padding:0 20px}.card{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(26,31,54,.08);padding:32px}
.split{display:grid;grid-template-columns:1fr 1fr;gap:32px}@media(max-width:700px){.split{grid-template-columns:1fr}}
.muted{color:#697386}.brand{font-weight:600;color:#635bff;margin:0 0 24px}h1{font-size:22px;margin:0 0 4px}.price{font-size:32px;font-weight:700;margin:8px 0}
.trial{background:#ecfdf3;color:#05603a;border-radius:8px;padding:8px 12px;display:inline-block}label{display:block;font-weight:500;margin:14px 0 4px}
input{width:100%;padding:10px 12px;border:1px solid #d5dbe1;border-radius:8px;font:inherit}input:focus{outline:2px solid #635bff;border-color:transparent}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}button{width:100%;margin-top:20px;padding:12px;border:0;border-radius:8px;background:#635bff;color:#fff;font:600 16px system-ui;cursor:pointer}
button.secondary{background:#fff;color:#df1b41;border:1px solid #df1b41;width:auto;padding:8px 16px;margin-top:12px;font-size:14px}button.renew{color:#635bff;border-color:#635bff}
.error{background:#fff1f2;color:#df1b41;border-radius:8px;padding:10px 12px;margin:12px 0 0}.hint{font-size:13px;color:#697386;margin-top:16px}
a{color:#635bff}.sub{border:1px solid #e3e8ee;border-radius:10px;padding:16px 20px;margin:16px 0}.badge{font-size:12px;font-weight:600;background:#eef0ff;color:#3d35c9;border-radius:999px;padding:2px 10px;margin-left:8px}
table{width:100%;border-collapse:collapse}td{padding:8px 0;border-bottom:1px solid #eef0f3}td:last-child{text-align:right}`;
const page = (title, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body><main>${body}</main></body></html>`;
const messagePage = (title, message) => page(title, `<div class="card"><p class="brand">Modelify</p><h1>${esc(message)}</h1></div>`);

/** Validates the hosted form; returns the card or an { status, error } to re-render with. */
const readCard = (form) => {
  const number = String(form.cardNumber ?? "").replace(/\s+/g, "");
  const invalid = { status: 400, error: "Your card number is invalid." };
  if (number !== CARD_OK && number !== CARD_DECLINED) return invalid;
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(String(form.expiry ?? ""));
  if (!m) return invalid;
  const expMonth = Number(m[1]);
  const expYear = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  const today = new Date();
  if (expMonth < 1 || expMonth > 12 || expYear * 12 + expMonth < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) return invalid;
  if (number === CARD_DECLINED) return { status: 402, error: "Your card was declined." };
  return { card: { number, expMonth, expYear, name: String(form.cardholder ?? "").trim() } };
};

const invoicePage = (inv) =>
  page(
    `Receipt ${inv.number}`,
    `<div class="card"><p class="brand">Modelify</p><h1>Receipt from Modelify</h1>
<p class="muted">Invoice ${esc(inv.number)} · Paid ${longDate(inv.status_transitions.paid_at)}</p><p class="price">${money(inv.amount_paid)}</p>
<table>${inv.lines.data.map((l) => `<tr><td>${esc(l.description)}</td><td>${money(l.amount)}</td></tr>`).join("")}<tr><td><strong>Total</strong></td><td><strong>${money(inv.total)}</strong></td></tr></table>
<p><a href="${esc(inv.invoice_pdf)}">Download PDF</a></p></div>`,
  );

/** The hosted Checkout page: the plan, and the card form (re-rendered with `error` and the entered `values`). */
function checkoutPage(state, session, { error = "", values = {} } = {}) {
  const extras = state.sessionExtras.get(session.id);
  const customer = state.customers.get(session.customer);
  const perMonth = money(extras.price.unit_amount);
  const trial = extras.trialDays ? `<p class="trial">${extras.trialDays} days free, then ${perMonth} per month</p>` : "";
  const input = (name, label, attrs) => `<label for="${name}">${label}</label><input id="${name}" name="${name}" value="${esc(values[name])}" ${attrs}>`;
  return page(
    `${extras.price.nickname} – Checkout`,
    `<div class="card split">
<section><p class="brand">Modelify</p><p class="muted">Subscribe to</p><h1>${esc(extras.price.nickname)}</h1><p class="price">${perMonth} / month</p>${trial}
${extras.quantity > 1 ? `<p class="muted">Quantity: ${extras.quantity}</p><p>Total: ${money(extras.price.unit_amount * extras.quantity)} / month</p>` : ""}</section>
<section><p class="muted">Paying as</p><p><strong>${esc(customer?.email ?? "")}</strong></p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post" action="/checkout/${esc(session.id)}" novalidate>
${input("cardNumber", "Card number", 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234"')}
<div class="row"><div>${input("expiry", "Expiry (MM/YY)", 'autocomplete="cc-exp" placeholder="MM / YY"')}</div><div>${input("cvc", "CVC", 'inputmode="numeric" autocomplete="cc-csc" placeholder="123"')}</div></div>
${input("cardholder", "Name on card", 'autocomplete="cc-name"')}
<button type="submit">${extras.trialDays ? "Start trial" : "Subscribe"}</button></form>
<p class="hint">Test card: 4242 4242 4242 4242, any future date, any CVC</p>
<p><a href="${esc(session.cancel_url)}">Cancel</a></p></section></div>`,
  );
}

/** The customer portal: the customer's live subscriptions (cancel / renew) and their invoices. */
function portalPage(state, portal) {
  const subs = state.newest("subscriptions").filter((s) => s.customer === portal.customer && s.status !== "canceled");
  const rows = subs.map((s) => {
    const item = s.items.data[0];
    const pm = state.paymentMethods.get(s.default_payment_method);
    const when = s.cancel_at_period_end ? `Cancels on ${longDate(s.cancel_at)}` : `Renews on ${longDate(item.current_period_end)}`;
    const action = s.cancel_at_period_end ? ["renew", "Renew plan", "secondary renew"] : ["cancel", "Cancel plan", "secondary"];
    return `<div class="sub"><h2 style="margin:0;font-size:18px">${esc(item.price.nickname ?? "Modelify Pro")}${item.quantity > 1 ? ` × ${item.quantity}` : ""}<span class="badge">${esc(s.status)}</span></h2>
<p class="muted" style="margin:4px 0">${money(item.price.unit_amount)} per month · ${when}</p>
${pm ? `<p style="margin:4px 0">${esc(pm.card.brand === "visa" ? "Visa" : pm.card.brand)} •••• ${esc(pm.card.last4)}</p>` : ""}
<form method="post" action="/portal/${esc(portal.id)}/${action[0]}"><input type="hidden" name="subscription" value="${esc(s.id)}"><button type="submit" class="${action[2]}">${action[1]}</button></form></div>`;
  });
  const invoices = state
    .newest("invoices")
    .filter((i) => i.customer === portal.customer)
    .slice(0, 10)
    .map((i) => `<tr><td><a href="${esc(i.hosted_invoice_url)}">${esc(i.number)}</a></td><td>${longDate(i.created)}</td><td>${money(i.total)}</td></tr>`);
  return page(
    "Modelify – Billing",
    `<div class="card"><p class="brand">Modelify</p><h1>Billing</h1><p class="muted">${esc(state.customers.get(portal.customer)?.email ?? "")}</p>
<h2 style="font-size:16px;margin-top:24px">Current plan</h2>${rows.join("") || '<p class="muted">No active subscriptions.</p>'}
${invoices.length ? `<h2 style="font-size:16px">Invoice history</h2><table>${invoices.join("")}</table>` : ""}
<p style="margin-top:24px"><a href="${esc(portal.return_url ?? "/")}">Return to Modelify</a></p></div>`,
  );
}

/**
 * @param {{ state: ReturnType<typeof import("./state.mjs").createState>, webhooks: ReturnType<typeof import("./webhooks.mjs").createWebhooks> }} deps
 */
export function createPages({ state, webhooks }) {
  const checkout = async (req, res, id) => {
    const session = state.sessions.get(id);
    if (!session) return html(res, 404, messagePage("Not found", "Checkout session not found."));
    if (state.sessionStatus(session) !== "open") return html(res, 410, messagePage("Expired", "This checkout session is no longer available."));
    if (req.method === "GET") return html(res, 200, checkoutPage(state, session));
    if (req.method !== "POST") return html(res, 405, messagePage("Not allowed", "Method not allowed."));
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const result = readCard(form);
    // The CVC is never echoed back into the re-rendered form.
    if (!result.card) return html(res, result.status, checkoutPage(state, session, { error: result.error, values: { ...form, cvc: "" } }));
    const outbox = [];
    state.completeCheckout(session, result.card, outbox);
    // Delivered before the redirect is answered, so the app has the events by the time the browser reaches success_url.
    await webhooks.flush(outbox);
    return redirect(res, session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id));
  };

  const portal = async (req, res, id, action) => {
    const portalSession = state.portalSessions.get(id);
    if (!portalSession) return html(res, 404, messagePage("Not found", "This billing session was not found."));
    if (!action && req.method === "GET") return html(res, 200, portalPage(state, portalSession));
    if (!action || req.method !== "POST") return html(res, 405, messagePage("Not allowed", "Method not allowed."));
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const own = state.newest("subscriptions").filter((s) => s.customer === portalSession.customer && s.status !== "canceled");
    // Only the portal customer's own subscriptions; without a (valid) choice, the newest one.
    const sub = own.find((s) => s.id === form.subscription) ?? own[0];
    if (sub) {
      const outbox = [];
      state.updateSubscription(sub, { cancelAtPeriodEnd: action === "cancel" }, outbox);
      await webhooks.flush(outbox);
    }
    return redirect(res, `/portal/${portalSession.id}`);
  };

  const invoice = (res, id, pdf) => {
    const inv = state.invoices.get(id);
    if (!inv) return html(res, 404, messagePage("Not found", "Invoice not found."));
    if (!pdf) return html(res, 200, invoicePage(inv));
    const body = minimalPdf([
      "Modelify receipt",
      `Invoice ${inv.number}`,
      `Paid ${longDate(inv.status_transitions.paid_at)}`,
      // minimalPdf keeps ASCII only: spell "×" as "x" rather than lose it.
      ...inv.lines.data.map((l) => `${l.description.replace("×", "x")}  ${money(l.amount)}`),
      `Total ${money(inv.total)}`,
    ]);
    return send(res, 200, body, "application/pdf", { "Content-Disposition": `inline; filename="${inv.number}.pdf"` });
  };

  /** Handles every path outside /v1/ and /__control/. */
  return async function handlePages(req, res, url) {
    const path = url.pathname;
    const checkoutMatch = /^\/checkout\/([^/]+)$/.exec(path);
    if (checkoutMatch) return checkout(req, res, checkoutMatch[1]);
    const portalMatch = /^\/portal\/([^/]+?)(?:\/(cancel|renew))?$/.exec(path);
    if (portalMatch) return portal(req, res, portalMatch[1], portalMatch[2]);
    const invoiceMatch = /^\/invoices\/([^/]+?)(\.pdf)?$/.exec(path);
    if (invoiceMatch && req.method === "GET") return invoice(res, invoiceMatch[1], invoiceMatch[2]);
    if (path === "/" && req.method === "GET") return send(res, 200, "Stripe stand-in (dev/test only). API under /v1/.\n", "text/plain; charset=utf-8");
    return html(res, 404, messagePage("Not found", "Page not found."));
  };
}
