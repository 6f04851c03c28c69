/**
 * The TypeScript client's types from the contract, by openapi-typescript: one `paths` interface
 * (every route, its parameters, bodies and answers by status) and the component schemas, which
 * openapi-fetch reads to type each call.
 */
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = '// Generated from clients/openapi.json by `npm run clients:generate` (openapi-typescript). Do not edit.\n';

export async function typescriptSchema(document: object): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const ast = await openapiTS(document as any, { exportType: false, rootTypes: true, rootTypesNoSchemaPrefix: false, defaultNonNullable: false });
  return `${HEADER}${astToString(ast)}`;
}
