import { InvalidInputError } from '@factledger/domain';
import { parseRecallTuning } from './recall-tuning';

describe('recall tuning (FACTLEDGER_RECALL)', () => {
  it('takes a JSON object of optional fields, and nothing for nothing', () => {
    expect(parseRecallTuning(undefined)).toEqual({});
    expect(parseRecallTuning('')).toEqual({});
    expect(parseRecallTuning('{"weights":{"lexical":0.7},"lexical":{"b":0.4},"render":{"sources":"always"}}')).toEqual({
      weights: { lexical: 0.7 },
      lexical: { b: 0.4 },
      render: { sources: 'always' },
    });
  });

  it('names the field that is wrong, and refuses what is not JSON or not known', () => {
    const error = (value: string): InvalidInputError => {
      try {
        parseRecallTuning(value);
      } catch (e) {
        return e as InvalidInputError;
      }
      throw new Error(`accepted ${value}`);
    };
    expect(error('{"weights":{"lexical":2}}')).toBeInstanceOf(InvalidInputError);
    expect(error('{"weights":{"lexical":2}}').message).toContain('config.recall.weights.lexical');
    expect(error('{"lexical":{"scan":0}}').message).toContain('config.recall.lexical.scan');
    expect(error('{"wieghts":{}}').message).toContain('config.recall');
    expect(error('not json').message).toContain('must be a JSON object');
  });
});
