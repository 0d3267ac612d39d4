// Which addresses a merchant's URL may lead to: every special-purpose range, in IPv4 and IPv6
// forms, and the spellings a URL can hide them in (decimal, hex, octal, short, mapped, trailing dot).
import t, { type Test } from 'tap';
import { classifyAddress, classifyHost, isFetchable, type AddressClass } from '../../infra/http/address-policy.js';

const expect = (t: Test, cases: Record<string, AddressClass>, classify: (text: string) => AddressClass | null = classifyAddress) => {
  for (const [text, kind] of Object.entries(cases)) t.equal(classify(text), kind, text);
};

t.test('IPv4 special-purpose ranges, first and last address of each', async (t) => {
  expect(t, {
    '0.0.0.0': 'unspecified',
    '0.255.255.255': 'unspecified',
    '10.0.0.0': 'private',
    '10.255.255.255': 'private',
    '100.64.0.0': 'private',
    '100.127.255.255': 'private',
    '127.0.0.1': 'loopback',
    '127.255.255.254': 'loopback',
    '169.254.0.1': 'link-local',
    '169.254.169.254': 'link-local',
    '172.16.0.0': 'private',
    '172.31.255.255': 'private',
    '192.0.0.1': 'reserved',
    '192.0.2.10': 'documentation',
    '192.88.99.1': 'reserved',
    '192.168.0.1': 'private',
    '192.168.255.255': 'private',
    '198.18.0.1': 'reserved',
    '198.19.255.255': 'reserved',
    '198.51.100.7': 'documentation',
    '203.0.113.200': 'documentation',
    '224.0.0.1': 'multicast',
    '239.255.255.250': 'multicast',
    '240.0.0.1': 'reserved',
    '255.255.255.254': 'reserved',
    '255.255.255.255': 'broadcast',
  });
});

t.test('IPv4 neighbours of the ranges are public', async (t) => {
  expect(t, {
    '1.1.1.1': 'public',
    '9.255.255.255': 'public',
    '11.0.0.0': 'public',
    '100.63.255.255': 'public',
    '100.128.0.0': 'public',
    '126.255.255.255': 'public',
    '128.0.0.0': 'public',
    '169.253.255.255': 'public',
    '169.255.0.0': 'public',
    '172.15.255.255': 'public',
    '172.32.0.0': 'public',
    '192.167.255.255': 'public',
    '192.169.0.0': 'public',
    '198.17.255.255': 'public',
    '198.20.0.0': 'public',
    '223.255.255.255': 'public',
    '93.184.216.34': 'public',
  });
});

t.test('IPv6 special-purpose ranges', async (t) => {
  expect(t, {
    '::': 'unspecified',
    '::1': 'loopback',
    '0:0:0:0:0:0:0:1': 'loopback',
    'fc00::1': 'private',
    'fdff:ffff::1': 'private',
    'fe80::1': 'link-local',
    'fe80::1%eth0': 'link-local',
    'febf::1': 'link-local',
    'fec0::1': 'private',
    'ff02::1': 'multicast',
    'ff0e::1': 'multicast',
    '2001:db8::1': 'documentation',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2': 'reserved',
    '100::1': 'reserved',
    '::2': 'unspecified', // IPv4-compatible 0.0.0.2
    '4000::1': 'reserved',
    '2606:4700:4700::1111': 'public',
    '2a00:1450:4001:80b::200e': 'public',
  });
});

t.test('IPv4 carried in IPv6: mapped, compatible, NAT64 and 6to4 take the embedded address into account', async (t) => {
  expect(t, {
    '::ffff:127.0.0.1': 'loopback',
    '::ffff:7f00:1': 'loopback',
    '::ffff:a9fe:a9fe': 'link-local',
    '::ffff:169.254.169.254': 'link-local',
    '::ffff:10.1.2.3': 'private',
    '0:0:0:0:0:ffff:c0a8:0101': 'private',
    '::ffff:0.0.0.0': 'unspecified',
    // A mapped public address is still not how a store is published.
    '::ffff:93.184.216.34': 'ipv4-mapped',
    '::127.0.0.1': 'loopback',
    '::7f00:1': 'loopback',
    '::10.0.0.1': 'private',
    '::93.184.216.34': 'reserved',
    '64:ff9b::127.0.0.1': 'loopback',
    '64:ff9b::a9fe:a9fe': 'link-local',
    '64:ff9b::10.0.0.1': 'private',
    '64:ff9b::93.184.216.34': 'public',
    '64:ff9b:1::1': 'private',
    '2002:7f00:1::1': 'loopback',
    '2002:a9fe:a9fe::': 'link-local',
    '2002:c0a8:0101::1': 'private',
    '2002:5db8:d822::1': 'public',
  });
});

t.test('odd spellings of a host are classified as what the URL parser makes of them', async (t) => {
  const host = (url: string) => classifyHost(new URL(url).hostname);
  expect(t, {
    'http://2130706433/': 'loopback',
    'http://0x7f000001/': 'loopback',
    'http://0x7f.1/': 'loopback',
    'http://0177.0.0.1/': 'loopback',
    'http://127.1/': 'loopback',
    'http://127.0.0.1./': 'loopback',
    'http://0/': 'unspecified',
    'http://[::ffff:127.0.0.1]/': 'loopback',
    'http://[::1]/': 'loopback',
    'http://[0:0:0:0:0:0:0:1]/': 'loopback',
    'http://169.254.169.254/latest/meta-data/': 'link-local',
    'http://2852039166/': 'link-local',
    'http://[fd00::1]:8080/': 'private',
    'http://localhost/': 'loopback',
    'http://LOCALHOST./': 'loopback',
    'http://admin.localhost:3001/': 'loopback',
    'http://a.b.localhost./': 'loopback',
    'https://93.184.216.34/': 'public',
  }, host);
  t.equal(host('https://shop.example/products.json'), null, 'a name is left to the lookup');
  t.equal(host('https://localhost.shop.example/'), null, 'localhost only as the last label');
  t.equal(host('https://mylocalhost/'), null);
});

t.test('only public addresses are fetchable by default; OUTBOUND_ALLOW_PRIVATE opens loopback, private and link-local, nothing else', async (t) => {
  const kinds: AddressClass[] = ['public', 'loopback', 'private', 'link-local', 'unspecified', 'multicast', 'broadcast', 'documentation', 'reserved', 'ipv4-mapped'];
  t.same(kinds.filter((kind) => isFetchable(kind, false)), ['public']);
  t.same(kinds.filter((kind) => isFetchable(kind, true)), ['public', 'loopback', 'private', 'link-local']);
});

t.test('a name or garbage is not an address', async (t) => {
  t.throws(() => classifyAddress('shop.example'), TypeError);
  t.throws(() => classifyAddress('127.0.0.1.'), TypeError);
  t.throws(() => classifyAddress(''), TypeError);
});
