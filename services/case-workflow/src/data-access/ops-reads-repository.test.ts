import { distinctivePart } from './ops-reads-repository';

describe('the part of the search words the trigram indexes look up', () => {
  it.each([
    ['FC-2026-000123', '0123'],
    ['FC-S-000004242', '04242'],
    ['Q-2026-004242', '04242'],
    ['4242', '4242'],
    ['Müller 4242ü', '4242'],
  ])('when the words are %s, then the longest digit run with at most one leading zero, %s', (query, part) => {
    expect(distinctivePart(query)).toBe(part);
  });

  it.each([
    ['Company 1234 GmbH', '1234 '],
    ['FC-2026-123456-A', '123456-'],
    ['Q-00042424-', '042424-'],
  ])('when the digit run of %s ends its word before the words go on, then the run and that end, %s', (query, part) => {
    expect(distinctivePart(query)).toBe(part);
  });

  it.each(['Mustermann GmbH', 'FC-12', '000', 'Q-2026-000007'])('when %s has no run of three digits beyond leading zeros, then the whole words', (query) => {
    expect(distinctivePart(query)).toBe(query);
  });
});
