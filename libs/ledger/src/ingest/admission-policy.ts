/**
 * The admission policy as a file: built-in defaults, a file that overrides them (for every
 * tenant under `default`, for one tenant under `tenants.<id>`), validated once at start-up.
 * Overrides merge type by type and field by field; a list given in the file replaces the list.
 */
import { readFileSync } from 'node:fs';
import { type AdmissionPolicy, InvalidInputError } from '@factledger/domain';
import { z } from 'zod';
import { typeName } from '../ledger.schemas';

const word = z.string().trim().min(1);

const typePolicySchema = z
  .object({
    importance: z.enum(['high', 'normal']),
    cues: z.array(word),
    requiredKeywords: z.array(word),
    examples: z.array(word),
    minSimilarity: z.number().min(-1).max(1).nullable(),
    onFail: z.enum(['retype', 'reject']),
  })
  .strict();

const policyOverrideSchema = z
  .object({
    defaultType: typeName.optional(),
    roleplayGuard: z.boolean().optional(),
    chitchat: z
      .object({ enabled: z.boolean(), phrases: z.array(word), maxWords: z.number().int().min(0) })
      .partial()
      .strict()
      .optional(),
    minContentWords: z.number().int().min(0).optional(),
    maxHighImportanceLabels: z.number().int().min(0).optional(),
    types: z.record(typeName, typePolicySchema.partial().nullable()).optional(),
  })
  .strict();

export const admissionPolicyFileSchema = z
  .object({
    default: policyOverrideSchema.optional(),
    tenants: z.record(z.string().min(1), policyOverrideSchema).optional(),
  })
  .strict();

export type AdmissionPolicyFile = z.input<typeof admissionPolicyFileSchema>;

/**
 * The defaults, after seed 000: noisy high-importance types are proposed by broad cue words
 * (as a naive extractor would) and admitted only with a declaration keyword and a cosine of at
 * least 0.5 to the type's examples; one such label per message.
 */
export const DEFAULT_ADMISSION_POLICY: AdmissionPolicy = {
  defaultType: 'fact',
  roleplayGuard: true,
  chitchat: {
    enabled: true,
    phrases: [
      'thanks',
      'thank you',
      'thx',
      'ty',
      'ok',
      'okay',
      'k',
      'haha',
      'hahaha',
      'lol',
      'lmao',
      'hi',
      'hello',
      'hey',
      'bye',
      'good night',
      'good morning',
      'cool',
      'nice',
      'great',
      'awesome',
      'sure',
      'yes',
      'no',
      'yep',
      'nope',
      'yeah',
      'hmm',
      'wow',
      'got it',
      'sounds good',
      'never mind',
      'oops',
      'sorry',
      '고마워',
      '고마워요',
      '감사',
      '감사합니다',
      'ㅋㅋ',
      'ㅎㅎ',
      '안녕',
      '응',
      '그래',
      '알겠어',
      '좋아',
      '오케이',
    ],
    maxWords: 6,
  },
  minContentWords: 2,
  maxHighImportanceLabels: 1,
  types: {
    milestone: {
      importance: 'high',
      // prettier-ignore
      cues: [
        'love', 'trust', 'today', 'finally', 'got', 'always', 'forever', 'promise', 'together', 'offer', 'promoted', 'promotion', 'engaged',
        'married', 'wedding', 'graduated', 'baby', 'born', 'anniversary', 'first', 'special', 'miss you', '사랑', '믿어', '오늘', '드디어',
        '합격', '승진', '결혼', '약혼', '졸업', '취업', '입사', '출산', '기념일', '처음',
      ],
      // prettier-ignore
      requiredKeywords: [
        'job offer', 'got the job', 'got a job', 'new job', 'hired', 'promoted', 'promotion', 'engaged', 'married', 'wedding', 'graduated',
        'graduation', 'pregnant', 'baby was born', 'was born', 'bought a house', 'bought our first', 'retired', 'retirement', 'passed the',
        'got accepted', 'got into', 'anniversary', 'i love you', 'i trust you', 'proposed', '합격', '승진', '결혼', '약혼', '졸업', '취업',
        '입사', '출산', '임신', '사랑해', '기념일', '은퇴',
      ],
      // prettier-ignore
      examples: [
        'I got the job offer today!',
        'I just got promoted at work.',
        'We got engaged last night.',
        'I graduated from university today.',
        'I passed the bar exam!',
        'Our baby was born this morning.',
        'I love you, and I mean it.',
        'We bought our first house.',
      ],
      minSimilarity: 0.5,
      onFail: 'retype',
    },
    achievement: {
      importance: 'high',
      cues: ['won', 'achieved', 'finished', 'completed', 'record', 'award', 'passed', 'beat', '해냈', '성공', '우승', '완주'],
      requiredKeywords: ['won', 'award', 'finished my', 'completed my', 'passed my', 'achieved', 'personal best', 'first place', '우승', '수상', '완주'],
      examples: ['I won first place in the competition.', 'I finished my first marathon.', 'I completed my certification.', 'I got an award at work.'],
      minSimilarity: 0.5,
      onFail: 'retype',
    },
    gift: {
      importance: 'high',
      cues: ['gift', 'present', 'gave me', 'bought me', '선물'],
      requiredKeywords: ['gift', 'present', 'gave me', 'bought me', '선물'],
      examples: ['My sister gave me a watch for my birthday.', 'I bought my mom a present.', 'He got me a book as a gift.'],
      minSimilarity: 0.5,
      onFail: 'retype',
    },
  },
};

function merge(base: AdmissionPolicy, o: z.output<typeof policyOverrideSchema> | undefined): AdmissionPolicy {
  if (!o) return base;
  const types = { ...base.types };
  for (const [name, t] of Object.entries(o.types ?? {})) {
    if (t === null) {
      delete types[name];
      continue;
    }
    const merged = { ...(types[name] ?? { importance: 'normal', cues: [], requiredKeywords: [], examples: [], minSimilarity: null, onFail: 'retype' }), ...t };
    types[name] = merged as AdmissionPolicy['types'][string];
  }
  return {
    defaultType: o.defaultType ?? base.defaultType,
    roleplayGuard: o.roleplayGuard ?? base.roleplayGuard,
    chitchat: { ...base.chitchat, ...o.chitchat },
    minContentWords: o.minContentWords ?? base.minContentWords,
    maxHighImportanceLabels: o.maxHighImportanceLabels ?? base.maxHighImportanceLabels,
    types,
  };
}

/** The effective policy for each tenant: defaults, then the file's `default`, then its tenant entry. */
export class AdmissionPolicies {
  private readonly base: AdmissionPolicy;
  private readonly tenants: Record<string, z.output<typeof policyOverrideSchema>>;

  constructor(
    file: unknown = {},
    readonly source = 'built-in defaults',
  ) {
    const parsed = admissionPolicyFileSchema.safeParse(file);
    if (!parsed.success) {
      throw new InvalidInputError(parsed.error.issues.map((i) => ({ path: `admissionPolicy.${i.path.join('.')}`, message: i.message })));
    }
    this.base = merge(DEFAULT_ADMISSION_POLICY, parsed.data.default);
    this.tenants = parsed.data.tenants ?? {};
  }

  static fromFile(path: string | undefined): AdmissionPolicies {
    if (!path) return new AdmissionPolicies();
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new InvalidInputError([{ path: 'admissionPolicy', message: `cannot read ${path} as JSON: ${(error as Error).message}` }]);
    }
    return new AdmissionPolicies(json, path);
  }

  for(tenant: string): AdmissionPolicy {
    return merge(this.base, this.tenants[tenant]);
  }
}
