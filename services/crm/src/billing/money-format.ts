// Money for people (emails, sentences): "USD 1,234.50". Amounts stay integers in the currency's
// minor unit ("cents") everywhere else; only here are they divided, by the currency's own number
// of decimals (two for USD, none for JPY).
export function formatMoney(cents: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code' });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(cents / 10 ** digits);
  } catch {
    return `${cents} ${currency} minor units`;
  }
}
