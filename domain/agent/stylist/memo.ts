// A bounded memo for pure readings the turn repeats at every step (the same tool results parsed,
// the same messages read): same input, same answer, so it changes nothing but time. The answers
// it hands out are shared and never mutated by their readers.
export function memoised<V>(read: (key: string) => V, limit = 400): (key: string) => V {
  const memo = new Map<string, V>();
  return (key: string) => {
    let found = memo.get(key);
    if (found === undefined && !memo.has(key)) {
      found = read(key);
      if (memo.size >= limit) memo.delete(memo.keys().next().value!);
      memo.set(key, found);
    }
    return found as V;
  };
}
