export const endpointDeliveryStatsExample = {
  endpointId: '5d1f0c7e-3b9a-4e7f-8a41-2c6d9e0b7f13',
  window: '24h',
  from: '2026-01-14T11:00:00.000Z',
  until: '2026-01-15T11:00:00.000Z',
  total: { succeeded: 41, failed: 2, pending: 1 },
  hours: [
    { hour: '2026-01-15T09:00:00.000Z', succeeded: 12, failed: 0, pending: 0 },
    { hour: '2026-01-15T10:00:00.000Z', succeeded: 29, failed: 2, pending: 1 },
  ],
};

export const endpointHealthListExample = {
  window: '24h',
  from: '2026-01-14T11:00:00.000Z',
  until: '2026-01-15T11:00:00.000Z',
  items: [
    {
      endpointId: '5d1f0c7e-3b9a-4e7f-8a41-2c6d9e0b7f13',
      deliveries: { succeeded: 41, failed: 2, pending: 1 },
      p95DurationMs: 184,
    },
  ],
};
