import { Controller, Get, Patch, Post } from '@nestjs/common';
import { takesIdempotencyKey } from './idempotency.binding';
import { WithoutIdempotencyKey } from './without-idempotency-key.decorator';

@Controller('things')
class Things {
  @Post()
  create(): void {}

  @Post('quote')
  @WithoutIdempotencyKey()
  quote(): void {}

  @Get()
  list(): void {}

  @Patch()
  change(): void {}

  helper(): void {}
}

@Controller('questions')
@WithoutIdempotencyKey()
class Questions {
  @Post()
  ask(): void {}
}

describe('takesIdempotencyKey', () => {
  const sut = takesIdempotencyKey;

  it('holds for a POST route', () => {
    expect(sut(Things, Things.prototype.create)).toBe(true);
  });

  it('does not hold for a POST marked @WithoutIdempotencyKey, on the handler or its controller', () => {
    expect(sut(Things, Things.prototype.quote)).toBe(false);
    expect(sut(Questions, Questions.prototype.ask)).toBe(false);
  });

  it('does not hold for other methods nor for methods that are no route', () => {
    expect(sut(Things, Things.prototype.list)).toBe(false);
    expect(sut(Things, Things.prototype.change)).toBe(false);
    expect(sut(Things, Things.prototype.helper)).toBe(false);
  });
});
