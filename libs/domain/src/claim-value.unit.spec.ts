import { claimValue, type StatingMemory, statesClaimValue } from './claim-value';

const prose = (text: string): StatingMemory => ({ value: null, text });
const fact = (subject: string, relation: string, value: string, text = `${subject} ${relation} ${value}`): StatingMemory => ({ subject, relation, value, text });

describe('claimValue: what a claim asserts beyond its subject', () => {
  it('is the typed values of the predicate, not the words of the subject', () => {
    expect(claimValue('The payment port is 9999')).toMatchObject({ values: [{ kind: 'quantity', norm: '9999' }], words: [] });
    expect(claimValue('The billing database runs on db-07.internal')).toMatchObject({ values: [{ kind: 'identifier', norm: 'db-07.internal' }], words: [] });
    expect(claimValue("Minji Kim's email is minji@example.com").values.map((v) => v.norm)).toEqual(['minji@example.com']);
    expect(claimValue('Your dog is called Bori').values.map((v) => v.text)).toEqual(['Bori']);
  });

  it('is the content words of the predicate, stemmed, when it has no typed value', () => {
    expect(claimValue('The staging database password is hunter2')).toMatchObject({ values: [], words: ['hunter2'] });
    expect(claimValue("I'm allergic to peanuts")).toMatchObject({ values: [], words: ['allergic', 'peanut'] });
    expect(claimValue('I play the cello').words).toEqual(['play', 'cello']);
  });

  it('is the whole claim when it has no predicate: a value said alone', () => {
    expect(claimValue('vegetarian')).toMatchObject({ values: [], words: ['vegetarian'] });
    expect(claimValue('5 Sejong-ro, Daegu').values.map((v) => v.text)).toEqual(['5', 'Sejong-ro', 'Daegu']);
  });

  it('says whether the claim says something is not so', () => {
    expect(claimValue("I'm not allergic to peanuts").negated).toBe(true);
    expect(claimValue("I'm allergic to peanuts").negated).toBe(false);
  });
});

describe('statesClaimValue: a memory states the claim value, not only its subject', () => {
  it('prose that shares the subject but not the value states nothing', () => {
    expect(statesClaimValue('The staging database password is hunter2', prose('Notes about the staging database password.'))).toBe(false);
    expect(statesClaimValue('The payment port is 9999', prose('The payment service port is set in the deploy manifest.'))).toBe(false);
    expect(statesClaimValue('The billing database runs on db-07.internal', prose('The billing database is hosted on db-09.internal.'))).toBe(false);
  });

  it('prose states a value its text holds, in other words around it', () => {
    expect(statesClaimValue('The staging database password is hunter2', prose('The staging database password is hunter2.'))).toBe(true);
    expect(statesClaimValue('The billing database runs on db-07.internal', prose('The billing database is hosted on db-07.internal.'))).toBe(true);
    expect(statesClaimValue('I play the cello', prose('I have played cello since school.'))).toBe(true);
  });

  it('compares typed values normalised: units, times, Korean places', () => {
    expect(statesClaimValue('The timeout is 60s', prose('Requests time out after 60 seconds.'))).toBe(true);
    expect(statesClaimValue('The timeout is 60s', prose('Requests time out after 60 minutes.'))).toBe(false);
    expect(statesClaimValue('The standup is at 10pm', prose('Standup moved to 22:00.'))).toBe(true);
    expect(statesClaimValue('I moved to 광주', prose('나 지난주에 광주로 이사했어.'))).toBe(true);
  });

  it('a number inside another is not the number', () => {
    expect(statesClaimValue('The payment port is 9999', fact('payment', 'port', '9'))).toBe(false);
    expect(statesClaimValue('The payment port is 9999', prose('The payment port is 19999.'))).toBe(false);
    expect(statesClaimValue('The payment port is 9999', fact('payment', 'port', '9999'))).toBe(true);
  });

  it('a fact states its value; the words of its key and sentence may stand around it', () => {
    const allergy = fact('user', 'allergy', 'peanuts', "I'm allergic to peanuts.");
    expect(statesClaimValue("I'm allergic to peanuts", allergy)).toBe(true);
    expect(statesClaimValue('peanuts', allergy)).toBe(true);
    expect(statesClaimValue('shellfish', allergy)).toBe(false);
    expect(statesClaimValue("I'm allergic to peanuts and shellfish", allergy)).toBe(false);
    // The key's words alone do not name its value.
    expect(statesClaimValue('I have an allergy', allergy)).toBe(false);
    expect(statesClaimValue('Your dog is called Bori', fact('user', 'has a pet', 'a dog named Bori'))).toBe(true);
    expect(statesClaimValue('Python 3.11 is supported', fact('library', 'supports python', '3.11', 'The library supports Python 3.11.'))).toBe(true);
  });

  it('a bare value is stated only whole', () => {
    const home = fact('user', 'lives at', '5 Jungang-ro, Daegu', 'My address is 5 Jungang-ro, Daegu.');
    expect(statesClaimValue('5 Jungang-ro, Daegu', home)).toBe(true);
    expect(statesClaimValue('5 Sejong-ro, Daegu', home)).toBe(false);
  });

  it('a claim that something is not so is not stated by a memory that says it is', () => {
    expect(statesClaimValue("I'm not allergic to peanuts", fact('user', 'allergy', 'peanuts', "I'm allergic to peanuts."))).toBe(false);
    expect(statesClaimValue("I don't drink coffee", prose('I drink coffee every morning.'))).toBe(false);
  });

  it('a claim that asserts nothing is stated by nothing', () => {
    expect(statesClaimValue('It is.', prose('It is.'))).toBe(false);
  });
});
