// The words of the messages crm sends customers. Plain text: a deployment's mailer may wrap them.
import { formatMoney } from '../billing/money-format.ts';

export const CLIENT_PROPOSAL_PATH = '/client/v1/proposal';
export const CLIENT_INVOICE_PATH = '/client/v1/invoice';

/** The token rides in the query, never the path: request logs record the path only. */
export const linkPathOf = (base: string, token: string): string =>
  `${base}?token=${encodeURIComponent(token)}`;

export function proposalMail(p: {
  title: string;
  totalCents: number;
  currency: string;
  validUntil: string;
  note?: string;
}) {
  return {
    subject: `Proposal: ${p.title}`,
    text: [
      p.note,
      `Your proposal "${p.title}" for ${formatMoney(p.totalCents, p.currency)} is ready.`,
      `Open the link below to read it, then sign or decline it. It is valid until ${p.validUntil}.`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

export function invoiceMail(i: {
  number: string;
  title: string;
  totalCents: number;
  currency: string;
  dueDate?: string;
  note?: string;
}) {
  return {
    subject: `Invoice ${i.number}: ${i.title}`,
    text: [
      i.note,
      `Invoice ${i.number} for ${formatMoney(i.totalCents, i.currency)}${i.dueDate ? `, due ${i.dueDate}` : ''}.`,
      'Open the link below to see it and how to pay.',
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

export function bookingConfirmedMail(b: { start: string; end: string }) {
  return { subject: 'Your visit is confirmed', text: `Your visit from ${b.start} to ${b.end} is confirmed.` };
}

export function bookingDeclinedMail(b: { start: string; end: string; reason: string }) {
  return {
    subject: 'About your requested visit',
    text: `We cannot take the visit you asked for from ${b.start} to ${b.end}.\n\n${b.reason}`,
  };
}
