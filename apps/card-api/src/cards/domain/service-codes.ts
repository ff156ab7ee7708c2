/** Card networks; some service codes exist on one of them only. */
export const Network = { VISA: 'VISA', MASTERCARD: 'MASTERCARD' } as const;
export type Network = (typeof Network)[keyof typeof Network];
export const NETWORKS: readonly Network[] = Object.values(Network);

export interface ServiceCodeDefinition {
  serviceCode: string;
  name: { en: string; de: string };
  meaning: { en: string; de: string };
  /** Networks on which the code exists; `null` means every network. */
  networks: readonly Network[] | null;
}

/**
 * The service codes (authorisation types) of the interface specification, in its order. The
 * catalog is fixed by the card networks, not by tenants, so it lives in code, not in a table.
 */
export const SERVICE_CODES: readonly ServiceCodeDefinition[] = [
  {
    serviceCode: '00',
    name: { en: 'POS purchases contact (chip)', de: 'POS-Zahlungen kontaktbehaftet (Chip)' },
    meaning: {
      en: 'Purchase where card data is read from the chip by contact',
      de: 'Zahlung, bei der die Kartendaten kontaktbehaftet vom Chip gelesen werden',
    },
    networks: null,
  },
  {
    serviceCode: '0A',
    name: { en: 'E-commerce purchases', de: 'E-Commerce-Zahlungen' },
    meaning: {
      en: 'Purchase subtype where the point-of-service code does not indicate that the cardholder or the card is present',
      de: 'Zahlungsart, bei der der Point-of-Service-Code weder Karteninhaber noch Karte als anwesend ausweist',
    },
    networks: null,
  },
  {
    serviceCode: '0C',
    name: { en: 'POS purchases card contactless', de: 'POS-Zahlungen kontaktlos' },
    meaning: {
      en: 'Purchase subtype where the point-of-service code indicates PAN auto-entry via contactless',
      de: 'Zahlungsart, bei der der Point-of-Service-Code die kontaktlose Erfassung der PAN ausweist',
    },
    networks: null,
  },
  {
    serviceCode: '0M',
    name: { en: 'Magnetic stripe', de: 'Magnetstreifen' },
    meaning: {
      en: 'Purchase or cash transaction where card data is read from the magnetic stripe',
      de: 'Zahlung oder Bargeldtransaktion, bei der die Kartendaten vom Magnetstreifen gelesen werden',
    },
    networks: null,
  },
  {
    serviceCode: '01',
    name: { en: 'Cash withdrawal', de: 'Bargeldabhebung' },
    meaning: { en: 'Cash withdrawal at an ATM', de: 'Bargeldabhebung an einem Geldautomaten' },
    networks: null,
  },
  {
    serviceCode: '09',
    name: { en: 'Purchases with Cash Back', de: 'Zahlungen mit Cashback' },
    meaning: {
      en: 'Only part of the authorised amount pays for goods or services; the rest is returned to the customer in cash',
      de: 'Nur ein Teil des autorisierten Betrags bezahlt Waren oder Dienstleistungen; der Rest wird bar ausgezahlt',
    },
    networks: null,
  },
  {
    serviceCode: '10',
    name: { en: 'Account funding', de: 'Kontoaufladung (Account Funding)' },
    meaning: {
      en: 'VISA only. A pull payment (Account Funding Transaction); the receiver initiates the transfer from the sender’s account to their own',
      de: 'Nur VISA. Eine Lastschrift (Account Funding Transaction); der Empfänger veranlasst die Übertragung vom Konto des Senders auf sein eigenes',
    },
    networks: ['VISA'],
  },
  {
    serviceCode: '11',
    name: { en: 'Quasi-Cash', de: 'Quasi-Bargeld' },
    meaning: {
      en: 'VISA only. Purchase of items convertible to cash (foreign currency, casino chips, cryptocurrencies, money orders, lottery tickets, travellers cheques and similar)',
      de: 'Nur VISA. Kauf von in Bargeld umwandelbaren Gütern (Devisen, Casino-Chips, Kryptowährungen, Zahlungsanweisungen, Lotterielose, Reiseschecks und Ähnliches)',
    },
    networks: ['VISA'],
  },
  {
    serviceCode: '20',
    name: { en: 'Purchase refund', de: 'Erstattung' },
    meaning: {
      en: 'Credit transaction that reverses a previous purchase',
      de: 'Gutschrift, die eine frühere Zahlung rückgängig macht',
    },
    networks: null,
  },
  {
    serviceCode: '21',
    name: { en: 'Deposit (ATM)', de: 'Einzahlung (Geldautomat)' },
    meaning: {
      en: 'Cash deposit through a specialised automatic cash-in device; typically requires a specific agreement with the processor',
      de: 'Bareinzahlung über einen speziellen Einzahlungsautomaten; erfordert meist eine eigene Vereinbarung mit dem Prozessor',
    },
    networks: null,
  },
  {
    serviceCode: '28',
    name: { en: 'Moneysend payment transactions', de: 'Moneysend-Zahlungen' },
    meaning: {
      en: 'Funds are transferred directly to the recipient’s card account',
      de: 'Geld wird direkt auf das Kartenkonto des Empfängers übertragen',
    },
    networks: null,
  },
  {
    serviceCode: '30',
    name: { en: 'Balance inquiry (ATM)', de: 'Kontostandsabfrage (Geldautomat)' },
    meaning: {
      en: 'Non-financial transaction: the cardholder checks the current account balance at an ATM',
      de: 'Nicht-finanzielle Transaktion: der Karteninhaber fragt den Kontostand am Geldautomaten ab',
    },
    networks: null,
  },
  {
    serviceCode: '39',
    name: { en: 'Statement (ATM)', de: 'Kontoauszug (Geldautomat)' },
    meaning: {
      en: 'Non-financial transaction: the cardholder views a brief summary of recent transactions at an ATM',
      de: 'Nicht-finanzielle Transaktion: der Karteninhaber sieht eine Kurzübersicht der letzten Umsätze am Geldautomaten',
    },
    networks: null,
  },
];

export const SERVICE_CODE_VALUES: readonly string[] = SERVICE_CODES.map((c) => c.serviceCode);
const BY_CODE = new Map(SERVICE_CODES.map((c) => [c.serviceCode, c]));

export function isServiceCode(value: string): boolean {
  return BY_CODE.has(value);
}

export function serviceCodeDefinition(code: string): ServiceCodeDefinition | undefined {
  return BY_CODE.get(code);
}

export function isSupportedByNetwork(code: string, network: Network): boolean {
  const networks = BY_CODE.get(code)?.networks;
  return networks === null || (networks?.includes(network) ?? false);
}

/** Sorts codes in catalog order, so settings, events and history always list them the same way. */
export function inCatalogOrder(codes: Iterable<string>): string[] {
  const set = new Set(codes);
  return SERVICE_CODE_VALUES.filter((c) => set.has(c));
}
