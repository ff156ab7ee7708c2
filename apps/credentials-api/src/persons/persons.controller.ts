import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ApiAuth,
  CurrentPrincipal,
  IdempotentAnswerAbout,
  Principal,
  PROBLEM_CONTENT,
} from '@fincore/platform';
import {
  CreatePersonBody,
  PersonErasureResponse,
  PersonId,
  PersonResponse,
  SetCredentialsBody,
  UpdatePersonBody,
} from './person.schemas';
import { PersonErasuresService } from './person-erasures.service';
import { PersonsService } from './persons.service';

const personExample = PersonResponse.meta()?.example;
const personIdParam = ApiParam({
  name: 'personId',
  description: 'Identifier of the person',
  example: 'demo-person-1',
});
const erased = ApiGoneResponse({
  description: 'person_erased: the person was erased',
  content: PROBLEM_CONTENT,
});

@ApiTags('persons')
@Controller('api/v1/persons')
export class PersonsController {
  constructor(
    @Inject(PersonsService) private readonly persons: PersonsService,
    @Inject(PersonErasuresService) private readonly erasures: PersonErasuresService,
  ) {}

  @Post()
  @ApiAuth('persons:write')
  // The kept answer carries the profile: erasing the person deletes it.
  @IdempotentAnswerAbout('person', 'personId')
  @ApiOperation({
    summary: 'Create a person with credentials',
    description: 'The person id is given or generated; usernames are unique per tenant regardless of case.',
  })
  @ApiCreatedResponse({
    standardSchema: PersonResponse,
    description: 'The person, credentials active',
    example: personExample,
  })
  @ApiBadRequestResponse({ description: 'Missing or invalid fields', content: PROBLEM_CONTENT })
  @ApiConflictResponse({ description: 'person_exists or username_taken', content: PROBLEM_CONTENT })
  @ApiUnprocessableEntityResponse({
    description: 'password_policy_violated, with errors[]',
    content: PROBLEM_CONTENT,
  })
  create(
    @Body({ schema: CreatePersonBody }) body: CreatePersonBody,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.persons.create(principal, body);
  }

  @Get(':personId')
  @ApiAuth('persons:read')
  @personIdParam
  @ApiOperation({
    summary: 'Read a person',
    description: 'Profile and credentials status; never a password or hash.',
  })
  @ApiOkResponse({ standardSchema: PersonResponse, description: 'The person', example: personExample })
  @ApiBadRequestResponse({ description: 'A malformed person id', content: PROBLEM_CONTENT })
  @ApiNotFoundResponse({ description: 'No such person in the caller’s tenant', content: PROBLEM_CONTENT })
  @erased
  get(@Param('personId', { schema: PersonId }) personId: string, @CurrentPrincipal() principal: Principal) {
    return this.persons.get(principal, personId);
  }

  @Patch(':personId')
  @ApiAuth('persons:write')
  @personIdParam
  @ApiOperation({
    summary: 'Change profile fields',
    description:
      'Absent fields are kept, null clears. Emits PERSON_UPDATED with the names of the changed fields; nothing when nothing changed.',
  })
  @ApiOkResponse({ standardSchema: PersonResponse, description: 'The person as now', example: personExample })
  @ApiBadRequestResponse({ description: 'Invalid fields', content: PROBLEM_CONTENT })
  @ApiNotFoundResponse({ description: 'No such person in the caller’s tenant', content: PROBLEM_CONTENT })
  @erased
  update(
    @Param('personId', { schema: PersonId }) personId: string,
    @Body({ schema: UpdatePersonBody }) body: UpdatePersonBody,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.persons.update(principal, personId, body);
  }

  @Put(':personId/credentials')
  @HttpCode(200)
  // Setting credentials hands over the account: a profile editor alone may not do it.
  @ApiAuth('persons:write', 'credentials:write')
  @personIdParam
  @ApiOperation({
    summary: 'Set new credentials after an invalidation',
    description:
      'Only for invalidated credentials; they become active at once and PERSON_UPDATED is emitted. The invalidated password cannot come back.',
  })
  @ApiOkResponse({
    standardSchema: PersonResponse,
    description: 'The person with active credentials',
    example: personExample,
  })
  @ApiBadRequestResponse({ description: 'Invalid fields', content: PROBLEM_CONTENT })
  @ApiNotFoundResponse({ description: 'No such person in the caller’s tenant', content: PROBLEM_CONTENT })
  @ApiConflictResponse({
    description: 'credentials_active (invalidate first) or username_taken',
    content: PROBLEM_CONTENT,
  })
  @erased
  @ApiUnprocessableEntityResponse({
    description: 'password_policy_violated or password_reused',
    content: PROBLEM_CONTENT,
  })
  setCredentials(
    @Param('personId', { schema: PersonId }) personId: string,
    @Body({ schema: SetCredentialsBody }) body: SetCredentialsBody,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.persons.setCredentials(principal, personId, body);
  }

  @Post(':personId/erase')
  @HttpCode(200)
  @ApiAuth('persons:erase')
  @personIdParam
  @ApiOperation({
    summary: 'Erase a person',
    description:
      'Removes the profile, the credentials and the username (kept as a digest, so it is never given ' +
      'out again), and the personal data of every stored event about the person, the receivers’ answers ' +
      'to their webhooks and kept Idempotency-Key answers about them; the erasure record stays. Emits ' +
      'PERSON_ERASED. Erasing an erased person answers the first erasure’s record again. Reads and ' +
      'changes of the person answer 410 person_erased afterwards.',
  })
  @ApiOkResponse({
    standardSchema: PersonErasureResponse,
    description: 'The erasure record',
    example: PersonErasureResponse.meta()?.example,
  })
  @ApiBadRequestResponse({ description: 'A malformed person id', content: PROBLEM_CONTENT })
  @ApiNotFoundResponse({ description: 'No such person in the caller’s tenant', content: PROBLEM_CONTENT })
  erase(@Param('personId', { schema: PersonId }) personId: string, @CurrentPrincipal() principal: Principal) {
    return this.erasures.erase(principal, personId);
  }
}
