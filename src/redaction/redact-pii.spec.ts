import { ibanValid, luhnValid, redactPII } from './redact-pii';

describe(redactPII.name, () => {
  it.each([
    ['write to ada.lovelace+notes@example.co.uk today', 'write to [email] today'],
    ['ADA@EXAMPLE.COM', '[email]'],
    ['mail me: o\'brien@mail.example.org.', 'mail me: [email].'],
  ])('redacts e-mail addresses: %s', (text, expected) => {
    expect(redactPII(text)).toBe(expected);
  });

  it.each([
    ['call +44 20 7946 0958 after five', 'call [phone] after five'],
    ['mobile +1 (415) 555-2671', 'mobile [phone]'],
    ['+33 6 12 34 56 78', '[phone]'],
    ['+49 30 901820', '[phone]'],
    ['+81 3-1234-5678 (Tokyo)', '[phone] (Tokyo)'],
    ['+91 98765 43210', '[phone]'],
    ['my number is 020 7946 0958', 'my number is [phone]'],
    ['(415) 555-2671 is the desk', '[phone] is the desk'],
    ['ring 06 12 34 56 78', 'ring [phone]'],
    ['text 4155552671', 'text [phone]'],
  ])('redacts phone numbers in international and national formats: %s', (text, expected) => {
    expect(redactPII(text)).toBe(expected);
  });

  it.each([
    ['card 4111 1111 1111 1111 expired', 'card [card] expired'],
    ['4111-1111-1111-1111', '[card]'],
    ['5555555555554444', '[card]'],
    ['amex 3782 822463 10005', 'amex [card]'],
  ])('redacts Luhn-valid card numbers: %s', (text, expected) => {
    expect(redactPII(text)).toBe(expected);
  });

  it('leaves a card-length number that fails the Luhn check as a card (it may still read as a phone when it has a phone\'s length)', () => {
    expect(redactPII('order 4111 1111 1111 1112 shipped')).not.toContain('[card]');
    expect(redactPII('ticket 1234567812345678901')).toBe('ticket 1234567812345678901');
  });

  it.each([
    ['pay to GB82 WEST 1234 5698 7654 32 please', 'pay to [iban] please'],
    ['DE89370400440532013000', '[iban]'],
    ['fr1420041010050500013m02606', '[iban]'],
  ])('redacts IBANs with a valid checksum: %s', (text, expected) => {
    expect(redactPII(text)).toBe(expected);
  });

  it('leaves an IBAN-shaped text whose checksum fails', () => {
    expect(redactPII('GB82 WEST 1234 5698 7654 33')).not.toContain('[iban]');
  });

  it.each([
    ['server 192.168.0.12 was down', 'server [ip] was down'],
    ['from 8.8.8.8.', 'from [ip].'],
    ['v6 2001:db8::8a2e:370:7334 too', 'v6 [ip] too'],
    ['loopback ::1 and fe80::1', 'loopback [ip] and [ip]'],
    ['mapped ::ffff:192.0.2.128', 'mapped [ip]'],
  ])('redacts IPv4 and IPv6 addresses: %s', (text, expected) => {
    expect(redactPII(text)).toBe(expected);
  });

  it.each([
    'We met at 10:30:45 on 2026-11-24 and spent $1,250.00 on 3 licences.',
    'Version 1.2.3 shipped in 2024; 256.1.1.1 is no address.',
    'I rate it 9 out of 10, about 12 hours a week.',
    'The order number was 12345678.',
  ])('leaves ordinary text, times, dates, versions and amounts as they are: %s', (text) => {
    expect(redactPII(text)).toBe(text);
  });

  it('redacts every kind in one answer', () => {
    expect(redactPII('Reach me at ada@example.com or +44 20 7946 0958; card 4111 1111 1111 1111; IBAN DE89 3704 0044 0532 0130 00; from 10.0.0.7')).toBe(
      'Reach me at [email] or [phone]; card [card]; IBAN [iban]; from [ip]',
    );
  });
});

describe(luhnValid.name, () => {
  it('checks the Luhn sum', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });
});

describe(ibanValid.name, () => {
  it('checks ISO 13616 mod 97', () => {
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
  });
});
