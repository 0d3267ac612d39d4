// Hand check of the offline labeller on real storefront feeds: prints one line per product
// (title | product type | options → slot/family/gender/age/colour/pattern/material/fit) for
// reading by eye. The feeds are fixtures outside the repo (../shared/fixtures/shopify) and have no
// ground truth; nothing is written. At the end, a rough estimate: where the merchant's product type
// names a family on its own, how often the labeller finds the same slot and family without it.
//   node --import tsx bench/labelling-shopify-check.ts [file-name-filter]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listingFromShopifyProduct, shopifyProductSchema } from '../domain/catalogue/product-input.js';
import { labelListing } from '../infra/models/offline-labeller.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(repoRoot, '../shared/fixtures/shopify');
if (!existsSync(dir)) {
  console.log(`no feeds at ${dir}`);
  process.exit(0);
}
const filter = process.argv[2] ?? '';
const agreement = { compared: 0, slot: 0, family: 0 };
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && f.includes(filter))) {
  const body = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const products: unknown[] = Array.isArray(body) ? body : (body.products ?? []);
  console.log(`\n## ${file} (${products.length} products)`);
  for (const raw of products) {
    const parsed = shopifyProductSchema.safeParse(raw);
    if (!parsed.success) continue;
    const listing = listingFromShopifyProduct(parsed.data, 'https://store.example');
    const l = labelListing({ listing, photos: [], targetGender: null });
    const byType = labelListing({ listing: { ...listing, name: listing.productType, tags: [], options: [], description: '' }, photos: [], targetGender: null });
    if (listing.productType && byType.family !== 'other' && !['shoe', 'bag', 'top', 'accessory'].includes(byType.family)) {
      const blind = labelListing({ listing: { ...listing, productType: '' }, photos: [], targetGender: null });
      agreement.compared++;
      if (blind.slot === byType.slot) agreement.slot++;
      if (blind.slot === byType.slot && blind.family === byType.family) agreement.family++;
    }
    const options = listing.options.map((o) => `${o.name}:${o.values.slice(0, 3).join('/')}`).join(' ');
    console.log(
      `${listing.name.slice(0, 60)} | ${listing.productType} | ${options.slice(0, 50)}\n    → ${l.slot}/${l.family} ${l.gender} ${l.age_group} ${l.color_family} [${l.colors.slice(0, 4).join(', ')}] ${l.pattern} [${l.material.join(', ')}] ${l.fit ?? '-'}`,
    );
  }
}
const pct = (n: number) => `${((n / Math.max(1, agreement.compared)) * 100).toFixed(1)}%`;
console.log(`\nproducts whose type names a family: ${agreement.compared}; labelled without the type, same slot ${pct(agreement.slot)}, same family ${pct(agreement.family)}`);
