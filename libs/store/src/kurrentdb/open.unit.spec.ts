/** The KurrentDB client is an optional peer: opening the adapter without it installed says which package to install. */
describe('openKurrentDbEventStore without @eventstore/db-client installed', () => {
  afterEach(() => jest.dontMock('@eventstore/db-client'));

  it('fails with one line naming the package, and loads nothing before it is opened', async () => {
    jest.resetModules();
    jest.doMock('@eventstore/db-client', () => {
      throw Object.assign(new Error("Cannot find module '@eventstore/db-client' from 'kurrentdb-client.ts'"), { code: 'MODULE_NOT_FOUND' });
    });
    // The store's entry point loads without the client.
    const { openKurrentDbEventStore } = await import('@factledger/store');
    const { OptionalPackageMissingError } = await import('@factledger/domain');
    const error = await openKurrentDbEventStore('kurrentdb://127.0.0.1:2113?tls=false').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptionalPackageMissingError);
    expect((error as Error).message).toBe('the KurrentDB event store (KURRENTDB_URL) needs the package @eventstore/db-client, which is not installed: npm install @eventstore/db-client');
  });
});
