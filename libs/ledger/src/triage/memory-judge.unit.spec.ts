import { sameVerdict, stripLabels } from './memory-judge';

describe('what the judge may see', () => {
  it('strips the labels an old pipeline wrote into the text, and only those', () => {
    expect(stripLabels('[MILESTONE:love] I love you')).toBe('I love you');
    expect(stripLabels('[milestone] [date] <milestone> (type: milestone) #milestone We got engaged')).toBe('We got engaged');
    expect(stripLabels('milestone: We got engaged', ['milestone'])).toBe('We got engaged');
    expect(stripLabels('I wrote [draft] notes')).toBe('I wrote [draft] notes');
    expect(stripLabels('Milestones matter to me', ['milestone'])).toBe('Milestones matter to me');
  });

  it('compares verdicts by action, and by type for a retype', () => {
    expect(sameVerdict({ action: 'retype', type: 'profile' }, { action: 'retype', type: 'profile' })).toBe(true);
    expect(sameVerdict({ action: 'retype', type: 'profile' }, { action: 'retype', type: 'fact' })).toBe(false);
    expect(sameVerdict({ action: 'keep' }, { action: 'quarantine' })).toBe(false);
  });
});
