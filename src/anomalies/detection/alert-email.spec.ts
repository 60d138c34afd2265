import { alertTemplateValues, formatWhen, orderForAlert, shouldEmail } from './alert-email';

const a = (kind: 'new_device' | 'new_ip' | 'new_country' | 'impossible_travel') => ({
  kind,
  severity: ({ new_device: 'warn', new_ip: 'info', new_country: 'warn', impossible_travel: 'critical' } as const)[kind],
  message: `msg ${kind}.`,
});

describe('shouldEmail', () => {
  it('mails for new_device, new_country and impossible_travel, not for new_ip alone', () => {
    expect(shouldEmail([a('new_device')], true)).toBe(true);
    expect(shouldEmail([a('new_country')], true)).toBe(true);
    expect(shouldEmail([a('impossible_travel')], true)).toBe(true);
    expect(shouldEmail([a('new_ip')], true)).toBe(false);
    expect(shouldEmail([], true)).toBe(false);
  });

  it('honours ANOMALY_EMAIL_ON_NEW_DEVICE=False for new_device only', () => {
    expect(shouldEmail([a('new_device')], false)).toBe(false);
    expect(shouldEmail([a('new_device'), a('new_country')], false)).toBe(true);
  });
});

describe('alertTemplateValues', () => {
  const facts = {
    clientName: 'Acme',
    firstName: 'Ada',
    email: 'ada@example.test',
    ipAddress: '81.2.69.160',
    userAgent: 'Firefox',
    city: 'Tokyo',
    country: 'JP',
    signedInAt: new Date('2026-01-10T12:05:00Z'),
    sessionsUrl: 'https://id.example.test/user/security/sessions/',
  };

  it('fills every placeholder the template names, most severe finding first', () => {
    const v = alertTemplateValues([a('new_ip'), a('impossible_travel')], facts);
    expect(v).toMatchObject({
      'oauth_client.name': 'Acme',
      'anomaly.message': 'msg impossible_travel. msg new_ip.',
      'anomaly.kind': 'impossible_travel',
      'anomaly.kinds': 'impossible_travel, new_ip',
      city: 'Tokyo',
      country: 'Japan',
      location: 'Tokyo, Japan',
      ip_address: '81.2.69.160',
      when: '10 January 2026, 12:05 UTC',
      sessions_url: facts.sessionsUrl,
    });
  });

  it('says "Unknown location" once, in plain words, when geo data is missing', () => {
    const v = alertTemplateValues([a('new_device')], { ...facts, city: null, country: null, clientName: null });
    expect(v.city).toBe('');
    expect(v.country).toBe('');
    expect(v.location).toBe('Unknown location');
    expect(v['oauth_client.name']).toBe('your account');
  });
});

describe('orderForAlert / formatWhen', () => {
  it('orders critical, warn, info', () => {
    expect(orderForAlert([a('new_ip'), a('new_country'), a('impossible_travel')]).map((x) => x.severity)).toEqual([
      'critical',
      'warn',
      'info',
    ]);
  });

  it('formats in UTC', () => {
    expect(formatWhen(new Date('2026-03-01T23:59:00Z'))).toBe('1 March 2026, 23:59 UTC');
  });
});
