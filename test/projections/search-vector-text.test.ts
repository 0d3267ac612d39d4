// What the vector leg looks for: the shopper's words, and when they are only occasion words, what
// suits the occasion too (a hashed or learned embedding of "athleisure" alone lands anywhere).
import t from 'tap';
import { understandQuery } from '../../domain/search/index.js';
import { vectorText } from '../../projections/queries/search/retrieve.js';

t.test('given only occasion words, then the vector looks for what suits the occasion too', async (t) => {
  const text = vectorText('athleisure', understandQuery('athleisure'));
  t.match(text, /^athleisure /);
  t.match(text, /leggings/);
  t.match(text, /joggers/);
});

t.test('given words of their own to search, then the vector looks for the words as typed', async (t) => {
  t.equal(vectorText('linen dress for a beach holiday', understandQuery('linen dress for a beach holiday')), 'linen dress for a beach holiday');
  t.equal(vectorText('red dress', understandQuery('red dress')), 'red dress');
  t.equal(vectorText('Bronze Ace', understandQuery('Bronze Ace')), 'Bronze Ace', 'no occasion, nothing added');
});
