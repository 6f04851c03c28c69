/**
 * A population to triage: "milestones" as an old extractor stored them, with planted noise (small
 * talk, requests, role-play) and memories of another type, each with what a careful reviewer
 * would decide. Used by the population triage test and by the reliability suite's half-way cell.
 */
export type Truth = 'keep' | 'quarantine' | 'retype:profile' | 'retype:preference';

const NAMES = ['Minji', 'Jisoo', 'Hana', 'Seojun', 'Alex', 'Sam', 'Noor', 'Ravi', 'Lena', 'Tomas', 'Yuna', 'Kai', 'Ines', 'Omar', 'Mira', 'Jonas'];
const CITIES = ['Seoul', 'Busan', 'Daejeon', 'Incheon', 'Lisbon', 'Berlin', 'Osaka', 'Toronto', 'Austin', 'Daegu', 'Jeju', 'Gwangju'];
const THINGS = ['the login page', 'my resume', 'the build script', 'this regex', 'the dinner plan', 'my cover letter', 'the SQL query', 'the budget'];
const FOODS = ['spicy ramen', 'kimchi stew', 'sourdough bread', 'green tea', 'dark chocolate', 'tteokbokki', 'mango sorbet', 'black coffee'];

/** Templates of what the old extractor stored as "milestone", with what a careful reviewer would say. */
const TEMPLATES: [Truth, (n: string, c: string, t: string, f: string, i: number) => string][] = [
  ['keep', (n, c, _t, _f, i) => `I got the job offer from the ${c} office today, ${n}! Offer number ${i}.`],
  ['keep', (n, c, _t, _f, i) => `We got engaged in ${c} last night, I still can't believe it, ${n}. Day ${i}.`],
  ['keep', (n, c, _t, _f, i) => `I graduated from ${c} University today after ${3 + (i % 5)} years!`],
  ['keep', (n, c, _t, _f, i) => `I want to build a life with you, ${n}, maybe somewhere like ${c}, in ${2027 + (i % 40)}.`],
  ['keep', (n, c, _t, _f, i) => `Our baby ${n} was born this morning in ${c}, ${2 + (i % 3)} kilos.`],
  ['keep', (_n, c, _t, _f, i) => `I finally bought my first apartment in ${c}, unit ${100 + i}.`],
  ['quarantine', (n, _c, _t, _f, i) => `haha ok ${n} ${i}`],
  ['quarantine', (n, _c, _t, _f, i) => `Thanks ${n}, that fixed it #${i}`],
  ['quarantine', (n, _c, _t, _f, i) => `ok sounds good ${n} (${i})`],
  ['quarantine', (n, c, _t, _f, i) => `What time is it in ${c} right now, ${n}? (${i})`],
  ['quarantine', (n, _c, t, _f, i) => `Can you help me fix ${t}, ${n}? try ${i}`],
  ['quarantine', (n, _c, _t, _f, i) => `*${n} smiles softly and leans closer* (${i})`],
  ['quarantine', (n, _c, _t, _f, i) => `*laughs and looks away from ${n}* ${i}`],
  ['retype:profile', (_n, c, _t, _f, i) => `I moved to ${c} last week, flat ${i}.`],
  ['retype:profile', (n, _c, _t, _f, i) => `My email address is ${n.toLowerCase()}${i}@mail.example.`],
  ['retype:preference', (_n, _c, _t, f, i) => `I like ${f} number ${i}.`],
];

/** `size` distinct members; a quarter carry the old pipeline's label in their text, which a judge must never read as an answer. */
export function milestonePopulation(size: number): { text: string; truth: Truth }[] {
  const out: { text: string; truth: Truth }[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < size; i++) {
    const [truth, make] = TEMPLATES[i % TEMPLATES.length]!;
    let text = make(NAMES[i % NAMES.length]!, CITIES[(i * 7) % CITIES.length]!, THINGS[(i * 3) % THINGS.length]!, FOODS[(i * 5) % FOODS.length]!, i);
    if (i % 4 === 0) text = `[MILESTONE:love] ${text}`;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ text, truth });
  }
  return out;
}

/** Control samples with known answers, judged before the population (R19). */
export const TRIAGE_CONTROLS = [
  { text: 'I got the job offer from the Busan office today!', expect: 'keep' },
  { text: 'We got married last Saturday in Jeju.', expect: 'keep' },
  { text: 'I want to spend the rest of my life with you.', expect: 'keep' },
  { text: 'haha ok', expect: 'quarantine' },
  { text: 'Thanks, that helped!', expect: 'quarantine' },
  { text: 'Where did I put my keys?', expect: 'quarantine' },
  { text: '*smiles and leans closer*', expect: 'quarantine' },
  { text: '[MILESTONE:love] ok cool', expect: 'quarantine' },
  { text: 'I moved to Daegu last month.', expect: 'retype:profile' },
  { text: 'I like iced americano.', expect: 'retype:preference' },
];
