import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { standardWebhookHeaders, standardWebhookKey, standardWebhookSecret, standardWebhookSignature } from './standard-webhooks';

describe('Standard Webhooks signatures', () => {
  it('reproduces the test vector published with the Standard Webhooks specification', () => {
    // Secret, message id, timestamp, body and expected signature as published with the specification.
    const key = Buffer.from('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'.slice('whsec_'.length), 'base64');
    const body = '{"test": 2432232314}';
    const signature = standardWebhookSignature([key], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    // And computed here from the definition, not from our code.
    const independent = createHmac('sha256', key).update(`msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.${body}`).digest('base64');
    expect(signature).toBe(`v1,${independent}`);
  });

  it('keys the HMAC with the UTF-8 bytes of the secret as the user holds it, whsec_ prefix and all', () => {
    const secret = 'whsec_A-b_c0123456789abcdefghijklmnopqrstuvwxyzABCD';
    const headers = standardWebhookHeaders([secret], 'whd_01', 1700000000, '{"a":"é"}');
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update('whd_01.1700000000.{"a":"é"}', 'utf8').digest('base64');
    expect(headers).toEqual({ 'webhook-id': 'whd_01', 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${expected}` });
    expect(standardWebhookKey('pä€')).toEqual(Buffer.from([0x70, 0xc3, 0xa4, 0xe2, 0x82, 0xac]));
  });

  it('signs with every key given, space-separated, so a receiver holding either verifies', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = standardWebhookHeaders(['old-secret-0123456789', 'new-secret-0123456789'], 'whd_rot', now, '{}');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    for (const secret of ['old-secret-0123456789', 'new-secret-0123456789']) {
      expect(new Webhook(standardWebhookKey(secret), { format: 'raw' }).verify('{}', headers)).toEqual({});
    }
    expect(() => new Webhook(standardWebhookKey('third-secret-0123456789'), { format: 'raw' }).verify('{}', headers)).toThrow('No matching signature');
  });

  it('is accepted by the standardwebhooks library built from raw bytes or from the published whsec_ form, for any secret', () => {
    const now = Math.floor(Date.now() / 1000);
    for (const secret of ['a form A secret chosen by a user', 'ünïcödé-secret-€-0123', `whsec_${Buffer.alloc(32, 7).toString('base64url')}`]) {
      const body = '{"id":"evt_1","type":"user.login_failed","data":{"user":"zoë"}}';
      const headers = standardWebhookHeaders([secret], 'whd_lib', now, body);
      expect(new Webhook(standardWebhookKey(secret), { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
      expect(new Webhook(standardWebhookSecret(secret)).verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => new Webhook(standardWebhookKey(secret), { format: 'raw' }).verify(body.replace('zoë', 'zoe'), headers)).toThrow('No matching signature');
    }
  });

  it('refuses to sign without a key or with a fractional timestamp', () => {
    expect(() => standardWebhookSignature([], 'id', 1, '')).toThrow('signing key');
    expect(() => standardWebhookSignature([Buffer.from('k')], 'id', 1.5, '')).toThrow('integer seconds');
  });
});
