import { InvalidInputError } from '@factledger/domain';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdmissionPolicies, DEFAULT_ADMISSION_POLICY } from './admission-policy';

describe('admission policies', () => {
  it('are the built-in defaults without a file', () => {
    expect(new AdmissionPolicies().for('any')).toEqual(DEFAULT_ADMISSION_POLICY);
  });

  it('merge the file over the defaults, then a tenant over that, field by field', () => {
    const p = new AdmissionPolicies({
      default: { minContentWords: 3, types: { milestone: { minSimilarity: 0.6 }, habit: { importance: 'high', cues: ['every day'], requiredKeywords: ['every day'] } } },
      tenants: { acme: { roleplayGuard: false, types: { gift: null, milestone: { requiredKeywords: ['launched'] } } } },
    });
    const base = p.for('other');
    expect(base.minContentWords).toBe(3);
    expect(base.types.milestone).toEqual({ ...DEFAULT_ADMISSION_POLICY.types.milestone, minSimilarity: 0.6 });
    expect(base.types.habit).toMatchObject({ importance: 'high', cues: ['every day'], examples: [], minSimilarity: null, onFail: 'retype' });
    const acme = p.for('acme');
    expect(acme.roleplayGuard).toBe(false);
    expect(acme.types.gift).toBeUndefined();
    expect(acme.types.milestone).toMatchObject({ minSimilarity: 0.6, requiredKeywords: ['launched'] });
    expect(base.roleplayGuard).toBe(true);
  });

  it('refuse a file that is not a policy, naming the field', () => {
    expect(() => new AdmissionPolicies({ default: { chitchat: { maxWords: -1 } } })).toThrow(/admissionPolicy.default.chitchat.maxWords/);
    expect(() => new AdmissionPolicies({ tenants: { t: { types: { milestone: { onFail: 'drop' } } } } })).toThrow(InvalidInputError);
    expect(() => new AdmissionPolicies({ extra: 1 })).toThrow(InvalidInputError);
    const dir = mkdtempSync(join(tmpdir(), 'fl-policy-'));
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    expect(() => AdmissionPolicies.fromFile(join(dir, 'bad.json'))).toThrow(/cannot read/);
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ default: { maxHighImportanceLabels: 2 } }));
    expect(AdmissionPolicies.fromFile(join(dir, 'ok.json')).for('t').maxHighImportanceLabels).toBe(2);
  });
});

describe('the example policy file shipped in config/', () => {
  it('is a valid policy file', () => {
    const p = AdmissionPolicies.fromFile(join(__dirname, '..', '..', '..', '..', 'config', 'admission-policy.example.json'));
    expect(p.for('companion-app').types.milestone!.onFail).toBe('reject');
    expect(p.for('companion-app').types.gift).toBeUndefined();
    expect(p.for('anyone').types.habit!.importance).toBe('high');
  });
});
