// How listing text becomes words the taxonomy can match: lower case, accents and apostrophes
// dropped ("Men's" → "mens", "Café" → "cafe"), every other non-letter a space. Pure.

/** Lower-cased words of `text`: letters and digits only, `t-shirt` → `t shirt`, `men's` → `mens`. */
export function words(text: string): string[] {
  return normalise(text).split(' ').filter(Boolean);
}

export function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’`´]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** `phrase` and its plural forms (last word only): `dress` → `dresses`, `hoody` → `hoodies`. */
export function withPlurals(phrase: string): string[] {
  const parts = phrase.split(' ');
  const last = parts.pop() ?? '';
  const head = parts.length ? `${parts.join(' ')} ` : '';
  const forms = new Set([last]);
  if (/(s|x|z|ch|sh)$/.test(last)) forms.add(`${last}es`);
  else if (/[^aeiou]y$/.test(last)) forms.add(`${last.slice(0, -1)}ies`);
  else if (/[a-z]$/.test(last) && last.length > 1) forms.add(`${last}s`);
  if (/(s|x|z|ch|sh)$/.test(last) && !last.endsWith('ss')) forms.add(last);
  return [...forms].map((form) => head + form);
}
