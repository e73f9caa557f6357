import { decodeTime, isValid } from 'ulid';
import { randomHex, ulid, ulidToUUID } from './index';

describe('identifiers', () => {
  it('when ULIDs are made, then each is valid, carries its time and differs from every other', () => {
    const at = Date.UTC(2026, 11, 1, 12, 0, 0);

    const ids = Array.from({ length: 10_000 }, () => ulid(at));

    expect(ids.every((id) => isValid(id) && decodeTime(id) === at)).toBe(true);
    expect(new Set(ids).size).toBe(10_000);
    expect(new Set(ids.map((id) => id.slice(10))).size).toBe(10_000);
  });

  it('when a ULID is made without a time, then it carries the present', () => {
    const before = Date.now();

    const id = ulid();

    expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
    expect(decodeTime(id)).toBeLessThanOrEqual(Date.now());
  });

  it('when the random part of many ULIDs is counted, then every one of the 32 characters stands in every place', () => {
    const places = Array.from({ length: 16 }, () => new Set<string>());

    for (let i = 0; i < 5_000; i += 1) [...ulid().slice(10)].forEach((character, place) => places[place]!.add(character));

    expect(places.map((characters) => characters.size)).toEqual(Array(16).fill(32));
  });

  it('when random hex is drawn past the pool, then every draw has its length and the draws differ', () => {
    const draws = Array.from({ length: 1_000 }, () => randomHex(16));

    expect(draws.every((hex) => /^[0-9a-f]{32}$/.test(hex))).toBe(true);
    expect(new Set(draws).size).toBe(1_000);
  });

  it('when a ULID is given as a UUID, then it is the same 128 bits', () => {
    expect(ulidToUUID('01ARYZ6S41TSV4RRFFQ69G5FAV')).toBe('01563DF3-6481-D676-4C61-EFB99302BD5B');
  });
});
