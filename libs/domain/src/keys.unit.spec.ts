import { factStreamId, normalizeTerm, proseStreamId, sameValue, scopeKey } from './keys';

const key = (subject: string, relation = 'runs on host', scope: Record<string, string> = {}) => ({ subject, relation, scope });
const stream = (subject: string, relation?: string, scope?: Record<string, string>) => factStreamId(key(subject, relation, scope));

describe('fact keys normalise spelling noise into one stream', () => {
  it('ignores case', () => {
    expect(stream('Billing Database', 'Runs On Host')).toBe(stream('billing database', 'runs on host'));
  });

  it('trims and collapses whitespace runs (spaces, tabs, newlines, NBSP)', () => {
    expect(stream('  billing \t\n database ', 'runs\u00a0on   host')).toBe(stream('billing database', 'runs on host'));
  });

  it('treats composed and decomposed Unicode (NFC vs NFD) as the same key', () => {
    const composed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    expect(composed).not.toBe(decomposed);
    expect(stream(composed)).toBe(stream(decomposed));
    expect(stream('CAF\u00c9')).toBe(stream(decomposed));
  });

  it('normalises Korean text, including decomposed Hangul jamo and whitespace', () => {
    const nfc = '결제 데이터베이스';
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    expect(stream(nfd, '호스트')).toBe(stream(nfc, '호스트'));
    expect(stream(`  결제   데이터베이스 `, '호스트')).toBe(stream(nfc, '호스트'));
    expect(stream('결제 데이터베이스', '호스트')).not.toBe(stream('결제데이터베이스', '호스트'));
  });

  it('is independent of scope key order, and of case/spacing in scope keys and values', () => {
    expect(stream('api gateway', 'port', { env: 'a', region: 'b' })).toBe(stream('api gateway', 'port', { region: 'b', env: 'a' }));
    expect(stream('api gateway', 'port', { Env: ' Staging ' })).toBe(stream('api gateway', 'port', { env: 'staging' }));
    expect(scopeKey({ region: 'EU', env: 'staging' })).toBe('env=staging;region=eu');
  });

  it('treats an absent scope and an empty scope as the same key', () => {
    expect(factStreamId({ subject: 'x', relation: 'y', scope: undefined as unknown as Record<string, string> })).toBe(stream('x', 'y', {}));
  });

  it('keeps different scopes in different streams', () => {
    const staging = stream('api gateway', 'port', { env: 'staging' });
    expect(stream('api gateway', 'port', { env: 'production' })).not.toBe(staging);
    expect(stream('api gateway', 'port', {})).not.toBe(staging);
    expect(stream('api gateway', 'port', { env: 'staging', region: 'eu' })).not.toBe(staging);
  });

  it('keeps different subjects and relations in different streams', () => {
    expect(stream('billing database')).not.toBe(stream('search database'));
    expect(stream('billing database', 'runs on host')).not.toBe(stream('billing database', 'runs on port'));
  });

  it('does not let a separator inside a term collide with the next term', () => {
    expect(factStreamId(key('a b', 'c'))).not.toBe(factStreamId(key('a', 'b c')));
  });
});

describe('prose stream ids', () => {
  it('are the same for case and whitespace variants of the same text', () => {
    const id = proseStreamId('I finally got the job offer from the Seoul office!');
    expect(proseStreamId('  i finally   got the JOB offer\nfrom the Seoul office! ')).toBe(id);
    expect(id).toMatch(/^prose-[0-9a-f]{32}$/);
  });

  it('are the same for NFC and NFD variants of the same text', () => {
    expect(proseStreamId('Résumé sent')).toBe(proseStreamId('Résumé sent'.normalize('NFD')));
  });

  it('differ for different text', () => {
    expect(proseStreamId('I got the job offer.')).not.toBe(proseStreamId('I did not get the job offer.'));
  });

  it('never collide with fact stream ids', () => {
    expect(stream('x')).toMatch(/^fact-/);
  });
});

describe('values', () => {
  it('compare after normalisation', () => {
    expect(sameValue('Port 8080 ', 'port  8080')).toBe(true);
    expect(sameValue('port 8080', 'port 8000')).toBe(false);
    expect(normalizeTerm('  E\u0301TÉ  ')).toBe('été');
  });
});
