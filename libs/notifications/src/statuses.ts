/** Where a delivery stands. PENDING deliveries have a next attempt time; the others are finished. */
export const DeliveryStatus = {
  Pending: 'PENDING',
  Succeeded: 'SUCCEEDED',
  Failed: 'FAILED',
} as const;
export type DeliveryStatus = (typeof DeliveryStatus)[keyof typeof DeliveryStatus];
export const DELIVERY_STATUSES = Object.values(DeliveryStatus);

/** A DISABLED endpoint receives nothing until enabled again (by the tenant, by a 410, or after failing too long). */
export const EndpointStatus = {
  Active: 'ACTIVE',
  Disabled: 'DISABLED',
} as const;
export type EndpointStatus = (typeof EndpointStatus)[keyof typeof EndpointStatus];

/** The outcome of one HTTP attempt of a delivery. */
export const AttemptOutcome = {
  Succeeded: 'SUCCEEDED',
  Failed: 'FAILED',
} as const;
export type AttemptOutcome = (typeof AttemptOutcome)[keyof typeof AttemptOutcome];

/**
 * How an endpoint receives events: NONE in parallel; SUBJECT one at a time per subject (person,
 * card), in commit order, each with its sequence among the endpoint's events about the subject.
 */
export const EndpointOrdering = {
  None: 'NONE',
  Subject: 'SUBJECT',
} as const;
export type EndpointOrdering = (typeof EndpointOrdering)[keyof typeof EndpointOrdering];

/** What an endpoint's webhooks carry: the whole event, or its ids and changed field names only. */
export const EndpointPayload = {
  Full: 'FULL',
  Thin: 'THIN',
} as const;
export type EndpointPayload = (typeof EndpointPayload)[keyof typeof EndpointPayload];
