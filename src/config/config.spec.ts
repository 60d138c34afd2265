import { loadConfig } from './config';

describe('loadConfig: an empty value means unset', () => {
  it('puts mail and backups under DATA_DIR when MAIL_DIR= and BACKUP_DIR= are empty, as in .env.example', () => {
    const config = loadConfig({ DATA_DIR: '/srv/idsvc', MAIL_DIR: '', BACKUP_DIR: '' });
    expect(config.MAIL_DIR).toBe('/srv/idsvc/mail');
    expect(config.BACKUP_DIR).toBe('/srv/idsvc/backups');
  });

  it('keeps the default of every kind of variable given as an empty or blank value', () => {
    const config = loadConfig({
      DATA_DIR: ' ',
      PORT: '',
      AUDIT_SEALER_ENABLED: '',
      DEVELOPER_SIGNUP_ENABLED: '  ',
      LOG_LEVEL: '',
      REDIS_KEY_PREFIX: '',
      MAIL_FROM: '',
      DATABASE_URL: '',
      SMTP_URL: '',
    });
    expect(config.DATA_DIR).toBe('./data');
    expect(config.MAIL_DIR).toBe('./data/mail');
    expect(config.PORT).toBe(3000);
    expect(config.AUDIT_SEALER_ENABLED).toBe(true);
    expect(config.DEVELOPER_SIGNUP_ENABLED).toBe(true);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.REDIS_KEY_PREFIX).toBe('idsvc:');
    expect(config.MAIL_FROM).toMatch(/no-reply@localhost/);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('still uses a value that is given', () => {
    const config = loadConfig({ MAIL_DIR: '/var/mail/idsvc', AUDIT_SEALER_ENABLED: 'false', PORT: '8080' });
    expect(config.MAIL_DIR).toBe('/var/mail/idsvc');
    expect(config.AUDIT_SEALER_ENABLED).toBe(false);
    expect(config.PORT).toBe(8080);
  });
});
