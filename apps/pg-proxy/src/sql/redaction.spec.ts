import { compileRedactionPattern, RedactionPatternError, Redactor } from './redaction';

describe('Redactor (built-in rules)', () => {
  const redact = (sql: string) => new Redactor().redact(sql);

  it.each([
    ["ALTER ROLE app PASSWORD 'S3cret'", "ALTER ROLE app PASSWORD '***'"],
    ["alter user app with password 'S3cret' valid until 'infinity'", "alter user app with password '***' valid until 'infinity'"],
    ["CREATE ROLE app LOGIN ENCRYPTED PASSWORD 'S3cret'", "CREATE ROLE app LOGIN ENCRYPTED PASSWORD '***'"],
    ["CREATE USER app PaSsWoRd 'S3cret' CREATEDB", "CREATE USER app PaSsWoRd '***' CREATEDB"],
    ["ALTER ROLE app PASSWORD E'S3c\\'ret'", "ALTER ROLE app PASSWORD '***'"],
    ["ALTER ROLE app PASSWORD $$S3c'ret$$", "ALTER ROLE app PASSWORD '***'"],
    ["ALTER ROLE app PASSWORD $pw$S3c$$ret$pw$", "ALTER ROLE app PASSWORD '***'"],
    ["ALTER ROLE app PASSWORD U&'S3cret'", "ALTER ROLE app PASSWORD '***'"],
    ["ALTER ROLE app PASSWORD 'SCRAM-SHA-256$4096:abc=$def='", "ALTER ROLE app PASSWORD '***'"],
    ["CREATE USER MAPPING FOR app SERVER s OPTIONS (user 'u', password 'S3cret')", "CREATE USER MAPPING FOR app SERVER s OPTIONS (user 'u', password '***')"],
  ])('replaces the password literal: %s', (sql, expected) => {
    expect(redact(sql)).toBe(expected);
  });

  it('handles doubled quotes inside the literal without leaking its tail', () => {
    expect(redact("ALTER ROLE app PASSWORD 'it''s S3cret' LOGIN")).toBe("ALTER ROLE app PASSWORD '***' LOGIN");
  });

  it('leaves PASSWORD NULL and statements without secrets alone', () => {
    expect(redact('ALTER ROLE app PASSWORD NULL')).toBe('ALTER ROLE app PASSWORD NULL');
    expect(redact("SELECT 'password' AS word, note FROM t WHERE note = 'x'")).toBe("SELECT 'password' AS word, note FROM t WHERE note = 'x'");
  });

  it('is not fooled by PASSWORD inside a comment, an identifier or another literal', () => {
    expect(redact("SELECT /* password */ 'kept' , \"password\" FROM t")).toBe("SELECT /* password */ 'kept' , \"password\" FROM t");
    expect(redact("SELECT 'a password ''x''' AS s")).toBe("SELECT 'a password ''x''' AS s");
  });

  it('redacts every statement of a multi-statement text', () => {
    expect(redact("ALTER ROLE a PASSWORD 'one'; SELECT 1; CREATE ROLE b PASSWORD 'two'")).toBe("ALTER ROLE a PASSWORD '***'; SELECT 1; CREATE ROLE b PASSWORD '***'");
  });

  it('fails closed: a password literal that never ends takes the rest of the text with it', () => {
    expect(redact("ALTER ROLE a PASSWORD 'S3cret; SELECT 1")).toBe('ALTER ROLE a PASSWORD ***');
    expect(redact('ALTER ROLE a PASSWORD $x$S3cret')).toBe('ALTER ROLE a PASSWORD ***');
    // With standard_conforming_strings off, \' does not end the literal: its end is uncertain.
    expect(redact("ALTER ROLE a PASSWORD 'S3c\\' ret' LOGIN; SELECT 1")).toBe('ALTER ROLE a PASSWORD ***');
    expect(redact("SELECT pgp_sym_encrypt('d', 'K\\', 'x')")).toBe("SELECT pgp_sym_encrypt('d', ***");
    expect(redact("ALTER ROLE a PASSWORD E'S3c\\\\' LOGIN")).toBe("ALTER ROLE a PASSWORD '***' LOGIN");
  });

  it.each([
    ["SELECT pgp_sym_encrypt('data', 'K3y')", "SELECT pgp_sym_encrypt('data', '***')"],
    ["SELECT pgp_sym_encrypt('data', 'K3y', 'cipher-algo=aes256')", "SELECT pgp_sym_encrypt('data', '***', 'cipher-algo=aes256')"],
    ["SELECT PGP_SYM_DECRYPT(secret_col, 'K3y') FROM t", "SELECT PGP_SYM_DECRYPT(secret_col, '***') FROM t"],
    ["SELECT pgp_sym_decrypt_bytea(c, 'K3y')", "SELECT pgp_sym_decrypt_bytea(c, '***')"],
    ["SELECT encrypt('data'::bytea, 'K3y'::bytea, 'aes')", "SELECT encrypt('data'::bytea, '***'::bytea, 'aes')"],
    ["SELECT decrypt(c, 'K3y', 'aes') FROM t", "SELECT decrypt(c, '***', 'aes') FROM t"],
    ["SELECT encrypt_iv(c, 'K3y', 'IV', 'aes')", "SELECT encrypt_iv(c, '***', '***', 'aes')"],
    ["SELECT hmac('msg', 'K3y', 'sha256')", "SELECT hmac('msg', '***', 'sha256')"],
    ["SELECT crypt('PassW0rd', gen_salt('bf'))", "SELECT crypt('***', gen_salt('bf'))"],
    ["SELECT public.crypt('PassW0rd', hash) FROM users", "SELECT public.crypt('***', hash) FROM users"],
    ["SELECT pgp_pub_decrypt(c, dearmor('PRIV'), 'K3y')", "SELECT pgp_pub_decrypt(c, dearmor('***'), '***')"],
  ])('replaces pgcrypto keys: %s', (sql, expected) => {
    expect(redact(sql)).toBe(expected);
  });

  it('redacts a key built by an expression, and keys nested in other calls', () => {
    expect(redact("SELECT pgp_sym_encrypt(lower('data'), 'K' || E'3y')")).toBe("SELECT pgp_sym_encrypt(lower('data'), '***' || '***')");
    expect(redact("SELECT encode(hmac(x, concat('K', '3y'), 'md5'), 'hex')")).toBe("SELECT encode(hmac(x, concat('***', '***'), 'md5'), 'hex')");
  });

  it('leaves functions that only share a pgcrypto name as part of a longer name alone', () => {
    expect(redact("SELECT my_encrypt_helper('data', 'arg')")).toBe("SELECT my_encrypt_helper('data', 'arg')");
  });
});

describe('Redactor (configured patterns)', () => {
  it('replaces what a pattern matches, or only its groups, case-insensitively, everywhere', () => {
    const redactor = new Redactor([compileRedactionPattern('api_key=(\\w+)'), compileRedactionPattern('tok_[a-z0-9]{8}')]);
    expect(redactor.redact("SELECT set_config('app.x', 'API_KEY=abc123', false), 'tok_abcd1234', 'tok_zzzz9999'"))
      .toBe("SELECT set_config('app.x', 'API_KEY=***', false), '***', '***'");
  });

  it('runs after the built-in rules', () => {
    const redactor = new Redactor([compileRedactionPattern('conninfo_secret')]);
    expect(redactor.redact("ALTER ROLE a PASSWORD 'x'; SELECT 'conninfo_secret'")).toBe("ALTER ROLE a PASSWORD '***'; SELECT '***'");
  });

  it.each([
    ['(unclosed', /not a valid RE2/],
    ['(a)\\1', /not a valid RE2/],
    ['(?=lookahead)', /not a valid RE2/],
    ['x*', /matches the empty text/],
    ['', /is empty/],
  ])('refuses a bad pattern: %s', (source, message) => {
    expect(() => compileRedactionPattern(source)).toThrow(RedactionPatternError);
    expect(() => compileRedactionPattern(source)).toThrow(message);
  });
});
