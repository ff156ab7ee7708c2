import { promtool } from './support/prometheus';

/** The alert rules operators load, checked and unit-tested by Prometheus's own tool. */
describe('deploy/prometheus', () => {
  it('alerts.yml is valid, and so is the example configuration that loads it', () => {
    const rules = promtool('check', 'rules', 'alerts.yml');
    expect(rules.output).toContain('SUCCESS: 11 rules found');
    expect(rules.status).toBe(0);
    const config = promtool('check', 'config', 'prometheus.yml');
    expect(config.output).toContain('SUCCESS: 1 rule files found');
    expect(config.status).toBe(0);
  });

  it('every alert passes its unit tests in alerts.test.yml', () => {
    const tests = promtool('test', 'rules', 'alerts.test.yml');
    expect(tests.output).toContain('SUCCESS');
    expect(tests.status).toBe(0);
  });
});
