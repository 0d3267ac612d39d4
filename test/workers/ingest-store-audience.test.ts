// Through HTTP with the ingest worker: a one-gender store's uncued products are labelled with the
// store's gender; a mixed store's stay unisex. The catalogues are made here (not fixture text).
import t, { type Test } from 'tap';
import { startTestService } from '../support/service.js';

const product = (id: number, title: string, extra: object = {}) => ({
  id,
  title,
  vendor: 'Maison Test',
  product_type: '',
  tags: [],
  options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
  variants: ['S', 'M', 'L'].map((size, i) => ({ id: id * 10 + i, option1: size, price: '40.00', available: true })),
  ...extra,
});

const setUp = async (t: Test) => {
  const service = await startTestService(t, { workers: ['ingest'] });
  const org = await service.cli(['org', 'create', '--name', 'Audience Test', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Shop', config: { storeUrl: 'https://maison.example' } })).json().datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const genders = async (products: object[]) => {
    const upload = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { products });
    t.equal(upload.statusCode, 202, 'the upload is accepted');
    const until = Date.now() + 60_000;
    for (;;) {
      const { queue } = (await call('GET', `/v1/datasets/${datasetId}/items/queue?limit=200`)).json();
      if (queue.length === 0) break;
      if (Date.now() > until) throw new Error(`queue not drained: ${JSON.stringify(queue)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { items } = (await call('GET', `/v1/datasets/${datasetId}/items?limit=100`)).json();
    return Object.fromEntries(items.map((item: { product: { sku: string }; metadata: { gender: string } }) => [item.product.sku, item.metadata.gender]));
  };
  return { genders };
};

t.test('a womenswear store: its uncued tops, pants and jackets are labelled womens', async (t) => {
  const { genders } = await setUp(t);
  const got = await genders([
    product(1, 'Tiered Maxi Dress'),
    product(2, 'Linen Shirt Dress'),
    product(3, 'Pleated Midi Skirt'),
    product(4, 'Cotton Poplin Blouse'),
    product(5, 'Wide Leg Pant'),
    product(6, 'Boxy Crewneck Sweater'),
    product(7, 'Cropped Linen Jacket'),
    product(8, 'Everyday Tee'),
    product(9, 'Rocky Cap', { tags: ['genderless'] }),
  ]);
  t.same(got, { '1': 'womens', '2': 'womens', '3': 'womens', '4': 'womens', '5': 'womens', '6': 'womens', '7': 'womens', '8': 'womens', '9': 'unisex' });
});

t.test('a mixed store (men and women lines): its uncued products stay unisex', async (t) => {
  const { genders } = await setUp(t);
  const got = await genders([
    product(1, "Men's Oxford Shirt"),
    product(2, "Men's Slim Chino"),
    product(3, "Women's Wrap Dress"),
    product(4, "Women's Linen Blouse"),
    product(5, 'Canvas Backpack'),
    product(6, 'Everyday Tee'),
  ]);
  t.same(got, { '1': 'mens', '2': 'mens', '3': 'womens', '4': 'womens', '5': 'unisex', '6': 'unisex' });
});
