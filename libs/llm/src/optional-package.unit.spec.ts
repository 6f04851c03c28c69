/**
 * The optional peers (the `openai` SDK here) load on first use; when one is not installed, the
 * error is one line naming the package to install.
 */
import { loadOptionalPackage, OptionalPackageMissingError } from '@factledger/domain';

describe('an optional package', () => {
  it('that is not installed fails with one line naming the package to install', async () => {
    const name = 'factledger-no-such-package';
    const error = await loadOptionalPackage(name, 'the test feature', () => import(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptionalPackageMissingError);
    expect(error).toMatchObject({ code: 'optional_package_missing', packageName: name });
    expect((error as Error).message).toBe(`the test feature needs the package ${name}, which is not installed: npm install ${name}`);
  });

  it('that is installed loads, and another failure inside it is not read as a missing package', async () => {
    expect(await loadOptionalPackage('zod', 'the test feature', () => import('zod'))).toHaveProperty('z');
    const inner = Object.assign(new Error("Cannot find module './lib/part'"), { code: 'MODULE_NOT_FOUND' });
    await expect(loadOptionalPackage('zod', 'the test feature', () => Promise.reject(inner))).rejects.toBe(inner);
  });

  it('is loaded by the chat model on its first request, not when it is made', async () => {
    jest.resetModules();
    jest.doMock('openai', () => {
      throw Object.assign(new Error("Cannot find module 'openai' from 'openai-compatible.ts'"), { code: 'MODULE_NOT_FOUND' });
    });
    const { OpenAiChatModel } = await import('./openai-chat-model');
    const { OptionalPackageMissingError: Missing } = await import('@factledger/domain');
    const model = new OpenAiChatModel({ baseUrl: 'http://127.0.0.1:1', model: 'm' });
    const error = await model.complete([{ role: 'user', content: 'x' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Missing);
    expect((error as Error).message).toMatch(/needs the package openai, which is not installed: npm install openai$/);
    jest.dontMock('openai');
  });
});
