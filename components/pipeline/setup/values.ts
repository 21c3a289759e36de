/**
 * What the editors' inputs mean: euros and percentages as people type them ("1500", "12,5"), turned into
 * the API's cents and basis points, and back. Null means the text is not a number.
 */
const NUMBER = /^\d+(?:[.,]\d{1,2})?$/;

function hundredths(text: string): number | null {
  const clean = text.replace(/\s/g, '');
  return NUMBER.test(clean) ? Math.round(Number(clean.replace(',', '.')) * 100) : null;
}

/** "1500" or "1500,50" euros → cents. */
export const centsOf = hundredths;
/** "12,5" percent → 1250 basis points. */
export const basisPointsOf = hundredths;
/** Cents or basis points back to what a person types (no thousands separators, the locale's decimal comma). */
export const typed = (hundredthsValue: number, locale: string) => {
  const text = hundredthsValue % 100 === 0 ? String(hundredthsValue / 100) : (hundredthsValue / 100).toFixed(2);
  return locale === 'it' ? text.replace('.', ',') : text;
};
