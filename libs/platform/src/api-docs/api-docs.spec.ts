import * as swagger from '@nestjs/swagger';
import { ApiDocs, applyApiDocs } from './api-docs';

describe('ApiDocs', () => {
  it('applies the recorded OpenAPI decorators only when the document is built, once', () => {
    const documentation = jest.fn((s: typeof swagger) => [s.ApiExtension('x-example', true)]);
    class Controller {
      @ApiDocs(documentation)
      handle(): void {}
    }
    const handler = Controller.prototype.handle;
    const extensions = () => Reflect.getMetadata(swagger.DECORATORS.API_EXTENSION, handler) as unknown;

    expect(documentation).not.toHaveBeenCalled();
    expect(extensions()).toBeUndefined();

    applyApiDocs(swagger);
    applyApiDocs(swagger);

    expect(documentation).toHaveBeenCalledTimes(1);
    expect(extensions()).toEqual({ 'x-example': true });
  });
});
