import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ApiAuth,
  CurrentPrincipal,
  Principal,
  PROBLEM_CONTENT,
  WithoutIdempotencyKey,
} from '@fincore/platform';
import { invalidCredentialsExample } from './credentials.examples';
import {
  AuthenticateBody,
  AuthenticateResponse,
  InvalidateCredentialsBody,
  InvalidateCredentialsResponse,
} from './credentials.schemas';
import { CredentialsService } from './credentials.service';

@ApiTags('credentials')
@Controller('api/v1/credentials')
export class CredentialsController {
  constructor(@Inject(CredentialsService) private readonly credentials: CredentialsService) {}

  @Post('invalidate')
  @HttpCode(200)
  @ApiAuth('credentials:write')
  @ApiOperation({
    summary: 'Invalidate customer credentials',
    description:
      'After success the person cannot authenticate with these credentials; a PERSON_UPDATED event records it. ' +
      'Repeating the call with the same credentials answers the same and emits nothing. Unknown person, another ' +
      'tenant’s person, wrong username or wrong password all get one answer: 422 invalid_credentials. Failed attempts ' +
      'count towards the username’s lockout (429).',
  })
  @ApiOkResponse({
    standardSchema: InvalidateCredentialsResponse,
    description: 'The credentials are invalid',
    example: InvalidateCredentialsResponse.meta()?.example,
  })
  @ApiBadRequestResponse({
    description: 'A field is missing, not a string, or too long',
    content: PROBLEM_CONTENT,
  })
  @ApiUnprocessableEntityResponse({
    description: 'The credentials are not those of the person (one answer for every mismatch)',
    content: {
      'application/problem+json': {
        schema: PROBLEM_CONTENT['application/problem+json'].schema,
        example: invalidCredentialsExample(422, '/api/v1/credentials/invalidate'),
      },
    },
  })
  @ApiTooManyRequestsResponse({
    description: 'credentials_locked: too many failed attempts for the username; see Retry-After',
    content: PROBLEM_CONTENT,
  })
  invalidate(
    @Body({ schema: InvalidateCredentialsBody }) body: InvalidateCredentialsBody,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.credentials.invalidate(principal, body);
  }

  @Post('authenticate')
  @WithoutIdempotencyKey()
  @HttpCode(200)
  // Above @ApiAuth so this example survives its generic 401 description.
  @ApiUnauthorizedResponse({
    description:
      'invalid_credentials: invalid or invalidated credentials (one answer); unauthenticated: no valid API token',
    content: {
      'application/problem+json': {
        schema: PROBLEM_CONTENT['application/problem+json'].schema,
        example: invalidCredentialsExample(401, '/api/v1/credentials/authenticate'),
      },
    },
  })
  @ApiAuth('credentials:authenticate')
  @ApiOperation({
    summary: 'Authenticate a person',
    description:
      'Checks a username and password of the caller’s tenant. Wrong and invalidated credentials get the same 401. ' +
      `After repeated failures the username is locked for a while (429 with Retry-After), across all replicas.`,
  })
  @ApiOkResponse({
    standardSchema: AuthenticateResponse,
    description: 'The credentials are valid',
    example: AuthenticateResponse.meta()?.example,
  })
  @ApiBadRequestResponse({
    description: 'A field is missing, not a string, or too long',
    content: PROBLEM_CONTENT,
  })
  @ApiTooManyRequestsResponse({
    description: 'credentials_locked: too many failed attempts for the username; see Retry-After',
    content: PROBLEM_CONTENT,
  })
  authenticate(
    @Body({ schema: AuthenticateBody }) body: AuthenticateBody,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.credentials.authenticate(principal, body);
  }
}
