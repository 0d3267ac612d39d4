// The currencies a shopper event's `value` may be in: the ISO 4217 codes of money a shop can be
// paid in (List One, 2025), with the codes being replaced that shops may still quote during their
// transition (ANG beside XCG, SLL beside SLE, ZWL beside ZWG, VES beside VED). Fund codes (BOV,
// CHE, CHW, CLF, COU, MXV, USN, UYI, UYW), precious metals, bond units, SDRs, the test code XTS
// and XXX (no currency) are not money a purchase is paid in.
//
// A fixed list, not `Intl.supportedValuesOf('currency')`: that list is whatever ICU the Node build
// carries (Node 20 builds differ: some lack XCG and ZWG, all still name HRK and CUC, withdrawn,
// and list XDR and XSU), and this one decides what an event may record and how a stored event is
// counted on replay, which must not change with the runtime.
const CODES =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD ' +
  'GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT ' +
  'LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR ' +
  'NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD ' +
  'SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF ' +
  'XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL';

export const ISO_CURRENCIES: ReadonlySet<string> = new Set(CODES.split(' '));

/** Whether `code` (upper case) is a currency a shopper can pay in. */
export const isIsoCurrency = (code: string): boolean => ISO_CURRENCIES.has(code);
