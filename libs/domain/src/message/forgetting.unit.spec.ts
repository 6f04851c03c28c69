import { chooseByThing, distinctiveValues, forgetRequestOf, holdsValue, namesThing, planForgetting, saysSame, thingOf } from './forgetting';
import { triageMessage } from './triage';

const targets = (text: string, language: 'en' | 'ko' = 'en') => forgetRequestOf(text, language)?.targets ?? null;

describe('forgetting asked for in a chat', () => {
  it('reads what was just said as the target of "that", "this" and "it"', () => {
    for (const text of [
      'Could you erase that from your memory?',
      'Please wipe this from your notes.',
      "Don't keep that.",
      'Do not remember it, please.',
      'Forget what I just said.',
      'Forget I said that.',
      'I want you to remove it from your memory.',
      'Forget my last message.',
      "Don't store that in your memory.",
    ]) {
      expect({ text, targets: targets(text) }).toEqual({ text, targets: [{ kind: 'said' }] });
    }
  });

  it("reads a thing named: the speaker's, a value, or one said to be in memory", () => {
    expect(targets('Forget what I told you about my old gym locker.')).toEqual([{ kind: 'named', thing: 'my old gym locker' }]);
    expect(targets("Please don't keep my passport number.")).toEqual([{ kind: 'named', thing: 'my passport number' }]);
    expect(targets('Remove the wifi password from your memory.')).toEqual([{ kind: 'named', thing: 'the wifi password' }]);
    expect(targets('Wipe your memory of the alarm code.')).toEqual([{ kind: 'named', thing: 'the alarm code' }]);
    expect(targets("Stop remembering my sister's address.")).toEqual([{ kind: 'named', thing: "my sister's address" }]);
    // One sentence, two clauses: the thing and its value.
    expect(targets('Forget everything I said about the storage bucket — and do not keep s3://vault-91 either.')).toEqual([
      { kind: 'named', thing: 'the storage bucket' },
      { kind: 'named', thing: 's3://vault-91' },
    ]);
    expect(targets("Don't keep 88-1204-77.")).toEqual([{ kind: 'named', thing: '88-1204-77' }]);
    // "You can forget …", "feel free to forget …": a thing named by two words or more after "the".
    expect(targets('You can forget the gate code now, please.')).toEqual([{ kind: 'named', thing: 'the gate code' }]);
    expect(targets('Feel free to forget the supplier discount code.')).toEqual([{ kind: 'named', thing: 'the supplier discount code' }]);
  });

  it('reads Korean requests: "잊어줘", "지워줘", "기억에서 지워", "기억하지 마"', () => {
    expect(targets('내 주소는 잊어줘.', 'ko')).toEqual([{ kind: 'named', thing: '내 주소' }]);
    expect(targets('그거 지워줘.', 'ko')).toEqual([{ kind: 'said' }]);
    expect(targets('기억에서 지워.', 'ko')).toEqual([{ kind: 'said' }]);
    expect(targets('그건 기억에서 빼 줘.', 'ko')).toEqual([{ kind: 'said' }]);
    expect(targets('방금 한 말은 잊어 주세요.', 'ko')).toEqual([{ kind: 'said' }]);
    expect(targets('내가 방금 한 말 잊어줘.', 'ko')).toEqual([{ kind: 'said' }]);
    expect(targets('제 전화번호는 기억하지 마세요.', 'ko')).toEqual([{ kind: 'named', thing: '제 전화번호' }]);
    expect(targets('회사 주차 번호에 대해 말한 거 잊어줄래?', 'ko')).toEqual([{ kind: 'named', thing: '회사 주차 번호' }]);
  });

  it('keeps what only sounds like one: never mind, a fix, a question, a plan, a task, remembering', () => {
    const en = [
      'Forget it, I will do it myself.',
      'Oh, forget about it.',
      'Scratch that, my dentist is Dr. Lee.',
      'Forget what I said, I meant Busan.',
      'Did you forget my address?',
      'Do you remember what I told you about my car?',
      'If I move, forget my address.',
      'Delete that line from the config.',
      'Remove unused CSS from your build.',
      "Don't forget my birthday.",
      "Don't keep me waiting.",
      'Forget the details, what is the price?',
      "Don't record the meeting.",
      'I forgot my password.',
      'You can forget about the trip, it was cancelled.',
      'You can forget the whole thing.',
      'Forget the other details.',
      'Feel free to forget the first part of the plan.',
      'Forget everything.',
      'Remove the old entries from the database.',
      'Delete that paragraph from the notes.',
      "Don't save my progress yet.",
      'Do not store passwords in plain text.',
    ];
    for (const text of en) expect({ text, request: forgetRequestOf(text, 'en') }).toEqual({ text, request: null });
    for (const text of ['잊지 마.', '그 파일 지워줘.', '양파 빼 줘.', '그거 빼줘.', '나는 자주 잊어.', '못 잊어.', '잊어버렸어.', '잊었어?', '다 잊어줘.', '만약 이사하면 내 주소는 잊어줘.']) {
      expect({ text, request: forgetRequestOf(text, 'ko') }).toEqual({ text, request: null });
    }
  });

  it('names the statement said before it: in the same sentence, or just before in the message', () => {
    const same = forgetRequestOf('My bike lock is 4-4-1-9, please forget that.', 'en')!;
    expect(same).toMatchObject({ targets: [{ kind: 'said' }], before: 'My bike lock is 4-4-1-9' });
    const text = 'I like green tea. The vault PIN is 90210. Please erase that from your memory. How are you?';
    const triage = triageMessage(text);
    const plan = planForgetting(triage.sentences, triage.language);
    expect(plan.requests).toEqual([expect.objectContaining({ sentence: 2, said: ['The vault PIN is 90210.'] })]);
    expect([...plan.leftOut].sort()).toEqual([1, 2]);
    // Nothing before it in the message: the speaker's latest memory.
    const alone = triageMessage('Please erase that from your memory.');
    expect(planForgetting(alone.sentences, alone.language).requests[0]!.said).toEqual([]);
  });

  it('tells a value from words, and finds it as a whole token', () => {
    expect(distinctiveValues('Ring 555-0142 or mail kim@hanmail.net, not in 2019 at 10:30.')).toEqual(['555-0142', 'kim@hanmail.net']);
    expect(distinctiveValues('The hatch code is 7702#.')).toEqual(['7702#']);
    expect(holdsValue('Sure — 7702# it is.', '7702#')).toBe(true);
    expect(holdsValue('The hatch code is 77021.', '7702#')).toBe(false);
    expect(thingOf('my old home address')).toEqual({ words: ['home', 'address'], value: null });
    expect(thingOf('7702#')).toEqual({ words: [], value: '7702#' });
  });

  it('finds the memories about a thing and the word each names it with', () => {
    const address = thingOf('my address');
    expect(namesThing('My address is 4 Pine Road.', address)).toEqual({ qualifier: null });
    expect(namesThing('My office address is 9 Quay Street.', address)).toEqual({ qualifier: 'offic' });
    expect(namesThing('I walk to work.', address)).toBeNull();
    expect(namesThing('우리 집 주소는 해운대로 7이야.', thingOf('내 주소'))).toEqual({ qualifier: '집' });
  });

  it('says when an earlier memory says the same as a statement', () => {
    expect(saysSame('The hatch code is 7702#.', 'The hatch code is 7702#, keep it safe.', 'en')).toBe(true);
    expect(saysSame('The hatch code is 7702#.', 'The hatch code is 1100#.', 'en')).toBe(false);
    expect(saysSame('The hatch code is 7702#.', 'Sure — 7702# it is.', 'en')).toBe(false);
    expect(saysSame('My cat is called Miso.', 'my cat is called miso', 'en')).toBe(true);
  });

  it('chooses the latest memory of a thing, with those that say the same; several things by one name are ambiguous', () => {
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    const memories = [
      { memoryId: 'new', text: 'My locker is number 31.', saidAt: at(5) },
      { memoryId: 'again', text: 'My locker is number 31, by the pool.', saidAt: at(3) },
      { memoryId: 'old', text: 'My locker is number 12.', saidAt: at(1) },
    ];
    expect(chooseByThing(memories, 'my locker', 'en')).toEqual({ chosen: ['new', 'again'] });
    const two = [
      { memoryId: 'home', text: 'My home address is 4 Pine Road.', saidAt: at(2) },
      { memoryId: 'office', text: 'My office address is 9 Quay Street.', saidAt: at(3) },
    ];
    expect(chooseByThing(two, 'my address', 'en')).toEqual({ ambiguous: ['home', 'office'] });
    expect(chooseByThing(two, 'my home address', 'en')).toEqual({ chosen: ['home'] });
    // The one named as the request names it wins over one with another word beside it.
    expect(chooseByThing([...two, { memoryId: 'plain', text: 'My address is 1 Elm Lane.', saidAt: at(1) }], 'my address', 'en')).toEqual({ chosen: ['plain'] });
    // A value is meant wherever it is held.
    expect(chooseByThing([...memories, { memoryId: 'note', text: 'Locker 31 sticks.', saidAt: at(6) }], '31', 'en')).toBeNull();
    expect(
      chooseByThing(
        [
          { memoryId: 'a', text: 'Call 555-0142 after six.', saidAt: at(1) },
          { memoryId: 'b', text: 'My number is 555-0142.', saidAt: at(2) },
        ],
        '555-0142',
        'en',
      ),
    ).toEqual({ chosen: ['a', 'b'] });
    expect(chooseByThing(memories, 'my bicycle', 'en')).toBeNull();
  });
});
