/**
 * Serves the OpenAPI document, built once on first request. The document is given by the module
 * (OPENAPI_DOCUMENT: how to build it), so this controller does not import the document's builder,
 * which names this controller's route.
 */
import { Controller, Get, Inject } from '@nestjs/common';
import { Public } from './http/access';

/** How to build the OpenAPI document the server serves (AppModule gives it). */
export const OPENAPI_DOCUMENT = Symbol('OPENAPI_DOCUMENT');
export type OpenApiDocumentSource = () => object;

@Public()
@Controller()
export class OpenApiController {
  private document: object | null = null;

  constructor(@Inject(OPENAPI_DOCUMENT) private readonly build: OpenApiDocumentSource) {}

  @Get('openapi.json')
  openapi(): object {
    this.document ??= this.build();
    return this.document;
  }
}
