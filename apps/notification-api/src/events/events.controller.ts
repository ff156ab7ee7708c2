import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiGoneResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import { EventPage, EventStreamQuery } from './events.schemas';
import { EventsService } from './events.service';

@ApiTags('Events')
@Controller('api/v1/events')
export class EventsController {
  constructor(private readonly service: EventsService) {}

  @Get()
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary:
      'The events of the types enabled for webhooks, in commit order, each as its webhook carries it; optionally waits for the next',
  })
  @ApiOkResponse({ standardSchema: EventPage })
  @ApiGoneResponse({
    description: 'The cursor is older than the outbox retention window',
    content: PROBLEM_CONTENT,
  })
  @ApiServiceUnavailableResponse({
    description: 'Too many waiting reads on this server; retry after Retry-After',
    content: PROBLEM_CONTENT,
  })
  read(
    @Query({ schema: EventStreamQuery }) query: EventStreamQuery,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.read(principal, query);
  }
}
