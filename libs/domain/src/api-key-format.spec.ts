import { API_KEY_LENGTH, API_KEY_PREFIX, apiKeyDisplayPrefix, crc32, generateApiKey, isWellFormedApiKey } from './api-key-format';

describe('API key format', () => {
  it('computes the standard CRC-32 (check value of "123456789")', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
  });

  it('generates distinct, well-formed keys with the scanner prefix', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    expect(new Set(keys).size).toBe(200);
    for (const key of keys) {
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('rejects a key with one character changed (the checksum catches it)', () => {
    const key = generateApiKey();
    const i = API_KEY_PREFIX.length + 3;
    const changed = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(isWellFormedApiKey(changed)).toBe(false);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(isWellFormedApiKey(key.replace(API_KEY_PREFIX, 'vigil_xx_'))).toBe(false);
  });

  it('shows only a short prefix', () => {
    const key = generateApiKey();
    expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, API_KEY_PREFIX.length + 6));
  });
});
