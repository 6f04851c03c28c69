/**
 * The TypeScript client's types from the contract, by openapi-typescript: one `paths` interface
 * (every route, its parameters, bodies and answers by status) and the component schemas, which
 * openapi-fetch reads to type each call. A field with a default stays optional (a request may
 * leave it out), so `defaultNonNullable` is off.
 */
export const TYPESCRIPT_SCHEMA = {
  header: '// Generated from clients/openapi.json by `npm run clients:generate` (openapi-typescript). Do not edit.\n',
  options: { exportType: false, rootTypes: true, rootTypesNoSchemaPrefix: false, defaultNonNullable: false },
};

export async function typescriptSchema(document: object): Promise<string> {
  // Loaded when asked for: the generator's own dependencies are ES modules, which Jest's CommonJS
  // runtime cannot load (the contract test runs it in a plain node process instead).
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return `${TYPESCRIPT_SCHEMA.header}${astToString(await openapiTS(document as any, TYPESCRIPT_SCHEMA.options))}`;
}
