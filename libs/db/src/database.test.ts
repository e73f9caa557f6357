import { Client } from 'pg';
import { inlineValues } from './database';

const escapeLiteral = (value: string) => new Client().escapeLiteral(value);

describe('inlineValues', () => {
  it('when a statement has positional parameters, then each becomes the literal of its value, $10 included', () => {
    const values = ['a', 2, null, 4, 5, 6, 7, 8, 9, 'ten'];
    expect(inlineValues('SELECT $1, $2, $3, $10, $1', values, escapeLiteral)).toBe("SELECT 'a', 2, NULL, 'ten', 'a'");
  });

  it('when strings carry quotes and backslashes, then they are escaped so the literal holds them exactly', () => {
    expect(inlineValues('SELECT $1', ["it's \\ x"], escapeLiteral)).toBe("SELECT  E'it''s \\\\ x'");
  });

  it('when a value is an array of strings, then it becomes a Postgres array literal with its elements quoted', () => {
    expect(inlineValues('SELECT CAST($1 AS text[]), CAST($2 AS text[])', [['01A', 'b"c'], []], escapeLiteral)).toBe(
      `SELECT CAST( E'{"01A","b\\\\"c"}' AS text[]), CAST('{}' AS text[])`,
    );
  });

  it('when a value has no literal form (object, undefined, NaN), then it is refused', () => {
    expect(() => inlineValues('SELECT $1', [{ a: 1 }], escapeLiteral)).toThrow('no SQL literal for object');
    expect(() => inlineValues('SELECT $2', [1], escapeLiteral)).toThrow('no SQL literal for undefined');
    expect(() => inlineValues('SELECT $1', [Number.NaN], escapeLiteral)).toThrow('no SQL literal for number');
  });
});
