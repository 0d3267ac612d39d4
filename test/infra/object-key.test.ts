import t from 'tap';
import { InvalidObjectKey, validateObjectKey } from '../../infra/objects/port.js';

t.test('object keys that stay inside the store are accepted', async (t) => {
  for (const key of ['images/4f1c.jpeg', 'uploads/org-1/file_2.png', 'a']) t.equal(validateObjectKey(key), key);
});

t.test('keys that could escape the store or are malformed are refused', async (t) => {
  for (const key of ['', '/etc/passwd', '../secret', 'images/../../x', 'images//x', 'a/./b', 'a\\b', 'ü.jpeg', 'x'.repeat(1025)]) {
    t.throws(() => validateObjectKey(key), InvalidObjectKey, JSON.stringify(key).slice(0, 40));
  }
});
