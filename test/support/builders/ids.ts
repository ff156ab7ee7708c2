let seq = 0;

/** An id unique within the test file (each file has a database of its own), e.g. `CARD-7`. */
export const uniqueId = (prefix: string): string => `${prefix}-${++seq}`;
