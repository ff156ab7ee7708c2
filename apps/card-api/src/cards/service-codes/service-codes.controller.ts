import { Controller, Get, Headers } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, negotiateLanguage } from '@fincore/platform';
import { SERVICE_CODES } from '../domain/service-codes';
import { mapServiceCodeList } from './service-code.mapper';
import { ServiceCodeListResponse } from './service-code.schemas';

@ApiTags('Service codes')
@Controller('api/v1/service-codes')
export class ServiceCodesController {
  @Get()
  @ApiAuth('cards:read')
  @ApiOperation({
    summary: 'The catalog of service codes (authorisation types)',
    description: 'Names and meanings follow Accept-Language (en, de).',
  })
  @ApiOkResponse({
    standardSchema: ServiceCodeListResponse,
    example: ServiceCodeListResponse.meta()?.example,
  })
  list(@Headers('accept-language') acceptLanguage?: string) {
    return mapServiceCodeList(SERVICE_CODES, negotiateLanguage(acceptLanguage));
  }
}
