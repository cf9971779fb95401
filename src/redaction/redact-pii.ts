import { isIPv6 } from 'node:net';
import { findPhoneNumbersInText } from 'libphonenumber-js/max';

/** What each kind of identifier becomes. */
export const REDACTED = { email: '[email]', phone: '[phone]', card: '[card]', iban: '[iban]', ip: '[ip]' } as const;

const EMAIL = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+/g;
/** Two letters, two check digits, then 11 to 30 letters and digits, in groups or not. */
const IBAN = /\b[A-Za-z]{2}\d{2}(?:[ ]?[A-Za-z0-9]){11,30}\b/g;
/** 13 to 19 digits, in groups separated by single spaces or hyphens. */
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
const IPV4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\d|\.\d)/g;
/** Candidates only: isIPv6 decides (so times such as 10:30:45 stay). */
const IPV6 = /(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?(?![\w:])/g;
/** A national number: 9 to 15 digits in groups (area code in brackets or not), e.g. 020 7946 0958, (415) 555-2671. */
const NATIONAL_PHONE = /(?<![\w+])\(?\d{2,5}\)?(?:[ .-]?\d{2,5}){1,5}(?![\w])/g;

function digits(text: string): string {
  return text.replace(/\D/g, '');
}

/** The Luhn checksum of a card number holds. */
export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return number.length > 0 && sum % 10 === 0;
}

/** ISO 13616: the country and check digits moved to the end, letters as numbers, modulo 97 is 1. */
export function ibanValid(candidate: string): boolean {
  const iban = candidate.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const value = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of value) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/**
 * An IBAN-shaped match may run on into the next words ("... 7654 32 please"): the longest run of its
 * groups from the start whose checksum holds is the IBAN; the rest stays.
 */
function ibanOf(match: string): string {
  const groups = match.split(' ');
  for (let k = groups.length; k >= 1; k--) {
    const head = groups.slice(0, k).join(' ');
    if (ibanValid(head)) return REDACTED.iban + (k < groups.length ? ' ' + groups.slice(k).join(' ') : '');
  }
  return match;
}

/**
 * The text with e-mail addresses, IBANs (checksum valid), payment card numbers (13-19 digits,
 * Luhn-valid), IP addresses (v4, and v6 as Node's isIPv6 accepts them) and phone numbers (international
 * ones as libphonenumber-js finds them, national ones by their shape) replaced by [email], [iban],
 * [card], [ip] and [phone]. In that order: an address or an account number is never read as a phone.
 */
export function redactPII(text: string): string {
  let out = text.replace(EMAIL, REDACTED.email);
  out = out.replace(IBAN, ibanOf);
  out = out.replace(CARD, (m) => (luhnValid(digits(m)) ? REDACTED.card : m));
  // v6 first: an IPv4-mapped v6 address holds a v4 one.
  out = out.replace(IPV6, (m) => (isIPv6(m) ? REDACTED.ip : m));
  out = out.replace(IPV4, REDACTED.ip);
  // International numbers (+ and a country code), found and checked with Google's metadata.
  const found = findPhoneNumbersInText(out);
  for (const match of [...found].reverse()) out = out.slice(0, match.startsAt) + REDACTED.phone + out.slice(match.endsAt);
  out = out.replace(NATIONAL_PHONE, (m) => {
    const n = digits(m).length;
    // Nine digits at least: dates (8), years and amounts stay; a plain run of digits needs 10 to be a number someone dials.
    return n >= 9 && n <= 15 && (/[ ().-]/.test(m) ? true : n >= 10) ? REDACTED.phone : m;
  });
  return out;
}
