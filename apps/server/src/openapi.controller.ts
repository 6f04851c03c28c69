/** Serves the OpenAPI document, built once on first request. */
import { Controller, Get } from '@nestjs/common';
import { Public } from './http/access';
import { buildOpenApiDocument } from './openapi.document';

@Public()
@Controller()
export class OpenApiController {
  private document: ReturnType<typeof buildOpenApiDocument> | null = null;

  @Get('openapi.json')
  openapi() {
    this.document ??= buildOpenApiDocument();
    return this.document;
  }
}
