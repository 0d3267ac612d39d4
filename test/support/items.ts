// Items a test uploads (document 3's ItemInput), written the short way: a product with sized
// variants, in stock or not, reduced or not.
export type TestVariant = { sku: string; label: string; options: Array<{ name: string; value: string }>; inStock: boolean; quantity: number | null; price: number; compareAtPrice?: number | null };

export const variant = (sku: string, size: string, price: number, inStock = true, compareAtPrice: number | null = null): TestVariant => ({
  sku,
  label: size,
  options: [{ name: 'Size', value: size }],
  inStock,
  quantity: inStock ? 3 : 0,
  price,
  compareAtPrice,
});

export const product = (sku: string, name: string, productType: string, price: number, variants: TestVariant[], extra: object = {}) => ({ sku, name, productType, price, brand: 'Acme', description: '', variants, ...extra });
