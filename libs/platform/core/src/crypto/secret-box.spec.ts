import { safeEqual, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const oldKey = SecretBox.generateKey();
  const newKey = SecretBox.generateKey();

  it('opens what it sealed, and never writes the plaintext', () => {
    const box = new SecretBox([oldKey]);
    const sealed = box.seal('webhook-secret');
    expect(sealed).not.toContain('webhook-secret');
    expect(box.open(sealed)).toBe('webhook-secret');
    expect(box.seal('webhook-secret')).not.toBe(sealed);
  });

  it('keeps opening values sealed with an older key after rotation', () => {
    const sealedBefore = new SecretBox([oldKey]).seal('s1');
    const rotated = new SecretBox([newKey, oldKey]);
    expect(rotated.open(sealedBefore)).toBe('s1');
    expect(rotated.seal('s2').split('.')[1]).toBe(rotated.currentKeyId);
  });

  it('refuses tampered ciphertext and unknown keys', () => {
    const box = new SecretBox([oldKey]);
    const parts = box.seal('secret').split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox([newKey]).open(box.seal('x'))).toThrow(/unknown key/);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox([Buffer.alloc(16).toString('base64')])).toThrow(/32 bytes/);
  });
});

describe('safeEqual', () => {
  it('compares by content', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
