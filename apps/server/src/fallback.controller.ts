/**
 * What no other route matched, under any method: registered last, so that a path no handler
 * serves (a misspelled or encoded one, `OPTIONS`) meets the door like every route (deny by
 * default: http/access.ts) and only then answers 404. Without a usable key it is a 401, as the
 * same request to a real route would be; nothing about which paths exist is told before that.
 */
import { All, Controller, NotFoundException } from '@nestjs/common';

@Controller()
export class FallbackController {
  @All('{*path}')
  none(): never {
    throw new NotFoundException('no such route: see /openapi.json');
  }
}
